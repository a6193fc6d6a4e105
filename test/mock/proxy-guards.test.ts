/**
 * `petstore-mock --proxy URL --upstream-key KEY` holds staging's key, so it keeps every promise the
 * plain mock keeps (issue 23), attacked from outside over raw sockets in front of a recording deployment:
 * a path that climbs above the deployment's base path is a 400; a request without the mock's own key is
 * the mock's 401; a foreign Host is a 403 (DNS rebinding); a page elsewhere than this machine is a 403
 * even with the key (the default one is public); no page drives the admin; and the CLI rejects
 * `--host 0.0.0.0` with the public default key.
 * In every case the deployment sees nothing.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as validators from '../../src/generated/validators.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { type ProxyServer, startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import { runCli, startMockCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

/** Staging's key, which only requests holding the mock's key may take to staging. */
const UPSTREAM_KEY = 'staging-secret-key-0123456789';
/** The mock's own key (`--api-key`), what a client of the proxy sends. */
const MOCK_KEY = 'team-mock-key-42';

interface Received {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/**
 * Sends `head` (a request line and header lines, joined by CRLF) byte for byte, as curl --path-as-is
 * or a hand-made client would, and parses the one response before the proxy closes the connection.
 */
async function attack(port: number, head: string, body: string | Buffer = ''): Promise<Received> {
  const socket = connect(port, '127.0.0.1');
  // A hang's bound, not a speed's: the proxy answers and closes in milliseconds.
  socket.setTimeout(30_000, () => socket.destroy());
  await once(socket, 'connect');
  socket.write(Buffer.concat([Buffer.from(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`), Buffer.from(body)]));
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...fields] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const field of fields) headers[field.slice(0, field.indexOf(':')).toLowerCase()] = field.slice(field.indexOf(':') + 1).trim();
  const rest = text.slice(end + 4);
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest === '' ? undefined : JSON.parse(rest) };
}

function expectError(received: Received, status: number, message?: RegExp): void {
  expect(received.status, JSON.stringify(received.body)).toBe(status);
  expect(validators.Error(received.body), JSON.stringify(received.body)).toBe(true);
  expect(received.body).toMatchObject({ status });
  if (message) expect((received.body as { message: string }).message).toMatch(message);
}

/** What the recording deployment was sent: `METHOD path Authorization`. */
const seen: string[] = [];
let deployment: Deployment;
let proxy: ProxyServer;
/** The proxy's address as a client names it in `Host`. */
let host: string;

beforeAll(async () => {
  deployment = await serve(async (request) => {
    const { pathname, search } = new URL(request.url);
    seen.push(`${request.method} ${pathname}${search} ${request.headers.get('authorization') ?? '(none)'}`);
    return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
  });
  proxy = await startProxyServer({ upstream: deployment.url, upstreamKey: UPSTREAM_KEY, apiKeys: [MOCK_KEY], allowedHosts: ['mock.internal'] });
  host = `127.0.0.1:${proxy.port}`;
});
afterAll(() => Promise.all([proxy.close(), deployment.close()]));
afterEach(() => {
  seen.length = 0;
});

describe('the proxy forwards a request that holds the mock key, with the upstream key', () => {
  it('GET /v1/pets reaches the deployment as GET /v1/pets with Bearer <upstream key>', async () => {
    const received = await attack(proxy.port, `GET /v1/pets?limit=2 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${MOCK_KEY}`);
    expect(received.status).toBe(200);
    expect(seen).toEqual([`GET /v1/pets?limit=2 Bearer ${UPSTREAM_KEY}`]);
  });
});

describe('a path never leaves the deployment’s base path', () => {
  const climbing = [
    '/v1/../../internal/secret',
    '/v1/%2e%2e/%2e%2e/internal/secret',
    '/v1/%2E%2E/%2E%2E/internal/secret',
    '/v1/pets/.%2e/.%2E/internal',
    '/v1/./pets',
    '/v1/%2e/pets',
    '/v1/..%2f..%2finternal/secret',
    '/v1/pets%2F..%2F..%2Finternal',
    '/v1/%2e%2e%5c%2e%2e%5cinternal',
    '/v1/%252e%252e/%252e%252e/internal/secret',
  ];
  for (const target of climbing) {
    it(`rejects ${target} with a 400 Error, forwarding nothing`, async () => {
      const received = await attack(proxy.port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${MOCK_KEY}`);
      expectError(received, 400, /dot segment/);
      expect(seen).toEqual([]);
    });
  }
});

