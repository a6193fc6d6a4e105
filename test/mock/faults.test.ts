/**
 * Network faults, seen as a client sees them: Node's HTTP client and raw sockets against the server
 * (in process, through the Vite plugin's dev server, and as every mode of the CLI), fetch under MSW, and a page in a real Chromium, which
 * reports each fault as the network error docs/mock-faults.md names.
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { setupServer } from 'msw/node';
import { type Browser, chromium } from 'playwright-core';
import { createServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { type MockServer, type MockServerOptions, startMockServer } from '../../src/mock/hosts/node-server.js';
import { petstoreMock } from '../../src/mock/hosts/vite.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { AUTH, JSON_HEADERS, KEY } from '../support/http-facts.js';
import { FULL_PAGE } from '../support/page-size.js';
import { CLIENT_SEES_RESET, exchangeOutline, pipeline, rawRequest } from '../support/raw-http.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { type StaticServer, serveStatic } from '../support/static-server.js';

/** What Node's HTTP client saw of one request on a connection of its own. */
interface Seen {
  /** The status, when a response head arrived. */
  readonly status?: number | undefined;
  readonly declaredLength?: number;
  /** Bytes of the body that arrived. */
  readonly bodyBytes: number;
  /** The error code the request or the response ended with, if any. */
  readonly error?: string;
  /** Milliseconds from the response's head to its last byte. */
  readonly bodyMs: number;
}

function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Seen> {
  return new Promise((resolve) => {
    const request = httpRequest(url, { method: init.method ?? 'GET', headers: { ...AUTH, ...init.headers }, agent: false }, (response) => {
      const headAt = performance.now();
      let bodyBytes = 0;
      const seen = () => ({
        status: response.statusCode,
        declaredLength: Number(response.headers['content-length']),
        bodyBytes,
        bodyMs: performance.now() - headAt,
      });
      response.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      response.on('end', () => resolve(seen()));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ ...seen(), error: error.code ?? error.message }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ bodyBytes: 0, bodyMs: 0, error: error.code ?? error.message }));
    request.end(init.body);
  });
}

/** The raw bytes a socket receives for `GET path` until the server ends it, and how it ended. */
function rawBytes(url: string, path: string): Promise<{ readonly bytes: Buffer; readonly ended: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve({ bytes: Buffer.concat(chunks), ended: 'end' }));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ bytes: Buffer.concat(chunks), ended: error.code ?? 'error' }));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
  });
}

async function petCount(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/pets?${FULL_PAGE}`, { headers: AUTH });
  return ((await response.json()) as unknown[]).length;
}

/** A host the app reaches the mock through: its API's URL, the port its connections arrive on, and how to stop it. */
type FaultHost = Pick<MockServer, 'url' | 'port' | 'close'>;

/**
 * The dev server of `petstore-mock/vite`, whose proxy must relay each fault as the mock makes it: the
 * same break on the app's own connection, in its order among pipelined requests.
 */
async function viteHost(options: MockServerOptions): Promise<FaultHost> {
  // As under `vite`: the plugin stays out of vitest, which this suite runs under.
  vi.stubEnv('VITEST', '');
  const vite = await createServer({
    configFile: false,
    logLevel: 'silent',
    plugins: [petstoreMock(options)],
    server: { host: '127.0.0.1', port: 0, watch: null },
  });
  vi.unstubAllEnvs();
  await vite.listen();
  const port = new URL(vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1').port;
  return { url: `http://127.0.0.1:${port}/v1`, port: Number(port), close: () => vite.close() };
}

