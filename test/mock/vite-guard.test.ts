/**
 * The mock's request guards at the Vite dev server's seam (issue 34, eighth red team): behind the
 * plugin's proxy the mock sees every request come from 127.0.0.1 with its own address as `Host`, so
 * its rules must hold where the dev server takes the request. Each case is a real dev server on port 0
 * and raw HTTP with a forged `Host`, or a request from this machine's address on its network, which the
 * dev server sees as another machine's.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { createLogger, createServer, type InlineConfig, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as validators from '../../src/generated/validators.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { type PetstoreMockPluginOptions, petstoreMock } from '../../src/mock/hosts/vite.js';
import { freePort } from '../support/free-port.js';
import { pipeline } from '../support/raw-http.js';

const KEY = 's3cretKEYvalue42';

/** A dev server with the plugin, on port 0, and its port; started as under `vite` (the plugin stays out of vitest otherwise). */
async function devServer(options: PetstoreMockPluginOptions, server: InlineConfig['server'] = {}, logger?: InlineConfig['customLogger']) {
  vi.stubEnv('VITEST', '');
  try {
    const vite = await createServer({
      configFile: false,
      logLevel: 'silent',
      ...(logger === undefined ? {} : { customLogger: logger, logLevel: 'info' }),
      plugins: [petstoreMock(options)],
      server: { host: '127.0.0.1', port: 0, watch: null, ...server },
    });
    await vite.listen();
    const port = Number(new URL(vite.resolvedUrls?.local[0] ?? vite.resolvedUrls?.network[0] ?? 'http://127.0.0.1').port);
    return { vite, port };
  } finally {
    vi.unstubAllEnvs();
  }
}

/** Vite in middleware mode, in an HTTP server of the test's own bound to every interface, as an app's server mounts it. */
async function inMiddlewareMode(options: PetstoreMockPluginOptions) {
  vi.stubEnv('VITEST', '');
  const vite = await createServer({
    configFile: false,
    logLevel: 'silent',
    plugins: [petstoreMock(options)],
    server: { middlewareMode: true, watch: null },
  }).finally(() => vi.unstubAllEnvs());
  const server = createHttpServer(vite.middlewares);
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  // Safe: a server listening on a TCP port has an AddressInfo for its address.
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await vite.close();
    },
  };
}

/** One request with `host` as its `Host`, written on a socket of its own, and the answer: status, content type, body. */
async function withHost(port: number, host: string, method: string, target: string, headers: readonly string[] = [], body = '') {
  const length = body === '' ? [] : [`Content-Length: ${Buffer.byteLength(body)}`];
  const request = `${method} ${target} HTTP/1.1\r\n${[`Host: ${host}`, ...headers, ...length, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`;
  const { responses } = await pipeline(port, [request]);
  const [first] = responses;
  if (first === undefined) throw new Error(`no answer to ${method} ${target} with Host ${host}`);
  const text = first.body.toString('utf8');
  return { status: first.status, type: first.headers['content-type'] ?? '', text };
}

/** Asserts the mock's Error body with that status and a message matching `message`. */
function expectMockError(answer: { status: number; type: string; text: string }, status: number, message: RegExp): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.type).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(answer.text);
  expect(validators.Error(body), answer.text).toBe(true);
  expect(body).toMatchObject({ status });
  expect((body as { message: string }).message).toMatch(message);
}

const AUTH = [`Authorization: Bearer ${KEY}`];

describe('a malformed Host through the dev server (red team 8 #6)', () => {
  let dev: { vite: ViteDevServer; port: number };
  beforeAll(async () => {
    dev = await devServer({ apiKey: KEY, count: 3 });
  });
  afterAll(() => dev?.vite.close());

  it("is the mock's 400 Error on the API and the admin, whatever Vite's own host check says, and a key in it is hidden", async () => {
    const { port } = dev;
    // The baseline: a well-formed Host passes, so the guard can tell the two apart.
    expect((await withHost(port, `localhost:${port}`, 'GET', '/v1/pets?limit=1', AUTH)).status).toBe(200);
    expect((await withHost(port, `127.0.0.1:${port}`, 'GET', '/__mock/health')).status).toBe(200);
    for (const host of ['localhost:abc', `[::1%25evil]:${port}`, `[::1`, 'localhost:65536', 'evil.example:abc']) {
      for (const [method, target] of [
        ['GET', '/v1/pets?limit=1'],
        ['GET', '/__mock/health'],
        ['POST', '/__mock/reset'],
      ] as const) {
        expectMockError(await withHost(port, host, method, target, AUTH), 400, /^The Host header .* is malformed/);
      }
    }
    const keyed = await withHost(port, `${KEY}:abc`, 'GET', '/v1/pets', AUTH);
    expectMockError(keyed, 400, /malformed/);
    expect(keyed.text).not.toContain(KEY);
    // The app's own files are Vite's: the guard holds only what goes to the mock.
    expect((await withHost(port, 'localhost:abc', 'GET', '/')).status).not.toBe(400);
  });
});