describe('the mock’s own key, checked first, with the mock’s own 401', () => {
  const credentials: readonly [string, string | undefined][] = [
    ['no credential', undefined],
    ['a wrong key', 'Bearer not-the-key'],
    ['the upstream key itself', `Bearer ${UPSTREAM_KEY}`],
    ['another scheme', `Basic ${Buffer.from(`x:${MOCK_KEY}`).toString('base64')}`],
    ['the key twice, once wrong', `Bearer ${MOCK_KEY}\r\nAuthorization: Bearer wrong`],
  ];
  for (const [name, authorization] of credentials) {
    it(`responds to ${name} with 401 and WWW-Authenticate, forwarding nothing`, async () => {
      const header = authorization === undefined ? '' : `\r\nAuthorization: ${authorization}`;
      const received = await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\nHost: ${host}${header}`);
      expectError(received, 401);
      expect(received.headers['www-authenticate']).toBe('Bearer');
      expect(seen).toEqual([]);
    });
  }

  it('responds with the very 401 of the plain mock', async () => {
    const plain = await createMockApi({ apiKey: MOCK_KEY }).respond({ method: 'GET', target: '/v1/pets', header: () => undefined, text: async () => '' });
    const received = await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\nHost: ${host}`);
    expect(received.body).toEqual(JSON.parse(plain.body));
    expect(received.headers['www-authenticate']).toBe(plain.headers['www-authenticate']);
  });
});

describe('the host guard: a Host the proxy does not serve is 403 (DNS rebinding)', () => {
  for (const foreign of ['evil.example', 'evil.example:80', 'localhost.evil.example', '127.0.0.1.nip.io']) {
    it(`rejects Host ${foreign} on the API, with the key, forwarding nothing`, async () => {
      const received = await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\nHost: ${foreign}\r\nAuthorization: Bearer ${MOCK_KEY}`);
      expectError(received, 403, /does not serve the host/);
      expect(seen).toEqual([]);
    });
  }

  it('rejects a second Host behind an allowed one, and an HTTP/1.1 request without Host', async () => {
    expectError(await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\nAuthorization: Bearer ${MOCK_KEY}`), 403);
    expectError(await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${MOCK_KEY}`), 400, /Host/);
    expect(seen).toEqual([]);
  });

  it('serves a name given with allowedHosts (--allowed-host)', async () => {
    const received = await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\nHost: mock.internal:${proxy.port}\r\nAuthorization: Bearer ${MOCK_KEY}`);
    expect(received.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('lets a DNS-rebound page read neither /v1/pets nor /__mock/drift, nor create a pet', async () => {
    const page = `Host: evil.example:${proxy.port}\r\nOrigin: http://evil.example:${proxy.port}\r\nSec-Fetch-Site: same-origin`;
    expectError(await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\n${page}\r\nAuthorization: Bearer ${MOCK_KEY}`), 403);
    expectError(await attack(proxy.port, `GET /__mock/drift HTTP/1.1\r\n${page}`), 403);
    const pet = JSON.stringify({ name: 'Rex', categoryId: 1 });
    expectError(await attack(proxy.port, `POST /v1/pets HTTP/1.1\r\n${page}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${MOCK_KEY}`, pet), 403);
    expect(seen).toEqual([]);
  });

  it('holds without an upstream key too', async () => {
    const keyless = await startProxyServer({ upstream: deployment.url });
    try {
      expectError(await attack(keyless.port, `GET /v1/pets HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${MOCK_KEY}`), 403);
      expectError(await attack(keyless.port, 'GET /__mock/drift HTTP/1.1\r\nHost: evil.example'), 403);
      expect(seen).toEqual([]);
    } finally {
      await keyless.close();
    }
  });
});

describe('a page on another origin gets nothing forwarded', () => {
  /** A front end's dev server on this machine: another origin, and cross-site to 127.0.0.1, but a page of here. */
  const devServer = 'Origin: http://localhost:5173\r\nSec-Fetch-Site: cross-site';

  for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.nip.io:5173', 'http://localhost.evil.example', 'http://203.0.113.7']) {
    it(`rejects a page of ${origin} with a 403 without CORS, even holding the mock key, its preflight too`, async () => {
      const page = `Host: ${host}\r\nOrigin: ${origin}\r\nSec-Fetch-Site: cross-site`;
      const pet = JSON.stringify({ name: 'Rex', categoryId: 1 });
      for (const received of [
        await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\n${page}\r\nAuthorization: Bearer ${MOCK_KEY}`),
        await attack(proxy.port, `POST /v1/pets HTTP/1.1\r\n${page}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${MOCK_KEY}`, pet),
        await attack(
          proxy.port,
          `OPTIONS /v1/pets HTTP/1.1\r\n${page}\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: authorization`,
        ),
      ]) {
        expectError(received, 403, /pages of this machine/);
        expect(received.headers['access-control-allow-origin']).toBeUndefined();
      }
      expect(seen).toEqual([]);
    });
  }

  it('a no-cors text/plain POST (all a page can send unasked) is 401, forwarding nothing', async () => {
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const received = await attack(
      proxy.port,
      `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\n${devServer}\r\nSec-Fetch-Mode: no-cors\r\nContent-Type: text/plain;charset=UTF-8`,
      body,
    );
    expectError(received, 401);
    expect(seen).toEqual([]);
  });

  it('a cross-site read without the key is 401, forwarding nothing', async () => {
    expectError(await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\n${devServer}\r\nSec-Fetch-Mode: cors`), 401);
    expect(seen).toEqual([]);
  });

  it('a CORS preflight is the mock’s own 204, forwarding nothing', async () => {
    const received = await attack(
      proxy.port,
      `OPTIONS /v1/pets HTTP/1.1\r\nHost: ${host}\r\n${devServer}\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: authorization, content-type`,
    );
    expect(received.status).toBe(204);
    expect(received.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect(seen).toEqual([]);
  });

  it('serves the front end of this machine holding the mock key', async () => {
    const received = await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\n${devServer}\r\nAuthorization: Bearer ${MOCK_KEY}`);
    expect(received.status).toBe(200);
    expect(seen).toEqual([`GET /v1/pets Bearer ${UPSTREAM_KEY}`]);
  });
});

