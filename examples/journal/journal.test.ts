import { setupServer } from 'msw/node';
import { createHandlers } from 'petstore-mock/msw';
import { expectRequests } from 'petstore-mock/testing';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const API = 'https://api.example.test/v1';
const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' };

const api = createHandlers({ baseUrl: API });
const server = setupServer(...api);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' })); // msw 2: server.listen({ onUnhandledRequest: 'error' })
afterEach(() => api.reset()); // the pets and the journal, as they started
afterAll(() => server.close());

/** The code under test: the app's "add a pet" form. */
async function addPet(name: string): Promise<void> {
  await fetch(`${API}/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 3 }) });
}

it('sends the new pet once', async () => {
  await addPet('Rex');
  await expectRequests(api)
    .toInclude({ method: 'POST', path: '/v1/pets', body: { name: 'Rex' } })
    .times(1);
});

it('says what the mock received instead', async () => {
  await addPet('Rexy');
  await expect(
    expectRequests(api)
      .toInclude({ method: 'POST', path: '/v1/pets', body: { name: 'Rex' } })
      .times(1),
  ).rejects.toThrow(/received 0 .*\n.*#\d+ POST \/v1\/pets -> 201 \(createPet\).*\n\s+body\.name is "Rexy", not "Rex"/);
});

it('reads the journal from code, with filters', async () => {
  await fetch(`${API}/pets/999`, { headers });
  const [miss] = await api.requests({ status: '4xx' });
  expect(miss).toMatchObject({ method: 'GET', path: '/v1/pets/999', status: 404, operation: 'getPet', rule: 'operation' });
  expect(miss?.headers.authorization).toBe('Bearer ***'); // never the key
});
