// A file of its own: MSW patches this worker's global fetch while its server listens.
/**
 * `createHandlers({ data })`: the MSW handlers serve your own pets, ids beyond 2^53 exact, and
 * `POST /__mock/pets` puts one exact pet into a session, as the Node server does.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { ADMIN, AUTH } from '../support/http-facts.js';

const MAX = 2n ** 63n - 1n;
const baseUrl = 'https://api.example.test/v1';
const handlers = createHandlers({
  baseUrl,
  data: [
    { id: MAX, name: 'Max', categoryId: 1, status: 'sold' },
    { id: 12, name: 'Rex', categoryId: 2, status: 'available' },
  ],
});
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

describe('createHandlers({ data })', () => {
  it('serves the pets given, the int64 maximum exact', async () => {
    const list = await (await fetch(`${baseUrl}/pets`, { headers: AUTH })).text();
    expect(list).toBe(`[{"id":12,"name":"Rex","categoryId":2,"status":"available"},{"id":${MAX},"name":"Max","categoryId":1,"status":"sold"}]`);
    expect(await (await fetch(`${baseUrl}/pets/${MAX}`, { headers: AUTH })).text()).toContain(`"id":${MAX}`);
  });

  it('puts a pet into a session with POST /__mock/pets', async () => {
    const put = await fetch('https://api.example.test/__mock/pets', {
      method: 'POST',
      headers: { ...ADMIN, 'x-mock-session': 'one-pet' },
      body: '{"id": 5, "name": "Gus", "categoryId": 3, "status": "pending"}',
    });
    expect(put.status).toBe(200);
    expect(await (await fetch(`${baseUrl}/pets/5`, { headers: { ...AUTH, 'x-mock-session': 'one-pet' } })).json()).toMatchObject({ name: 'Gus' });
    expect((await fetch(`${baseUrl}/pets/5`, { headers: AUTH })).status).toBe(404);
  });

  it('throws a TypeError naming each fault of bad data', () => {
    expect(() => createHandlers({ data: [{ id: 1, name: 'Rex', categoryId: 1.5 }] })).toThrow(/^data\[0\]\.categoryId must be an integer/);
  });
});