describe.each([
  ['the Node server', startMockServer],
  ['the Vite plugin', viteHost],
])('network faults on %s', (_host, start: (options: MockServerOptions) => Promise<FaultHost>) => {
  let mock: FaultHost;
  const log: string[] = [];
  beforeAll(async () => {
    mock = await start({ port: 0, count: 3, onRequest: (line) => log.push(line) });
  });
  afterAll(() => mock?.close());

  it('reset: the connection is reset before any byte', async () => {
    const seen = await send(`${mock.url}/pets`, { headers: { prefer: 'fault=reset' } });
    expect([seen.error, seen.status]).toEqual(['ECONNRESET', undefined]);
    const raw = await rawBytes(mock.url, '/v1/pets?__fault=reset');
    expect(raw).toEqual({ bytes: Buffer.alloc(0), ended: 'ECONNRESET' });
  });

  it('close: the connection ends with no byte at all, an empty response', async () => {
    expect(await rawBytes(mock.url, '/v1/pets?__fault=close')).toEqual({ bytes: Buffer.alloc(0), ended: 'end' });
    expect((await send(`${mock.url}/pets`, { headers: { prefer: 'fault=close' } })).error).toBe('ECONNRESET'); // Node's "socket hang up"
  });

  it('garbage: bytes that are not an HTTP response, which a client cannot parse', async () => {
    const raw = await rawBytes(mock.url, '/v1/pets?__fault=garbage');
    expect(raw.bytes.length).toBeGreaterThan(0);
    expect(raw.bytes.subarray(0, 5).toString('latin1')).not.toBe('HTTP/');
    expect((await send(`${mock.url}/pets`, { headers: { prefer: 'fault=garbage' } })).error).toMatch(/^HPE_/);
  });

  it('truncate: the head with the true Content-Length, then half the body and a closed connection', async () => {
    const seen = await send(`${mock.url}/pets`, { headers: { prefer: 'fault=truncate' } });
    expect(seen.status).toBe(200);
    expect(seen.error).toBe('ECONNRESET'); // Node's "aborted"
    expect(seen.bodyBytes).toBeGreaterThan(0);
    expect(seen.bodyBytes).toBeLessThan(seen.declaredLength ?? 0);
  });

  it('slow: the whole body, trickled over the time asked for', async () => {
    const seen = await send(`${mock.url}/pets`, { headers: { prefer: 'fault=slow, trickle=600' } });
    expect([seen.status, seen.error]).toEqual([200, undefined]);
    expect(seen.bodyBytes).toBe(seen.declaredLength);
    expect(seen.bodyMs).toBeGreaterThan(450);
  });

  it('a fault that breaks the connection before the response serves nothing: no pet is created', async () => {
    const before = await petCount(mock.url);
    for (const kind of ['reset', 'close', 'garbage'])
      await send(`${mock.url}/pets`, { method: 'POST', headers: { ...JSON_HEADERS, prefer: `fault=${kind}` }, body: '{"name":"Lost","categoryId":1}' });
    expect(await petCount(mock.url)).toBe(before);
  });

  it('a fault that breaks the response serves the request: the pet of a truncated 201 exists', async () => {
    const before = await petCount(mock.url);
    const seen = await send(`${mock.url}/pets`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, prefer: 'fault=truncate' },
      body: '{"name":"Kept","categoryId":1}',
    });
    expect(seen.status).toBe(201);
    expect(await petCount(mock.url)).toBe(before + 1);
  });

  it('the key first: without it, the 401 and no fault', async () => {
    expect(await send(`${mock.url}/pets`, { headers: { authorization: 'Bearer wrong', prefer: 'fault=reset' } })).toMatchObject({ status: 401 });
  });

  it('an unknown fault is a 400 naming the faults there are', async () => {
    const response = await fetch(`${mock.url}/pets?__fault=explode`, { headers: AUTH });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/the network faults are reset, close, garbage, truncate, slow/);
  });

  /** What docs/mock-faults.md says a client sees of each fault asked for by a second request, pipelined behind a plain GET. */
  const PIPELINED: Record<string, Record<string, string>> = {
    GET: { reset: '200 ECONNRESET', close: '200 end', garbage: '200 garbage end', truncate: '200,200 cut end', slow: '200,200 end' },
    // A HEAD has no body to cut or trickle: its head comes whole; truncate closes the connection after it.
    HEAD: { reset: '200 ECONNRESET', close: '200 end', garbage: '200 garbage end', truncate: '200,200 end', slow: '200,200 end' },
  };

  const kinds = ['reset', 'close', 'garbage', 'truncate', 'slow'].filter((kind) => kind !== 'reset' || CLIENT_SEES_RESET);
  it.each(['GET', 'HEAD'].flatMap((method) => kinds.map((kind) => [method, kind])))(
    '%s with fault=%s pipelined behind another request gets its fault, and the connection ends',
    async (method, kind) => {
      const wire = await pipeline(mock.port, [
        rawRequest('GET', '/v1/pets?limit=1', [`Authorization: Bearer ${KEY}`]),
        rawRequest(method, '/v1/pets?limit=1', [`Authorization: Bearer ${KEY}`, `Prefer: fault=${kind}, trickle=200`, 'Connection: close']),
      ]);
      expect(exchangeOutline(wire)).toBe(PIPELINED[method]?.[kind]);
    },
  );

  it('a fault on the first of two pipelined requests ends the connection as it says; slow serves both', async () => {
    const outline = async (kind: string) =>
      exchangeOutline(
        await pipeline(mock.port, [
          rawRequest('GET', '/v1/pets?limit=1', [`Authorization: Bearer ${KEY}`, `Prefer: fault=${kind}, trickle=200`]),
          rawRequest('GET', '/v1/pets?limit=1', [`Authorization: Bearer ${KEY}`, 'Connection: close']),
        ]),
      );
    expect(await outline('truncate')).toBe('200 cut end');
    expect(await outline('close')).toBe('end');
    expect(await outline('slow')).toBe('200,200 end');
  });

  it("HEAD with fault=truncate or slow: the head whole, with the GET's Content-Length", async () => {
    const get = await pipeline(mock.port, [rawRequest('GET', '/v1/pets?limit=2', [`Authorization: Bearer ${KEY}`, 'Connection: close'])]);
    for (const kind of ['truncate', 'slow']) {
      const head = await pipeline(mock.port, [
        rawRequest('HEAD', '/v1/pets?limit=2', [`Authorization: Bearer ${KEY}`, `Prefer: fault=${kind}`, 'Connection: close']),
      ]);
      expect(exchangeOutline(head)).toBe('200 end');
      expect(head.responses[0]?.headers['content-length']).toBe(get.responses[0]?.headers['content-length']);
    }
  });

  it('the request log names the fault', () => {
    expect(log).toContainEqual(expect.stringMatching(/^GET \/v1\/pets\?__fault=reset 503 fault=reset /));
  });
});

