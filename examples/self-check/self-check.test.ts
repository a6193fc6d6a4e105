import { setupServer } from 'msw/node';
import { createHandlers } from 'petstore-mock/msw';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const API = 'https://api.example.test/v1';
const mismatches: string[] = [];
const api = createHandlers({ baseUrl: API, selfCheck: (mismatch) => mismatches.push(mismatch) });
const server = setupServer(...api);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' })); // msw 2: server.listen({ onUnhandledRequest: 'error' })
afterEach(() => expect(mismatches.splice(0)).toEqual([])); // an answer that breaks the spec fails the test that caused it
afterAll(() => server.close());

it('answers a bad limit with the 400 the spec documents, so the self-check finds nothing', async () => {
  const response = await fetch(`${API}/pets?limit=0`, { headers: { authorization: 'Bearer petstore-dev-key' } });
  expect(response.status).toBe(400);
});