describe('a path with a dot segment through the dev server (red team 10 #1)', () => {
  let dev: { vite: ViteDevServer; port: number };
  beforeAll(async () => {
    dev = await devServer({ apiKey: KEY, count: 3 });
  });
  afterAll(() => dev?.vite.close());

  it("is the mock's 400 Error, never another route: Vite's proxy would resolve it, and the mock would see the admin from loopback", async () => {
    const { port } = dev;
    const host = `localhost:${port}`;
    const created = await withHost(port, host, 'POST', '/v1/pets', [...AUTH, 'Content-Type: application/json'], '{"name":"kept","categoryId":1}');
    expect(created.status, created.text).toBe(201);
    const { id } = JSON.parse(created.text) as { id: number };
    for (const [method, target] of [
      ['GET', '/v1/../__mock/requests'],
      ['GET', '/v1/%2e%2e/__mock/requests'],
      ['GET', '/v1/%2E%2E/__mock/sessions'],
      ['POST', '/v1/../__mock/reset'],
      ['GET', '/v1/pets/../pets'],
      ['GET', '/v1/./pets'],
      ['GET', '/__mock/../v1/pets'],
      ['GET', '/v1/pets/%2e%2e/pets?limit=1'],
    ] as const) {
      expectMockError(await withHost(port, host, method, target, AUTH), 400, /dot segment .* the dev server's proxy would resolve/);
    }
    // The reset never reached the mock: the pet created before is still there.
    expect((await withHost(port, host, 'GET', `/v1/pets/${id}`, AUTH)).status).toBe(200);
    // Dots that are no segment of their own are a path like any other.
    expect((await withHost(port, host, 'GET', '/v1/pets?status=..', AUTH)).status).toBe(400);
    expect((await withHost(port, host, 'GET', '/v1/pets/1', AUTH)).status).toBe(200);
  });
});

describe("the mock's Host name rule with Vite's host check off, server.allowedHosts: true (red team 8 #11)", () => {
  let dev: { vite: ViteDevServer; port: number };
  beforeAll(async () => {
    dev = await devServer({ count: 3, allowedHosts: ['app.test'] }, { allowedHosts: true });
  });
  afterAll(() => dev?.vite.close());

  it("answers a rebound name with the mock's 403 Error on the API and the admin, and lets localhost, IP addresses and allowedHosts in", async () => {
    const { port } = dev;
    const auth = ['Authorization: Bearer petstore-dev-key'];
    const rebound = `evil.example:${port}`;
    const post = [...auth, `Origin: http://${rebound}`, 'Content-Type: application/json'];
    const before = await withHost(port, `localhost:${port}`, 'GET', '/v1/pets', auth);
    expect(JSON.parse(before.text)).toHaveLength(3);
    for (const [method, target, headers, body] of [
      ['GET', '/v1/pets', auth, ''],
      ['GET', '/__mock/requests', [], ''],
      ['GET', '/__mock/', [], ''],
      ['POST', '/v1/pets', post, '{"name":"rebound","categoryId":1}'],
      ['POST', '/__mock/reset', ['X-Mock-Admin: 1'], ''],
    ] as const) {
      expectMockError(await withHost(port, rebound, method, target, headers, body), 403, /^This mock does not serve the host "evil\.example:\d+"/);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.test:${port}`])
      expect((await withHost(port, host, 'GET', '/__mock/health')).status, host).toBe(200);
    // Nothing the rebound page sent reached the mock: its pets are the seeded ones, and its journal holds none of those requests.
    expect(JSON.parse((await withHost(port, `localhost:${port}`, 'GET', '/v1/pets', auth)).text)).toHaveLength(3);
    const journal = JSON.parse((await withHost(port, `localhost:${port}`, 'GET', '/__mock/requests')).text) as { entries: { method: string }[] };
    expect(journal.entries.map((entry) => entry.method)).toEqual(['GET', 'GET']);
  });
});

/** An IPv4 address of this machine that is not loopback: the dev server sees a request to it as one from another machine. */
const LAN_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;

describe('a dev server bound beyond loopback (red team 8 #12)', () => {
  it('refuses to start the mock with the public default key, by the rule and sentence of startMockServer, and stops the mock it started', async () => {
    const sentence = /lets other machines reach the mock, and its default key petstore-dev-key is public: give your own with /;
    await expect(startMockServer({ host: '0.0.0.0' })).rejects.toThrow(sentence);
    for (const host of ['0.0.0.0', true] as const) {
      const port = await freePort();
      const attempt = devServer({ count: 1, port }, { host });
      await expect(attempt).rejects.toThrow(sentence);
      await expect(attempt).rejects.toThrow(/^server\.host \(vite --host\) 0\.0\.0\.0 .* petstoreMock\(\{ apiKey \}\)/);
      // The mock the plugin had started on that port is stopped with the refusal.
      await expect(fetch(`http://127.0.0.1:${port}/v1/pets`)).rejects.toThrow();
    }
    // A mock at target: the plugin cannot ask it, so the key it takes is named with it.
    const mock = await startMockServer({ apiKey: KEY });
    try {
      await expect(devServer({ target: mock.url }, { host: '0.0.0.0' })).rejects.toThrow(
        /^server\.host \(vite --host\) 0\.0\.0\.0 .* petstoreMock\(\{ target, apiKey \}\)/,
      );
      await (await devServer({ target: mock.url, apiKey: KEY }, { host: '0.0.0.0' })).vite.close();
    } finally {
      await mock.close();
    }
    // The public default given as a key is refused as the default itself is (ninth red team, #4): its value is what is public.
    await expect(devServer({ apiKeys: [{ label: 'lan', key: 'petstore-dev-key' }] }, { host: '0.0.0.0' })).rejects.toThrow(
      'server.host (vite --host) 0.0.0.0 lets other machines reach the mock, and the key labelled lan is the public default key, which anyone may read in the docs: give your own with petstoreMock({ apiKey }), or petstoreMock({ allowDefaultKey: true }) if the default is meant.',
    );
    await expect(devServer({ target: mock.url, apiKey: 'petstore-dev-key' }, { host: '0.0.0.0' })).rejects.toThrow(/allowDefaultKey: true/);
    // A key of the user's own, or the default one said to be meant, is taken, as by the mock's server; loopback needs none.
    for (const options of [{ apiKey: KEY }, { allowDefaultKey: true }, { apiKey: 'petstore-dev-key', allowDefaultKey: true }])
      await (await devServer(options, { host: '0.0.0.0' })).vite.close();
    await (await devServer({}, { host: 'localhost' })).vite.close();
  });

  // This machine's address on its network reaches a dev server bound to 0.0.0.0 from outside loopback.
  it.skipIf(LAN_ADDRESS === undefined)(
    'asks the key of admin requests from another machine, as the mock bound beyond loopback does; this machine needs none',
    async () => {
      const dev = await devServer({ apiKey: KEY, count: 2 }, { host: '0.0.0.0' });
      const mock: MockServer = await startMockServer({ apiKey: KEY, count: 2 });
      const toTarget = await inMiddlewareMode({ target: mock.url });
      const toTargetWithKey = await devServer({ target: mock.url, apiKey: KEY }, { host: '0.0.0.0' });
      try {
        const lan = (port: number, path: string, init: RequestInit = {}) => fetch(`http://${LAN_ADDRESS}:${port}${path}`, init);
        const bearer = { authorization: `Bearer ${KEY}` };
        for (const port of [dev.port, toTargetWithKey.port]) {
          const noKey = await lan(port, '/__mock/requests');
          expect(noKey.status).toBe(401);
          expect(validators.Error(await noKey.json())).toBe(true);
          expect(noKey.headers.get('access-control-allow-origin')).toBeNull();
          expect((await lan(port, '/__mock/reset', { method: 'POST' })).status).toBe(401);
          expect((await lan(port, '/__mock/requests', { headers: { authorization: 'Bearer petstore-dev-key' } })).status).toBe(401);
          expect((await lan(port, '/__mock/requests', { headers: bearer })).status).toBe(200);
          // The inspector's page holds no data, and asks for the key itself, as on the mock.
          expect((await lan(port, '/__mock/')).status).toBe(200);
          expect((await lan(port, '/v1/pets?limit=1', { headers: bearer })).status).toBe(200);
          expect((await fetch(`http://127.0.0.1:${port}/__mock/requests`)).status).toBe(200);
        }
        // A target's key the plugin was not given (Vite in the app's own server, bound where Vite cannot
        // see, so nothing refused it at start): it cannot ask for it, so other machines get no admin.
        const unknown = await lan(toTarget.port, '/__mock/requests', { headers: bearer });
        expect(unknown.status).toBe(403);
        expect(((await unknown.json()) as { message: string }).message).toMatch(/petstoreMock\(\{ target, apiKey \}\)/);
        expect((await fetch(`http://127.0.0.1:${toTarget.port}/__mock/requests`)).status).toBe(200);
      } finally {
        await Promise.all([dev.vite.close(), toTarget.close(), toTargetWithKey.vite.close()]);
        await mock.close();
      }
    },
  );
});

describe("target, read by the one URL rule and held as --proxy's base URL (red team 8 #8)", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ apiKey: KEY, count: 1 });
  });
  afterAll(() => mock?.close());

  it('refuses credentials, a query or a fragment with a sentence that quotes no part of the URL', () => {
    const origin = new URL(mock.url).origin;
    for (const target of [
      `http://u:${KEY}@${new URL(origin).host}/v1`,
      `http://${KEY}@${new URL(origin).host}/v1`,
      `${origin}/v1?key=${KEY}`,
      `${origin}/v1#${KEY}`,
    ]) {
      let message = '';
      try {
        petstoreMock({ target });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, target).toMatch(
        /^petstoreMock: target (must carry no credentials \("user:password@"\), query or fragment|http:\/\/\*\*\*@.* carries credentials \("user:password@"\), which are never sent nor shown)/,
      );
      expect(message).not.toContain(KEY);
    }
  });

  it("hides the mock's key in the start lines, plain or in base64, as the proxy's start line does", async () => {
    const origin = new URL(mock.url).origin;
    for (const secret of [KEY, Buffer.from(`u:${KEY}`).toString('base64')]) {
      const printed: string[] = [];
      const logger = createLogger('info');
      logger.info = (message) => printed.push(message);
      const { vite } = await devServer({ target: `${origin}/${secret}/v1`, apiKey: KEY }, {}, logger);
      try {
        vite.printUrls();
        const lines = stripVTControlCharacters(printed.join('\n'));
        expect(lines).toMatch(/➜ {2}Pet store API: http:\/\/127\.0\.0\.1:\d+\/.*\*\*\*.*\/v1 \(petstore-mock at /);
        expect(lines).not.toContain(KEY);
        expect(lines).not.toContain(secret);
      } finally {
        await vite.close();
      }
    }
  });
});

