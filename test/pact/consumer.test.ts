/**
 * The front-end's expectations of the API, as a Pact consumer contract: each interaction drives the
 * typed client (`petstore-mock/client`) against Pact's mock server. The pact is written to a fresh
 * folder and must equal the committed spec/pacts file; `npm run pacts` rewrites that file.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { CONSUMER, PACT_FILE, PROVIDER, STATES } from '../../src/contracts/pact/names.js';
import { apiErrorOf } from '../support/api-error.js';

const { eachLike, fromProviderState, integer, like, number, regex, string } = MatchersV3;

const UPDATE = process.env.PACT_UPDATE === '1';
const dir = UPDATE ? 'spec/pacts' : mkdtempSync(join(tmpdir(), 'petstore-pact-'));
const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'error' });

const KEY = 'petstore-dev-key';
/** Pact's expression for the id a provider state injects (Pact syntax, not a template literal). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: this is Pact's expression syntax
const INJECTED_ID = '${id}';
// biome-ignore lint/suspicious/noTemplateCurlyInString: this is Pact's expression syntax
const INJECTED_CATEGORY = '${categoryId}';
const AUTHORIZATION = { Authorization: regex(/^Bearer \S+$/, `Bearer ${KEY}`) };
const JSON_TYPE = { 'Content-Type': regex(/^application\/json(;.*)?$/, 'application/json') };
// What the front-end relies on: the fields the spec requires. The status of a pet added without
// one is left open by the interface, so the contract does not demand it of every pet. An int64 is
// matched as a number: to JSON Schema 7.0 is the integer 7, and Pact's `integer` matcher would refuse
// that spelling the spec allows (the spec suite checks the value is an integer); the pact demands no
// more than the spec.
const pet = { id: number(1), name: string('Gus'), categoryId: number(3) };
/**
 * A number equal to `value` however JSON spells it (401, 401.0: one integer to JSON Schema), where
 * Pact's equality would demand one spelling: the provider matches a number's matcher against its text.
 */
const sameNumber = (value: number): MatchersV3.Matcher<number> & { regex: string } => ({
  'pact:matcher:type': 'regex',
  regex: `^${value}(\\.0+)?$`,
  value,
});
// The Error's status is the HTTP status, exactly, however spelt; its code and message are the provider's to word.
const errorBody = (status: number, code: string) => ({ code: string(code), message: string('what went wrong'), status: sameNumber(status) });

