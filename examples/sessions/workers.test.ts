import { type MockServer, type Pet, startMockServer } from 'petstore-mock';
import { afterAll, beforeAll, expect, it } from 'vitest';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

/** What one Playwright or Cypress worker does: reset its own session, add a pet, list what it sees. */
async function worker(session: string): Promise<Pet[]> {
  const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', 'x-mock-session': session };
  await fetch(new URL(`/__mock/sessions/${session}/reset`, server.url), { method: 'POST', headers: { 'x-mock-admin': '1' } });
  await fetch(`${server.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `${session}'s pet`, categoryId: 1 }) });
  return (await (await fetch(`${server.url}/pets?limit=100`, { headers })).json()) as Pet[];
}

it('gives every worker its own copy of the pets: none sees another one’s', async () => {
  const sessions = ['worker-0', 'worker-1', 'worker-2', 'worker-3'];
  const seen = await Promise.all(sessions.map(worker));
  sessions.forEach((session, i) => {
    expect(seen[i]?.filter((pet) => pet.id > 50).map((pet) => pet.name)).toEqual([`${session}'s pet`]);
  });
});