/** The outcome of each of `requests` GETs, each on a connection of its own, one after another. */
async function outcomes(baseUrl: string, requests: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < requests; i++) {
    const one = await send(`${baseUrl}/pets?limit=1`);
    seen.push(one.error ?? String(one.status));
  }
  return seen;
}

describe('--faults: a share of requests, drawn from the seed', () => {
  it('fails about the share asked for, the same requests in every run with the same seed', async () => {
    const run = async (seed: string) => {
      const mock = await startMockCli(['--port', '0', '--quiet', '--seed', seed, '--faults', 'reset:0.4,close:0.2']);
      try {
        return await outcomes(mock.url, 40);
      } finally {
        await mock.stop();
      }
    };
    const [first, again, other] = await Promise.all([run('3'), run('3'), run('4')]);
    expect(first).toEqual(again);
    expect(first).not.toEqual(other);
    const failed = first.filter((outcome) => outcome !== '200').length;
    expect(failed).toBeGreaterThan(12);
    expect(failed).toBeLessThan(36);
    expect(new Set(first)).toEqual(new Set(['200', 'ECONNRESET']));
  });

  it('--proxy draws them as the plain mock does, the same requests for the same seed, and forwards none that breaks before an answer', async () => {
    const deployment = await startMockCli(['--port', '0', '--api-key', KEY]);
    const flags = ['--port', '0', '--seed', '5', '--faults', 'reset:0.4,truncate:0.2', '--api-key', KEY];
    const [plain, proxy] = await Promise.all([startMockCli(flags), startMockCli([...flags, '--proxy', deployment.url, '--upstream-key', KEY])]);
    try {
      const [mocked, proxied] = await Promise.all([outcomes(plain.url, 30), outcomes(proxy.url, 30)]);
      expect(proxied).toEqual(mocked);
      expect(new Set(proxied)).toEqual(new Set(['200', 'ECONNRESET']));
      // Only the requests not reset reached the deployment (a truncated one was forwarded, its answer cut).
      const lines = (log: string, fault = '') => log.split('\n').filter((line) => line.startsWith('GET /v1/pets?limit=1 ') && line.includes(fault)).length;
      // Each log line comes a little after its answer: waited for, within a wide bound.
      for (const until = Date.now() + 10_000; [plain, proxy].some((mock) => lines(mock.stderr()) < 30) && Date.now() < until; ) await setTimeout(20);
      expect(lines(proxy.stderr(), 'fault=reset')).toBe(lines(plain.stderr(), 'fault=reset'));
      expect(lines(proxy.stderr(), 'fault=truncate')).toBe(lines(plain.stderr(), 'fault=truncate'));
      const forwarded = 30 - lines(proxy.stderr(), 'fault=reset');
      for (const until = Date.now() + 10_000; lines(deployment.stderr()) < forwarded && Date.now() < until; ) await setTimeout(20);
      expect(lines(deployment.stderr())).toBe(forwarded);
    } finally {
      await Promise.all([plain.stop(), proxy.stop(), deployment.stop()]);
    }
  });

  it('refuses a rate it cannot use, with exit 2 and what to write instead', async () => {
    const started = await startMockCli(['--port', '0', '--faults', 'reset:0.7,close:0.7']).then(
      (mock) => mock.stop().then(() => 'started'),
      (error: unknown) => String(error),
    );
    expect(started).toMatch(/exited with 2 before listening: .*--faults.*add up to 1\.4/s);
  });
});

