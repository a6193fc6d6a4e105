import { isSafeNumber, parse } from 'lossless-json';
import { type MockServer, startMockServer } from 'petstore-mock';
import { afterAll, beforeAll, expect, it } from 'vitest';

const headers = { authorization: 'Bearer petstore-dev-key' };
let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, bigIds: true }); // petstore-mock --big-ids
});
afterAll(() => server.close());

it('shows the bug: JSON.parse rounds an id beyond 2^53, and the rounded id names no pet', async () => {
  const [first] = (await (await fetch(`${server.url}/pets?limit=1`, { headers })).json()) as { id: number }[];
  expect(first?.id).toBe(9007199254740992); // the API sent 9007199254740993
  expect((await fetch(`${server.url}/pets/${first?.id}`, { headers })).status).toBe(404);
});

it('fixes it: parse integers a double cannot hold as bigint, and send ids back as they came', async () => {
  const text = await (await fetch(`${server.url}/pets?limit=1`, { headers })).text();
  const [first] = parse(text, null, (value) => (isSafeNumber(value) ? Number(value) : BigInt(value))) as { id: bigint }[];
  expect(first?.id).toBe(9007199254740993n);
  expect((await fetch(`${server.url}/pets/${first?.id}`, { headers })).status).toBe(200);
});
