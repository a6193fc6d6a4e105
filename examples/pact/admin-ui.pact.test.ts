/**
 * A consumer team's Pact test, to copy into your project and rename: it drives your client against
 * Pact's mock server and writes pacts/admin-ui-petstore-api.json, which the provider's CI replays with
 * `petstore-verify --suite pact --pact <file>`. Keep the provider name `petstore-api`, the paths under
 * `/v1`, and the provider states petstore-verify knows how to set up (docs/pact.md).
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createClient } from 'petstore-mock/client';
import { describe, expect, it } from 'vitest';

const { eachLike, fromProviderState, integer, string } = MatchersV3;

const pact = new PactV4({ consumer: 'admin-ui', provider: 'petstore-api', dir: process.env.PACT_DIR ?? 'pacts', logLevel: 'error' });
const KEY = 'petstore-dev-key';
// Match what your code reads, by type: any name and ids the provider chooses satisfy the contract.
const pet = { id: integer(1), name: string('Gus'), categoryId: integer(3) };
// biome-ignore lint/suspicious/noTemplateCurlyInString: Pact's expression for the id the provider state injects
const INJECTED_ID = '${id}';

describe('admin-ui, a consumer of petstore-api', () => {
  it('lists pets', () =>
    pact
      .addInteraction()
      .given('pets exist')
      .uponReceiving('admin-ui lists pets')
      .withRequest('GET', '/v1/pets', (request) => request.headers({ Authorization: `Bearer ${KEY}` }))
      .willRespondWith(200, (response) => response.jsonBody(eachLike(pet)))
      .executeTest(async (server) => {
        const pets = await createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).listPets();
        expect(pets[0]?.name).toBe('Gus');
      }));

  it('reads the pet it was shown', () =>
    pact
      .addInteraction()
      .given('a pet exists')
      .uponReceiving('admin-ui reads one pet')
      .withRequest('GET', fromProviderState(`/v1/pets/${INJECTED_ID}`, '/v1/pets/7'), (request) => request.headers({ Authorization: `Bearer ${KEY}` }))
      .willRespondWith(200, (response) => response.jsonBody({ ...pet, id: fromProviderState(INJECTED_ID, 7) }))
      .executeTest(async (server) => {
        const found = await createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).getPet(7);
        expect(found.id).toBe(7);
      }));
});
