import { describe, expect, it } from 'vitest';
import { adminProblem, guardResponse, headerValues, hostCheck, hostName } from './host-guard.js';

describe('hostName', () => {
  it('drops the port and the brackets of IPv6, and lower-cases', () => {
    expect(hostName('Mock.Internal:4010')).toBe('mock.internal');
    expect(hostName('[::1]:4010')).toBe('::1');
    expect(hostName('[::1]')).toBe('::1');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('hostCheck', () => {
  const allowed = hostCheck(['mock.internal']);

  it('passes localhost, IP literals and the allowed names, with any port', () => {
    for (const host of ['localhost', 'LOCALHOST:1', '10.0.0.7:4010', '[fe80::1]:80', 'mock.internal', 'mock.internal:9'])
      expect(allowed(host), host).toBe(true);
  });

  it('refuses other names, also those that merely start or end like an allowed one', () => {
    for (const host of ['evil.example', 'localhost.evil.example', 'mock.internal.evil.example', '127.0.0.1.nip.io', '', '[::1', 'evil.example:127.0.0.1']) {
      expect(allowed(host), host).toBe(false);
    }
  });
});

describe('headerValues', () => {
  it('finds every value of a header, in any case, and none of the others', () => {
    expect(headerValues(['Host', 'a', 'AUTHORIZATION', 'x', 'authorization', 'y', 'X-Authorization', 'z'], 'authorization')).toEqual(['x', 'y']);
  });
});

describe('adminProblem', () => {
  const request = (method: string, headers: Record<string, string>) => ({
    method,
    target: '/__mock/reset',
    header: (name: string) => headers[name],
    text: async () => '',
  });

  it('passes reads and marked or JSON writes from scripts and the own origin', () => {
    expect(adminProblem(request('GET', {}), '127.0.0.1:4010')).toBeUndefined();
    expect(adminProblem(request('POST', { 'x-mock-admin': '1' }), '127.0.0.1:4010')).toBeUndefined();
    expect(adminProblem(request('POST', { 'content-type': 'application/merge-patch+json; charset=utf-8' }), 'h')).toBeUndefined();
    expect(adminProblem(request('DELETE', { origin: 'http://LOCALHOST:4010', 'x-mock-admin': '1' }), 'localhost:4010')).toBeUndefined();
  });

  // Issue 23, by design: a request without Origin and without Sec-Fetch-Site naming another site is no page's.
  it('passes writes with no Origin from scripts, as curl, Playwright and Cypress send them', () => {
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'sec-fetch-site': 'none' }, { 'sec-fetch-site': 'same-origin' }])
      expect(adminProblem(request('POST', headers), '127.0.0.1:4010')).toBeUndefined();
    expect(adminProblem(request('DELETE', {}), '127.0.0.1:4010')).toBeUndefined();
  });

  it('refuses other origins, preflights and unmarked writes, with 403 and no CORS', () => {
    const refused = [
      adminProblem(request('GET', { origin: 'http://localhost:5173' }), 'localhost:4010'),
      adminProblem(request('POST', { origin: 'https://127.0.0.1:4010', 'x-mock-admin': '1' }), '127.0.0.1:4010'),
      adminProblem(request('OPTIONS', {}), '127.0.0.1:4010'),
      // Issue 23: without Origin, a write is refused only when Sec-Fetch-Site says another site sent it.
      adminProblem(request('POST', { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' }), '127.0.0.1:4010'),
      adminProblem(request('POST', { 'x-mock-admin': '1', 'sec-fetch-site': 'Same-Site' }), '127.0.0.1:4010'),
      adminProblem(request('POST', { origin: 'null', 'x-mock-admin': '1' }), '127.0.0.1:4010'),
      adminProblem(request('POST', { origin: 'http://127.0.0.1:4010', 'content-type': 'text/plain' }), '127.0.0.1:4010'),
      adminProblem(request('POST', { origin: 'http://127.0.0.1:4010', 'content-type': 'text/json' }), '127.0.0.1:4010'),
    ];
    for (const answer of refused) {
      expect(answer?.status).toBe(403);
      expect(Object.keys(answer?.headers ?? {}).some((name) => name.startsWith('access-control-'))).toBe(false);
    }
  });
});

describe('guardResponse', () => {
  const guard = (...hosts: string[]) =>
    guardResponse(
      hostCheck([]),
      { method: 'GET', target: '/v1/pets', header: () => undefined, text: async () => '' },
      { rawHeaders: hosts.flatMap((host) => ['Host', host]), httpVersion: '1.1' },
    );

  it('refuses a Host whose port is no 16-bit number, or an IPv6 address out of brackets, with a 400 Error', () => {
    for (const host of ['localhost:abc', '127.0.0.1:4010x', 'localhost:65536', 'localhost:-1', '::1', '[::1', '[::1]x', 'localhost:1:2']) {
      const refused = guard(host);
      expect([refused?.status, JSON.parse(refused?.body ?? '{}').code], host).toEqual([400, 'bad_request']);
    }
    expect(guard('localhost', 'localhost:abc')?.status).toBe(400);
  });

  it('lets a well-formed Host pass, with a port or without, an empty port too (RFC 3986)', () => {
    for (const host of ['localhost', 'localhost:4010', 'LOCALHOST:', '127.0.0.1:0', '[::1]:65535', '[::1]']) expect(guard(host), host).toBeUndefined();
  });

  it('reads a Host by its grammar (RFC 9110 7.2, RFC 3986 3.2.2): no zone id, no IP-literal that is no address, a port of any digits up to 65535', () => {
    const outcome = (host: string) => guard(host)?.status ?? 'served';
    // An IP-literal holds an IPv6 address (or IPvFuture), never a zone id; anything else in brackets is no host.
    for (const host of ['[::1%evil.com]', '[::1%25evil.com]', '[fe80::1%eth0]:80', '[zzzz]', '[]', '[:]', '[1:2:3]', '[127.0.0.1]'])
      expect(outcome(host), host).toBe(400);
    // A reg-name holds no space, `@`, `/` or `\\`.
    for (const host of ['127.0.0.1@evil.com', 'user@127.0.0.1', '127.0.0.1 evil.com', 'a/b', 'a\\b']) expect(outcome(host), host).toBe(400);
    // `port = *DIGIT`: leading zeros read the same wherever they are, the value at most 65535.
    for (const host of ['127.0.0.1:080', '127.0.0.1:065535', 'localhost:00000000000000004711', '[::ffff:127.0.0.1]:0080'])
      expect(outcome(host), host).toBe('served');
    expect(outcome('127.0.0.1:065536')).toBe(400);
    // Well formed, but not a name or address this mock serves: a 403.
    for (const host of ['[v1.x]', '999.999.999.999', 'localhost,evil.com', '%31%32%37.0.0.1']) expect(outcome(host), host).toBe(403);
  });
});