// Pact's mock server can report a request it received and answered as "expected but not received" when
// the machine is busy (pact-foundation/pact-js#1835, a race in its own bookkeeping): seen once in CI on
// Node 22.13 while the client had its 400. A second try tells that race from a real mismatch, which fails every try.
describe('consumer contract of petstore-web with petstore-api', { retry: 2 }, () => {
  it('lists pets with the default page', () =>
    pact
      .addInteraction()
      .given(STATES.petsExist)
      .uponReceiving('a request to list pets')
      .withRequest('GET', '/v1/pets', (request) => request.headers(AUTHORIZATION))
      .willRespondWith(200, (response) => response.headers(JSON_TYPE).jsonBody(eachLike(pet)))
      .executeTest(async (server) => {
        const pets = await createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).listPets();
        expect(pets[0]).toEqual({ id: 1, name: 'Gus', categoryId: 3 });
      }));

  it('lists pets with a limit', () =>
    pact
      .addInteraction()
      .given(STATES.petsExist)
      .uponReceiving('a request to list at most 2 pets')
      .withRequest('GET', '/v1/pets', (request) => request.headers(AUTHORIZATION).query({ limit: '2' }))
      .willRespondWith(200, (response) => response.headers(JSON_TYPE).jsonBody(eachLike(pet, 1)))
      .executeTest(async (server) => {
        const pets = await createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).listPets({ limit: 2 });
        expect(pets.length).toBeGreaterThan(0);
      }));

  it('lists pets of one status', () =>
    pact
      .addInteraction()
      .given(STATES.soldPetExists)
      .uponReceiving('a request to list sold pets')
      .withRequest('GET', '/v1/pets', (request) => request.headers(AUTHORIZATION).query({ status: 'sold' }))
      .willRespondWith(200, (response) => response.headers(JSON_TYPE).jsonBody(eachLike({ ...pet, status: regex(/^sold$/, 'sold') })))
      .executeTest(async (server) => {
        const pets = await createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).listPets({ status: 'sold' });
        expect(pets.every((p) => p.status === 'sold')).toBe(true);
      }));

  it('is refused the list without a key', () =>
    pact
      .addInteraction()
      .uponReceiving('a request to list pets without a key')
      .withRequest('GET', '/v1/pets')
      .willRespondWith(401, (response) => response.headers(JSON_TYPE).jsonBody(errorBody(401, 'unauthorized')))
      .executeTest(async (server) => {
        const error = await apiErrorOf(createClient({ baseUrl: `${server.url}/v1` }).listPets());
        expect(error.status).toBe(401);
        expect(error.body.status).toBe(401);
      }));

  it('is told a limit of 0 is invalid', () =>
    pact
      .addInteraction()
      // The interface also allows a valid page here: a provider that answers one is warned, not failed.
      .pending(true)
      .comment('pending: the interface allows a valid page of at most 100 pets instead of 400')
      .uponReceiving('a request to list pets with limit 0')
      .withRequest('GET', '/v1/pets', (request) => request.headers(AUTHORIZATION).query({ limit: '0' }))
      .willRespondWith(400, (response) => response.headers(JSON_TYPE).jsonBody(errorBody(400, 'bad_request')))
      .executeTest(async (server) => {
        const error = await apiErrorOf(createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).listPets({ limit: 0 }));
        expect(error.status).toBe(400);
      }));

  it('creates a pet', () =>
    pact
      .addInteraction()
      // A deployment may refuse categories it does not know: the state names one it knows.
      .given(STATES.categoryExists)
      .uponReceiving('a request to create a pet')
      .withRequest('POST', '/v1/pets', (request) =>
        request.headers({ ...AUTHORIZATION, ...JSON_TYPE }).jsonBody({ name: 'Rex', categoryId: fromProviderState(INJECTED_CATEGORY, 3), status: 'available' }),
      )
      .willRespondWith(201, (response) =>
        // What was sent comes back exactly.
        response.headers(JSON_TYPE).jsonBody({ id: number(51), name: 'Rex', categoryId: fromProviderState(INJECTED_CATEGORY, 3), status: 'available' }),
      )
      .executeTest(async (server) => {
        const created = await createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).createPet({ name: 'Rex', categoryId: 3, status: 'available' });
        expect(created).toMatchObject({ id: 51, name: 'Rex' });
      }));

  it('is told a pet needs a name', () =>
    pact
      .addInteraction()
      .uponReceiving('a request to create a pet without a name')
      .withRequest('POST', '/v1/pets', (request) => request.headers({ ...AUTHORIZATION, ...JSON_TYPE }).jsonBody({ categoryId: integer(3) }))
      .willRespondWith(400, (response) => response.headers(JSON_TYPE).jsonBody(errorBody(400, 'bad_request')))
      .executeTest(async (server) => {
        const client = createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY });
        const error = await apiErrorOf(client.createPet({ categoryId: 3 } as never));
        expect(error.status).toBe(400);
      }));

  it('is refused creating a pet without a key', () =>
    pact
      .addInteraction()
      .uponReceiving('a request to create a pet without a key')
      .withRequest('POST', '/v1/pets', (request) => request.headers(JSON_TYPE).jsonBody({ name: like('Rex'), categoryId: integer(3) }))
      .willRespondWith(401, (response) => response.headers(JSON_TYPE).jsonBody(errorBody(401, 'unauthorized')))
      .executeTest(async (server) => {
        const error = await apiErrorOf(createClient({ baseUrl: `${server.url}/v1` }).createPet({ name: 'Rex', categoryId: 3 }));
        expect(error.status).toBe(401);
      }));

  it('reads a pet by id', () =>
    pact
      .addInteraction()
      .given(STATES.petExists)
      .uponReceiving('a request for an existing pet')
      .withRequest('GET', fromProviderState(`/v1/pets/${INJECTED_ID}`, '/v1/pets/7'), (request) => request.headers(AUTHORIZATION))
      .willRespondWith(200, (response) => response.headers(JSON_TYPE).jsonBody({ ...pet, id: fromProviderState(INJECTED_ID, 7) }))
      .executeTest(async (server) => {
        const found = await createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).getPet(7);
        expect(found.id).toBe(7);
      }));

  it('is told an absent pet is not found', () =>
    pact
      .addInteraction()
      .given(STATES.petAbsent)
      .uponReceiving('a request for an absent pet')
      .withRequest('GET', fromProviderState(`/v1/pets/${INJECTED_ID}`, '/v1/pets/404404'), (request) => request.headers(AUTHORIZATION))
      .willRespondWith(404, (response) => response.headers(JSON_TYPE).jsonBody(errorBody(404, 'not_found')))
      .executeTest(async (server) => {
        const error = await apiErrorOf(createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).getPet(404404));
        expect(error.status).toBe(404);
      }));

  it('is refused a pet without a key', () =>
    pact
      .addInteraction()
      .uponReceiving('a request for a pet without a key')
      .withRequest('GET', '/v1/pets/1')
      .willRespondWith(401, (response) => response.headers(JSON_TYPE).jsonBody(errorBody(401, 'unauthorized')))
      .executeTest(async (server) => {
        const error = await apiErrorOf(createClient({ baseUrl: `${server.url}/v1` }).getPet(1));
        expect(error.status).toBe(401);
      }));

  it.skipIf(UPDATE)(`writes exactly the committed spec/pacts/${PACT_FILE} (run npm run pacts when it changes)`, () => {
    const written = readFileSync(join(dir, PACT_FILE), 'utf8');
    const committed = readFileSync(join('spec/pacts', PACT_FILE), 'utf8');
    expect(JSON.parse(written), `spec/pacts/${PACT_FILE} is stale: run npm run pacts and commit it`).toEqual(JSON.parse(committed));
  });
});