describe('network faults in every mode of the CLI', () => {
  let redis: TestRedis;
  let folder: string;
  const modes: Record<string, (around: { redis: TestRedis; folder: string }) => string[]> = {
    plain: () => [],
    '--state': ({ folder }) => ['--state', join(folder, 'pets.json')],
    '--store redis': ({ redis }) => ['--store', redis.url, '--namespace', 'faults-store'],
    '--workers 2': ({ redis }) => ['--store', redis.url, '--namespace', 'faults-workers', '--workers', '2'],
  };
  const running = new Map<string, RunningMock>();
  beforeAll(async () => {
    [redis, folder] = await Promise.all([startRedis(), mkdtemp(join(tmpdir(), 'petstore-faults-'))]);
    await Promise.all(
      Object.entries(modes).map(async ([name, flags]) =>
        running.set(name, await startMockCli([...flags({ redis, folder }), '--port', '0', '--quiet', '--count', '3'])),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all([...running.values()].map((mock) => mock.stop()));
    await redis?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it.each(Object.keys(modes))('%s: reset creates nothing, truncate cuts a 201 whose pet exists, slow trickles', async (mode) => {
    const url = running.get(mode)?.url ?? '';
    const before = await petCount(url);
    const body = '{"name":"Faulty","categoryId":1}';
    expect((await send(`${url}/pets`, { method: 'POST', headers: { ...JSON_HEADERS, prefer: 'fault=reset' }, body })).error).toBe('ECONNRESET');
    expect(await petCount(url)).toBe(before);
    const cut = await send(`${url}/pets`, { method: 'POST', headers: { ...JSON_HEADERS, prefer: 'fault=truncate' }, body });
    expect(cut.status).toBe(201);
    expect(cut.bodyBytes).toBeLessThan(cut.declaredLength ?? 0);
    expect(await petCount(url)).toBe(before + 1);
    const slow = await send(`${url}/pets`, { headers: { prefer: 'fault=slow, trickle=400' } });
    expect([slow.status, slow.error]).toEqual([200, undefined]);
    expect(slow.bodyMs).toBeGreaterThan(300);
  });
});

describe('network faults under MSW', () => {
  const api = createHandlers({ baseUrl: 'https://api.faults.test/v1', count: 3 });
  const server = setupServer(...api);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());
  const get = (fault: string) => fetch(`https://api.faults.test/v1/pets?__fault=${fault}&__trickle=300`, { headers: AUTH });

  it.each(['reset', 'close', 'garbage'])('%s: fetch rejects with a TypeError, as for a network error', async (fault) => {
    await expect(get(fault)).rejects.toThrow(TypeError);
  });

  it('truncate: the head arrives, reading the body rejects', async () => {
    const response = await get('truncate');
    expect(response.status).toBe(200);
    // msw 2 passes the stream's own error on; msw 3 ends the body short of its Content-Length, which fetch rejects as `terminated`.
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('HEAD: reset, close and garbage reject; truncate and slow answer the head whole, as on the Node server', async () => {
    const head = (fault: string) => fetch(`https://api.faults.test/v1/pets?__fault=${fault}&__trickle=300`, { method: 'HEAD', headers: AUTH });
    for (const fault of ['reset', 'close', 'garbage']) await expect(head(fault)).rejects.toThrow(TypeError);
    for (const fault of ['truncate', 'slow']) {
      const response = await head(fault);
      expect([response.status, await response.text()]).toEqual([200, '']);
      expect(response.headers.get('content-type')).toBe('application/json');
    }
  });

  it('slow: the body arrives whole, after the time asked for', async () => {
    const started = performance.now();
    const response = await get('slow');
    expect(((await response.json()) as unknown[]).length).toBe(3);
    expect(performance.now() - started).toBeGreaterThan(250);
  });
});

const TEST = 'test/mock/faults.test.ts';

describe.skipIf(skipWithoutChromium(TEST))('network faults as a browser sees them, in Chromium', () => {
  let mock: MockServer;
  let site: StaticServer;
  let browser: Browser;
  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error(`CI=${process.env.CI}: ${chromiumMissing(TEST)}`);
    mock = await startMockServer({ port: 0, count: 3 });
    const pageDir = await mkdtemp(join(tmpdir(), 'petstore-faults-page-'));
    await writeFile(join(pageDir, 'index.html'), '<!doctype html><title>an app on another origin</title>');
    site = await serveStatic(pageDir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await mock?.close();
  });

  it('reports each fault as the network error docs/mock-faults.md names, and a slow body arrives whole', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('requestfailed', (request) => failures.push(`${new URL(request.url()).searchParams.get('__fault')} ${request.failure()?.errorText}`));
    await page.goto(`${site.url}/`);
    const seen = await page.evaluate(
      async ({ base, key }) => {
        const outcome = async (fault: string) => {
          try {
            const response = await fetch(`${base}/pets?__fault=${fault}&__trickle=300`, { headers: { authorization: `Bearer ${key}` } });
            try {
              return `${response.status} ${(await response.json()).length} pets`;
            } catch (error) {
              return `${response.status}, then the body: ${(error as Error).name}`;
            }
          } catch (error) {
            return `${(error as Error).name}: ${(error as Error).message}`;
          }
        };
        const results: Record<string, string> = {};
        for (const fault of ['reset', 'close', 'garbage', 'truncate', 'slow']) results[fault] = await outcome(fault);
        return results;
      },
      { base: mock.url, key: KEY },
    );
    expect(seen).toEqual({
      reset: 'TypeError: Failed to fetch',
      close: 'TypeError: Failed to fetch',
      garbage: 'TypeError: Failed to fetch',
      truncate: '200, then the body: TypeError',
      slow: '200 3 pets',
    });
    // The table of docs/mock-faults.md says what a browser sees: the test holds the page to it.
    const documented = (await readFile(new URL('../../docs/mock-faults.md', import.meta.url), 'utf8')).split('\n').flatMap((line) => {
      const [fault, , , , netError] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^`|`$/g, ''));
      return fault && /^[a-z]+$/.test(fault) && netError?.startsWith('net::') ? [`${fault} ${netError}`] : [];
    });
    expect(documented).toHaveLength(4);
    expect(failures.sort()).toEqual(documented.sort());
  });
});
