// The MSW host in Node, measured in a process of its own (setupServer patches this process's fetch):
// requests per second of `fetch` through `setupServer(...handlers)`, of the mock's own `fetch(Request)`
// without MSW, and of `respond(MockRequest)`, the host-neutral entry the Node server calls. Each loop
// sends one request at a time, as a test suite does, and reads the whole body; the three alternate.
// Usage: node bench/msw.js <requests per round> <rounds>; prints one JSON line.
import { setupServer } from 'msw/node';
import { createMockApi } from 'petstore-mock';
import { createHandlers } from 'petstore-mock/msw';

const BASE = 'http://mock.test/v1';
const PATH = '/pets?limit=20';
const headers = { authorization: 'Bearer petstore-dev-key' };
const [requests = 2000, rounds = 3] = process.argv.slice(2).map(Number);

const api = createHandlers({ baseUrl: BASE });
const server = setupServer(...api);
server.listen({ onUnhandledFrame: 'error' });
const mock = createMockApi();
const mockRequest = {
  method: 'GET',
  target: '/v1/pets?limit=20',
  header: (name) => headers[name],
  text: async () => '',
};

/** @type {Record<string, () => Promise<{ status: number, body: string }>>} */
const ways = {
  msw: async () => {
    const response = await fetch(BASE + PATH, { headers });
    return { status: response.status, body: await response.text() };
  },
  fetch: async () => {
    const response = await mock.fetch(new Request(BASE + PATH, { headers }));
    return { status: response.status, body: await response.text() };
  },
  handle: async () => {
    const answer = await mock.respond(mockRequest);
    return { status: answer.status, body: answer.body };
  },
};

const answers = Object.fromEntries(await Promise.all(Object.entries(ways).map(async ([name, call]) => [name, await call()])));
const rps = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
for (let round = -1; round < rounds; round++) {
  for (const [name, call] of Object.entries(ways)) {
    const started = performance.now();
    for (let i = 0; i < requests; i++) await call();
    // Round -1 warms the JIT up and is not counted.
    if (round >= 0) rps[name].push(requests / ((performance.now() - started) / 1000));
  }
}
server.close();
process.stdout.write(`${JSON.stringify({ answers, rps })}\n`);