describe('the admin guard: /__mock/* only for scripts and the proxy’s own origin', () => {
  it('rejects POST /__mock/reset from a foreign Origin with a 403 without CORS', async () => {
    const received = await attack(
      proxy.port,
      `POST /__mock/reset HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://evil.example\r\nContent-Type: application/json`,
      '{}',
    );
    expectError(received, 403, /other origins/);
    expect(Object.keys(received.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  // Issue 23, by design: a text/plain POST without Origin is a script's; one a page on another site sent says so in Sec-Fetch-Site.
  it('rejects a text/plain POST /__mock/reset a page sent, and every admin preflight', async () => {
    const textPlain = `POST /__mock/reset HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/plain`;
    expectError(await attack(proxy.port, `${textPlain}\r\nSec-Fetch-Site: cross-site`, '{}'), 403, /Sec-Fetch-Site/);
    expectError(await attack(proxy.port, `${textPlain}\r\nOrigin: http://${host}`, '{}'), 403, /X-Mock-Admin/);
    expectError(await attack(proxy.port, `OPTIONS /__mock/reset HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://evil.example`), 403);
  });

  it('serves a script: POST /__mock/reset with X-Mock-Admin or none, GET /__mock/drift', async () => {
    expect((await attack(proxy.port, `POST /__mock/reset HTTP/1.1\r\nHost: ${host}\r\nX-Mock-Admin: 1`)).status).toBeLessThan(300);
    expect((await attack(proxy.port, `POST /__mock/reset HTTP/1.1\r\nHost: ${host}`)).status).toBeLessThan(300);
    expect((await attack(proxy.port, `GET /__mock/drift HTTP/1.1\r\nHost: ${host}`)).status).toBe(200);
  });

  it('needs the mock key at /__mock/* when the proxy is reachable beyond this machine', async () => {
    const reachable = await startProxyServer({ upstream: deployment.url, upstreamKey: UPSTREAM_KEY, apiKeys: [MOCK_KEY], host: '0.0.0.0' });
    try {
      const anonymous = await attack(reachable.port, `GET /__mock/drift HTTP/1.1\r\nHost: 127.0.0.1:${reachable.port}`);
      expectError(anonymous, 401);
      expect(Object.keys(anonymous.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      const keyed = await attack(reachable.port, `GET /__mock/drift HTTP/1.1\r\nHost: 127.0.0.1:${reachable.port}\r\nAuthorization: Bearer ${MOCK_KEY}`);
      expect(keyed.status).toBe(200);
    } finally {
      await reachable.close();
    }
  });
});

describe('petstore-mock --proxy keeps the key-at-start checks', () => {
  it('exits 2 with a sentence for --host 0.0.0.0 without a key of its own, never printing the upstream key', async () => {
    const result = await runCli('petstore-mock', ['--proxy', deployment.url, '--upstream-key', UPSTREAM_KEY, '--host', '0.0.0.0', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--host 0\.0\.0\.0 lets other machines reach the mock, and its default key petstore-dev-key is public: give your own with --api-key/,
    );
    expect(result.stdout + result.stderr).not.toContain(UPSTREAM_KEY);
    expect(seen).toEqual([]);
  });

  it('accepts only the keys of --api-key', async () => {
    const cli = await startMockCli(['--proxy', deployment.url, '--upstream-key', UPSTREAM_KEY, '--api-key', MOCK_KEY, '--port', '0', '--quiet']);
    try {
      const port = Number(new URL(cli.url).port);
      expectError(await attack(port, `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer petstore-dev-key`), 401);
      expect(seen).toEqual([]);
      expect((await attack(port, `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${MOCK_KEY}`)).status).toBe(200);
      expect(seen).toEqual([`GET /v1/pets Bearer ${UPSTREAM_KEY}`]);
    } finally {
      await cli.stop();
    }
  });
});

// Issue 23: the proxy's request log is held to the mock's rule, for its keys and the upstream key.
describe("the proxy's request log holds no key", () => {
  it('hides the mock key and the upstream key inside a path segment, a query and the userinfo of an absolute-form target', async () => {
    const lines: string[] = [];
    const logging = await startProxyServer({ upstream: deployment.url, upstreamKey: UPSTREAM_KEY, apiKeys: [MOCK_KEY], onRequest: (line) => lines.push(line) });
    const at = `127.0.0.1:${logging.port}`;
    try {
      for (const target of [`/v1/pets/${MOCK_KEY}.json`, `/v1/pets?t=${encodeURIComponent(UPSTREAM_KEY)}`, `http://u:${MOCK_KEY}@${at}/v1/pets`])
        await attack(logging.port, `GET ${target} HTTP/1.1\r\nHost: ${at}\r\nAuthorization: Bearer ${MOCK_KEY}`);
    } finally {
      await logging.close();
    }
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toContain(MOCK_KEY);
    expect(lines.join('\n')).not.toContain(UPSTREAM_KEY);
    expect(lines.map((line) => line.replace(/ \d+ [\d.]+ms$/, ''))).toEqual(['GET /v1/pets/***', 'GET /v1/pets?t=***', `GET http://***@${at}/v1/pets`]);
  });
});

describe('what the mock answers itself, the proxy answers itself, forwarding nothing', () => {
  const withKey = () => `Host: ${host}\r\nAuthorization: Bearer ${MOCK_KEY}`;

  it('a forced status (Prefer: code=, auth=expired, __code=) is the mock’s own answer, Retry-After on 429 and 503', async () => {
    const limited = await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\n${withKey()}\r\nPrefer: code=429`);
    expectError(limited, 429, /asked for it/);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.headers['preference-applied']).toBe('code=429');
    const outage = await attack(proxy.port, `GET /v1/pets?__code=503 HTTP/1.1\r\n${withKey()}`);
    expectError(outage, 503);
    expect(outage.headers['retry-after']).toBe('1');
    expectError(await attack(proxy.port, `GET /v1/pets/1 HTTP/1.1\r\n${withKey()}\r\nPrefer: auth=expired`), 401, /expired/);
    // A forced 500 on a create: staging would have created the pet had it been sent.
    const body = JSON.stringify({ name: 'never-sent', categoryId: 1 });
    expectError(await attack(proxy.port, `POST /v1/pets HTTP/1.1\r\n${withKey()}\r\nContent-Type: application/json\r\nPrefer: code=500`, body), 500);
    expect(seen).toEqual([]);
  });

  it('a Prefer the mock refuses is its 400; one it ignores, and delay=, go on to the deployment', async () => {
    expectError(await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\n${withKey()}\r\nPrefer: code=201`), 400, /only an error status/);
    expect(seen).toEqual([]);
    const delayed = await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\n${withKey()}\r\nPrefer: delay=10, return=minimal`);
    expect(delayed.status).toBe(200);
    expect(delayed.headers['preference-applied']).toBe('delay=10');
    expect(seen).toEqual([`GET /v1/pets Bearer ${UPSTREAM_KEY}`]);
  });

  it('a body that is not UTF-8, one over 1 MiB and an unmet Expect are Errors, forwarding nothing', async () => {
    const latin1 = Buffer.from('{"name":"caf\xe9","categoryId":1}', 'latin1');
    expectError(await attack(proxy.port, `POST /v1/pets HTTP/1.1\r\n${withKey()}\r\nContent-Type: application/json`, latin1), 400, /not UTF-8/);
    expectError(await attack(proxy.port, `POST /v1/pets HTTP/1.1\r\n${withKey()}\r\nContent-Type: application/json`, 'x'.repeat(1024 * 1024 + 1)), 413);
    expectError(await attack(proxy.port, `GET /v1/pets HTTP/1.1\r\n${withKey()}\r\nExpect: foo`), 417);
    expect(seen).toEqual([]);
  });
});