describe('a target that does not answer (red team 10 #2)', () => {
  it("is the spec's 503 Error naming the mock's address, with nothing of the request in the dev server's log", async () => {
    const port = await freePort();
    const printed: string[] = [];
    const logger = createLogger('info');
    for (const level of ['info', 'warn', 'warnOnce', 'error'] as const) logger[level] = (message: string) => printed.push(message);
    const { vite, port: devPort } = await devServer({ target: `http://127.0.0.1:${port}/v1`, apiKey: KEY }, {}, logger);
    try {
      const base64 = Buffer.from(`u:${KEY}`).toString('base64');
      for (const target of [`/v1/pets?api_key=${KEY}`, `/v1/${KEY}`, `/v1/pets?x=${base64}`, `/__mock/requests?s=${KEY}`]) {
        const answer = await withHost(devPort, `localhost:${devPort}`, 'GET', target, AUTH);
        expectMockError(
          answer,
          503,
          new RegExp(`^The mock at http://127\\.0\\.0\\.1:${port} did not answer \\(ECONNREFUSED\\): .* petstoreMock\\(\\{ target \\}\\)`),
        );
        expect(answer.text).not.toContain(KEY);
      }
      const log = printed.join('\n');
      expect(log).not.toContain(KEY);
      expect(log).not.toContain(base64);
      expect(log).not.toMatch(/proxy error|ECONNREFUSED/);
    } finally {
      await vite.close();
    }
  });

  it('hides the key in its address, in any case: a target whose host is named after the key (red team 11 #3)', async () => {
    const port = await freePort();
    const { vite, port: devPort } = await devServer({ target: `http://${KEY}.localhost:${port}/v1`, apiKey: KEY });
    try {
      const answer = await withHost(devPort, `localhost:${devPort}`, 'GET', '/v1/pets', AUTH);
      expectMockError(answer, 503, /^The mock at http:\/\/\*\*\*\.localhost:\d+ did not answer/);
      expect(answer.text.toLowerCase()).not.toContain(KEY.toLowerCase());
    } finally {
      await vite.close();
    }
  });
});
