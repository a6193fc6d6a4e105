/**
 * The code API's entry points fed what JavaScript may pass them (issue 34, item 5: every input checked
 * where it enters): a wrong type or value is a `TypeError` or `RangeError` naming the option and what
 * to give, before a port is bound or a file opened; never a message of the code that would trip on it
 * later (`authority.indexOf is not a function`), a crash at the first request, nor a value silently
 * taken (`port: '80'`, `allowedHosts: ['-evil.com']`).
 */
import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { seededPets } from '../../src/fixtures/index.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { petstoreMock } from '../../src/mock/hosts/vite.js';
import { startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import { expectRequests } from '../../src/testing/index.js';

const server: [string, unknown, RegExp][] = [
  ['port', '80', /^port must be a number, a whole one from 0 to 65535; got the string "80"$/],
  ['port', 70_000, /^port must be a whole number from 0 to 65535; got 70000$/],
  ['host', 42, /^host must be a string/],
  ['host', '', /^host "": Expected an interface to bind: an IP address such as 127\.0\.0\.1/],
  ['allowedHosts', 'mock.internal', /^allowedHosts must be a list/],
  ['allowedHosts', ['-evil.com'], /^allowedHosts "-evil\.com": Expected a host name such as mock\.internal.* \(RFC 1123\)/],
  ['onRequest', 'console.log', /^onRequest must be a function/],
  ['timeouts', { headersMs: -1 }, /^timeouts\.headersMs must be a whole number from 1 to 86400000; got -1$/],
  ['timeouts', { headerMs: 500 }, /^timeouts: headerMs is none of the server's time-outs, headersMs, requestMs/],
  // Each in range, together not (red team 11 #7: Node's own "headersTimeout must be <= requestTimeout").
  ['timeouts', { headersMs: 60_000 }, /^timeouts\.headersMs \(60000\) must be at most timeouts\.requestMs \(30000\): the headers are part of the request/],
  ['timeouts', { requestMs: 5_000 }, /^timeouts\.headersMs \(10000\) must be at most timeouts\.requestMs \(5000\)/],
];

describe('startMockServer and startProxyServer refuse a wrong option before they bind, naming it', () => {
  for (const [name, value, message] of server) {
    it(`${name}: ${JSON.stringify(value)}`, async () => {
      await expect(startMockServer({ port: 0, [name]: value } as never)).rejects.toThrow(message);
      await expect(startProxyServer({ upstream: 'http://127.0.0.1:1/v1', port: 0, [name]: value } as never)).rejects.toThrow(message);
    });
  }

  it('startMockServer: the state file, the store, its namespace and time-out', async () => {
    await expect(startMockServer({ stateFile: '' })).rejects.toThrow(/^stateFile must name a file/);
    await expect(startMockServer({ store: 'redis:///0' })).rejects.toThrow(/^The store: must name the host/);
    await expect(startMockServer({ store: 'redis://127.0.0.1:1', namespace: 'a b' })).rejects.toThrow(/^namespace: A namespace is 1 to 64 letters/);
    await expect(startMockServer({ storeTimeout: 0 })).rejects.toThrow(/^storeTimeout must be a whole number from 1 to 600000/);
    await expect(startMockServer(42 as never)).rejects.toThrow(/^startMockServer takes an object of options/);
  });

  it('startProxyServer: its own options', async () => {
    const upstream = 'http://127.0.0.1:1/v1';
    await expect(startProxyServer({ upstream: 42 as never })).rejects.toThrow(/^upstream: must be a URL, a string/);
    await expect(startProxyServer({ upstream, timeoutMs: 0 })).rejects.toThrow(/^timeoutMs must be a whole number/);
    await expect(startProxyServer({ upstream, upstreamKey: 42 as never })).rejects.toThrow(/^upstreamKey must be a string/);
    await expect(startProxyServer({ upstream, prefer: 'no' as never })).rejects.toThrow(/^prefer must be true or false/);
  });
});

// The plugin takes startMockServer's options and checks them as it does, when the config is written (red
// team 10 #5); an empty host is the reach rule's, said when Vite starts.
describe('petstoreMock refuses a wrong option of the mock it starts where it enters, naming it', () => {
  for (const [name, value, message] of server.filter(([name, value]) => name !== 'host' || value !== '')) {
    if (name === 'allowedHosts' && Array.isArray(value)) continue;
    it(`${name}: ${JSON.stringify(value)}`, () => {
      expect(() => petstoreMock({ [name]: value } as never)).toThrow(message);
    });
  }
  it("allowedHosts: '*', Vite's wildcard spelled as a string", () => {
    expect(() => petstoreMock({ allowedHosts: '*' as never })).toThrow(/^allowedHosts must be a list, such as \['mock\.internal'\]; got the string "\*"/);
  });
});

describe('createHandlers and expectRequests refuse what they cannot serve or read, naming it', () => {
  it('createHandlers: a baseUrl that is no string, or whose host the host rule refuses', () => {
    expect(() => createHandlers({ baseUrl: 42 as never })).toThrow(/^baseUrl must be an absolute URL .* or a path such as \/v1; got number 42$/);
    expect(() => createHandlers({ baseUrl: 'http:///v1' })).toThrow(/^baseUrl: must name the host/);
    expect(() => createHandlers({ baseUrl: 'ftp://api.example.test/v1' })).toThrow(/^baseUrl: must be a http:\/\/ or https:\/\/ URL/);
    expect(() => createHandlers(null as never)).toThrow(/^createHandlers takes an object of options/);
    expect(() => createHandlers({ count: '10' as never })).toThrow(/^count must be a number/);
  });

  it('createClient and expectRequests: a URL with credentials, refused where it enters, quoting none of them (red team 10 #10)', () => {
    const key = 's3cretKEYvalue42';
    for (const url of [`http://u:${key}@127.0.0.1:4010/v1`, `http://${key}@127.0.0.1:4010/v1`, `https://u:${key}@staging.example.com/v1`]) {
      for (const [name, enter] of [
        ['createClient: baseUrl', () => createClient({ baseUrl: url, apiKey: key })],
        ['expectRequests', () => expectRequests(url, { apiKey: key })],
      ] as const) {
        let message = '';
        try {
          enter();
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message, `${name} ${url}`).toMatch(
          new RegExp(`^${name} https?://\\*\\*\\*@.* carries credentials \\("user:password@"\\), which are never sent nor shown`),
        );
        expect(message).not.toContain(key);
      }
    }
  });

  it('expectRequests: a source that is no URL and no mock', () => {
    for (const source of [42, null, {}, true])
      expect(() => expectRequests(source as never), String(source)).toThrow(/^expectRequests reads the journal of a mock: give its URL/);
  });
});

describe('the client and the Vite plugin hold the URLs they are given to the host rule', () => {
  it('createClient: a baseUrl that is no string, or whose host the rule refuses; a path of the page is taken', () => {
    expect(() => createClient({ baseUrl: 42 as never })).toThrow(/^createClient: baseUrl must be a URL such as https:\/\/staging\.example\.com\/v1/);
    expect(() => createClient(undefined as never)).toThrow(/^createClient: baseUrl must be a URL/);
    expect(() => createClient({ baseUrl: 'http:///v1' })).toThrow(/^createClient: baseUrl: must name the host/);
    expect(() => createClient({ baseUrl: 'http://a..b/v1' })).toThrow(/^createClient: baseUrl: "a\.\.b" is no IP address nor host name/);
    expect(createClient({ baseUrl: '/v1' })).toBeDefined();
  });

  it('petstoreMock: a target that is no URL of a host, said when the config is written', () => {
    expect(() => petstoreMock({ target: 'http:///v1' })).toThrow(/^petstoreMock: target: must name the host/);
    expect(() => petstoreMock({ target: '127.0.0.1:4010' })).toThrow(/^petstoreMock: target: is not a URL written scheme:\/\/host/);
    expect(() => petstoreMock('http://127.0.0.1:4010' as never)).toThrow(/^petstoreMock takes an object of options/);
  });
});

// A callback that throws in a server's event handler is an uncaught exception, which ends Node (and
// fails this run: vitest reports unhandled errors); the mock says it once and serves on.
describe("a caller's callback that throws never stops the server", () => {
  const throwing = [
    [
      'throws',
      () => {
        throw new Error('log full');
      },
    ],
    [
      'rejects',
      async () => {
        throw new Error('log full');
      },
    ],
  ] as const;
  for (const [how, onRequest] of throwing) {
    it(`onRequest that ${how}: startMockServer and startProxyServer answer on, said once on stderr`, async () => {
      const said = vi.spyOn(console, 'error').mockImplementation(() => {});
      const mock = await startMockServer({ port: 0, onRequest });
      const proxy = await startProxyServer({ upstream: mock.url, port: 0, onRequest });
      try {
        for (const url of [mock.url, mock.url, proxy.url, proxy.url]) {
          const answer = await fetch(`${url}/pets?limit=1`, { headers: { authorization: 'Bearer petstore-dev-key' } });
          expect(answer.status).toBe(200);
        }
        await new Promise((resolve) => setImmediate(resolve));
        expect(said.mock.calls.map(([line]) => line)).toEqual([
          'petstore-mock: onRequest threw (log full); the mock serves on and says this once: fix onRequest.',
          'petstore-mock: onRequest threw (log full); the mock serves on and says this once: fix onRequest.',
        ]);
      } finally {
        said.mockRestore();
        await proxy.close();
        await mock.close();
      }
    });
  }
});

describe('the mock in code, and the fixtures, refuse what they cannot read, naming it', () => {
  it("mock.requests(filter): the query's rules and types, with a sentence", async () => {
    const mock = createMockApi();
    expect(() => mock.requests({ method: 42 } as never)).toThrow(/^requests: method must be a string; got a value of type number$/);
    expect(() => mock.requests({ status: 'abc' })).toThrow(/^requests: status must be a status such as 404, or a class such as 4xx\.$/);
    expect(() => mock.requests({ since: -1 })).toThrow(/^requests: since must be the id of an entry/);
    expect(() => mock.requests({ nope: 'x' } as never)).toThrow(/^requests: nope is not a filter/);
    expect(() => mock.requests('POST' as never)).toThrow(/^requests takes a filter object/);
    await mock.fetch(new Request('http://mock.test/v1/pets/404', { headers: { authorization: 'Bearer petstore-dev-key' } }));
    expect(await mock.requests({ status: 404, method: 'get', session: 'default' })).toHaveLength(1);
  });

  it('mock.fetch: anything but a Request, said', async () => {
    await expect(createMockApi().fetch('http://mock.test/v1/pets' as never)).rejects.toThrow(/^fetch takes a Request, such as new Request/);
  });

  it('seededPets: a seed or a count that is no whole number of its range', () => {
    expect(() => seededPets('7' as never, 2)).toThrow(/^seededPets: seed must be a whole number from 0 to 4294967295; got a value of type string$/);
    expect(() => seededPets(1, -1)).toThrow(/^seededPets: count must be a whole number from 0 to 10000000; got -1$/);
    expect(() => seededPets(Number.NaN, 2)).toThrow(RangeError);
    expect(seededPets(7, 2)).toHaveLength(2);
  });
});
