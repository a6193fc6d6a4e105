import { setupServer } from 'msw/node';
import type { Pet } from 'petstore-mock';
import { pets } from 'petstore-mock/fixtures';
import { createHandlers } from 'petstore-mock/msw';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const API = 'https://api.example.test/v1';
const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' };

const api = createHandlers({ baseUrl: API });
const server = setupServer(...api);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' })); // msw 2: server.listen({ onUnhandledRequest: 'error' })
afterEach(() => {
  server.resetHandlers();
  api.reset(); // every test starts from the seeded pets
});
afterAll(() => server.close());

it('lists the seeded pets', async () => {
  const response = await fetch(`${API}/pets`, { headers });
  expect(await response.json()).toEqual(pets.slice(0, 20));
});

it('adds a pet, which later requests see', async () => {
  const created = await fetch(`${API}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 3 }) });
  expect(created.status).toBe(201);
  const rex = (await created.json()) as Pet;
  expect(await (await fetch(`${API}/pets/${rex.id}`, { headers })).json()).toEqual(rex);
});

it('starts from the seeded pets again', async () => {
  expect((await fetch(`${API}/pets/${pets.length + 1}`, { headers })).status).toBe(404);
});

it('answers 401 without the key, as the real API does', async () => {
  const response = await fetch(`${API}/pets`);
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ code: 'unauthorized', status: 401 });
});
