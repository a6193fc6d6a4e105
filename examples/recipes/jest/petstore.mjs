/** This worker's session of the mock: JEST_WORKER_ID numbers the workers that run at once, from 1. */
export const session = `jest-${process.env.JEST_WORKER_ID}`;

/** A request to the mock's API (PETSTORE_URL ends in /v1) in this worker's session, with a JSON body if given. */
export function petstore(path, { method = 'GET', body } = {}) {
  const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', 'x-mock-session': session };
  return fetch(`${process.env.PETSTORE_URL}${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
}

// Every test starts from the seeded pets; other workers' sessions are untouched. X-Mock-Admin is optional from a script.
beforeEach(async () => {
  const reset = await fetch(new URL(`/__mock/sessions/${session}/reset`, process.env.PETSTORE_URL), { method: 'POST', headers: { 'x-mock-admin': '1' } });
  if (!reset.ok) throw new Error(`the mock did not reset session ${session}: ${reset.status} ${await reset.text()}`);
});
