// A file of its own: MSW patches this worker's global fetch while it listens.
/**
 * MSW's answers say their length as the Node server's do (red team 6, #11): a `GET` once carried no
 * `Content-Length` while its `HEAD` said 119. Through `setupServer` and the package's handlers.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/mock/hosts/msw.js';

const BASE = 'https://api.example.test/v1';
const AUTH = { authorization: 'Bearer petstore-dev-key' };
const server = setupServer(...createHandlers({ baseUrl: BASE }));
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

describe('MSW handlers', () => {
  it.each([
    ['/pets?limit=2', ''],
    ['/pets/1', ''],
    ['/pets/0', ''],
    ['/pets', 'code=503'],
    ['/pets', 'fault=slow, trickle=50'],
  ])('GET %s (%s) says its Content-Length, the one its HEAD says', async (path, prefer) => {
    const headers = { ...AUTH, ...(prefer === '' ? {} : { prefer }) };
    const get = await fetch(BASE + path, { headers });
    const length = String(new TextEncoder().encode(await get.text()).length);
    expect(get.headers.get('content-length')).toBe(length);
    const head = await fetch(BASE + path, { method: 'HEAD', headers });
    expect(head.headers.get('content-length')).toBe(length);
  });
});
