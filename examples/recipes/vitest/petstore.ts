import { beforeEach } from 'vitest';

/** This worker's session of the mock: VITEST_POOL_ID numbers the workers that run at once, from 1. */
export const session = `vitest-${process.env.VITEST_POOL_ID}`;

/** A request to the mock's API (PETSTORE_URL ends in /v1) in this worker's session, with a JSON body if given. */
export function petstore(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', 'x-mock-session': session };
  const body = init.body === undefined ? null : JSON.stringify(init.body);
  return fetch(`${process.env.PETSTORE_URL}${path}`, { method: init.method ?? 'GET', headers, body });
}

// Every test starts from the seeded pets, whatever the tests before it in this worker did; other workers' sessions are untouched.
// X-Mock-Admin is optional from a script; the mock refuses admin requests from web pages of other origins.
beforeEach(async () => {
  const reset = await fetch(new URL(`/__mock/sessions/${session}/reset`, process.env.PETSTORE_URL), { method: 'POST', headers: { 'x-mock-admin': '1' } });
  if (!reset.ok) throw new Error(`the mock did not reset session ${session}: ${reset.status} ${await reset.text()}`);
});
