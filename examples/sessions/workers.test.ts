import { type MockServer, type Pet, startMockServer } from 'petstore-mock';
import { afterAll, beforeAll, expect, it } from 'vitest';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

/** What one Playwright or Cypress worker does: reset its own session, add a pet, read back the pet of that id. */
async function worker(session: string): Promise<Pet> {
  const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', 'x-mock-session': session };
  await fetch(new URL(`/__mock/sessions/${session}/reset`, server.url), { method: 'POST', headers: { 'x-mock-admin': '1' } });
  const created = await fetch(`${server.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `${session}'s pet`, categoryId: 1 }) });
  const { id } = (await created.json()) as Pet;
  return (await (await fetch(`${server.url}/pets/${id}`, { headers })).json()) as Pet;
}

it('gives every worker its own copy of the pets: none sees another one’s', async () => {
  const sessions = ['worker-0', 'worker-1', 'worker-2', 'worker-3'];
  const seen = await Promise.all(sessions.map(worker));
  expect(seen.map((pet) => pet.name)).toEqual(sessions.map((session) => `${session}'s pet`));
  // Each session numbers its own pets after the seeded ones: the one id is another pet in each.
  expect(new Set(seen.map((pet) => pet.id)).size).toBe(1);
});
