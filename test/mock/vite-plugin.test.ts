/**
 * `petstore-mock/vite` with Vite's real dev server and a real Chromium: the app's page calls the API
 * and the admin through the dev server's proxy; a page on another origin, or on a name rebound to
 * this machine, cannot use the admin through it; the mock the plugin started stops with the dev
 * server, and a mock it was pointed at (`target`) does not.
 */

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { createLogger, createServer, type InlineConfig, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { type PetstoreMockPluginOptions, petstoreMock } from '../../src/mock/hosts/vite.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { freePort } from '../support/free-port.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';
import { FULL_PAGE, SEED_WITH_ROOM } from '../support/page-size.js';
import { type StaticServer, serveStatic } from '../support/static-server.js';

const TEST = 'test/mock/vite-plugin.test.ts';
const KEY = 'vite-plugin-key';
const REBOUND = 'rebound.test';
// The page responds in milliseconds; the margin is for a CI machine busy with the other suites.
const POLL = { timeout: 15_000 };

const INDEX_HTML = '<!doctype html><title>app</title><pre id="result"></pre><script type="module" src="/main.js"></script>\n';

/** The app: lists, creates, resets through the admin, lists again, and shows each status in #result. */
const MAIN_JS = `const key = new URLSearchParams(location.search).get('key');
const auth = { authorization: 'Bearer ' + key };
const listed = await fetch('/v1/pets', { headers: auth });
const before = (await listed.json()).length;
const created = await fetch('/v1/pets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
const grown = (await (await fetch('/v1/pets', { headers: auth })).json()).length;
const reset = await fetch('/__mock/reset', { method: 'POST', headers: { 'x-mock-admin': '1' } });
const after = (await (await fetch('/v1/pets', { headers: auth })).json()).length;
document.querySelector('#result').textContent = JSON.stringify({ listed: listed.status, before, created: created.status, grown, reset: reset.status, after });
`;

/** Every way a page on another origin may try the admin through the dev server, each with what it got. */
async function tryTheAdmin(page: Page, admin: string): Promise<string[]> {
  return page.evaluate(async (base) => {
    const attempt = async (what: string, init: RequestInit) => {
      try {
        const response = await fetch(`${base}reset`, { method: 'POST', ...init });
        return `${what}: ${response.type} ${response.status}`;
      } catch (error) {
        return `${what}: ${(error as Error).name}`;
      }
    };
    return [
      await attempt('simple POST', {}),
      await attempt('text/plain POST', { body: '{}', headers: { 'content-type': 'text/plain' } }),
      await attempt('no-cors POST', { mode: 'no-cors', body: 'x' }),
      await attempt('JSON POST', { body: '{}', headers: { 'content-type': 'application/json' } }),
      await attempt('X-Mock-Admin POST', { headers: { 'x-mock-admin': '1' } }),
    ];
  }, admin);
}

/** The admin requests a mock logged, without their timings. */
function adminLines(log: readonly string[]): string[] {
  return log.filter((line) => line.includes('/__mock/')).map((line) => line.replace(/ [\d.]+ms.*$/, ''));
}

/** The origin of the mock the dev server's `/v1` proxy sends the API to. */
function proxyTarget(vite: ViteDevServer): string {
  const api = vite.config.server.proxy?.['/v1'];
  return String(typeof api === 'object' ? api.target : api);
}

describe.skipIf(skipWithoutChromium(TEST))('petstore-mock/vite, with a real dev server and Chromium', () => {
  let root: string;
  let site: StaticServer;
  let browser: Browser;

  /** A dev server over the app with the plugin, listening on 127.0.0.1; `root` is its URL. */
  async function devServer(options: PetstoreMockPluginOptions, server: InlineConfig['server'] = {}): Promise<{ vite: ViteDevServer; url: string }> {
    const vite = await createServer({
      configFile: false,
      root,
      logLevel: 'silent',
      plugins: [petstoreMock(options)],
      server: { host: '127.0.0.1', port: 0, watch: null, ...server },
    });
    await vite.listen();
    const url = vite.resolvedUrls?.local[0];
    if (url === undefined) throw new Error('the dev server listens, yet has no local URL');
    return { vite, url };
  }

  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error(`CI=${process.env.CI}: ${chromiumMissing(TEST)}`);
    // As under `vite`: the plugin stays out of vitest, which this suite runs under.
    vi.stubEnv('VITEST', '');
    root = await mkdtemp(join(tmpdir(), 'petstore-vite-'));
    await writeFile(join(root, 'index.html'), INDEX_HTML);
    await writeFile(join(root, 'main.js'), MAIN_JS);
    // The other origin: an empty page served by a server of its own, on another port.
    await mkdir(join(root, 'elsewhere'));
    await writeFile(join(root, 'elsewhere/index.html'), '<!doctype html><title>elsewhere</title>\n');
    site = await serveStatic(join(root, 'elsewhere'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`] });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    vi.unstubAllEnvs();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('serves the app, whose page calls /v1 and /__mock/reset through the proxy, and stops the mock with the dev server', async () => {
    const log: string[] = [];
    const { vite, url } = await devServer({ apiKey: KEY, seed: 3, count: 5, onRequest: (line) => log.push(line) });
    const mockOrigin = proxyTarget(vite);
    try {
      const page = await browser.newPage();
      await page.goto(`${url}?key=${KEY}`);
      await expect.poll(() => page.textContent('#result'), POLL).not.toBe('');
      expect(JSON.parse((await page.textContent('#result')) ?? '')).toEqual({ listed: 200, before: 5, created: 201, grown: 6, reset: 200, after: 5 });
      expect(adminLines(log)).toEqual(['POST /__mock/reset 200']);
    } finally {
      await vite.close();
    }
    expect(mockOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(fetch(`${mockOrigin}/v1/pets`, { headers: AUTH })).rejects.toThrow();
  });

  it('lets no page on another origin use the admin through the dev server: the mock rejects each request, and its state survives', async () => {
    const log: string[] = [];
    // A seed that leaves room on a full page, where the pet kept is listed after the seeded ones.
    const { vite, url } = await devServer({ count: SEED_WITH_ROOM, onRequest: (line) => log.push(line) });
    try {
      expect((await fetch(`${url}v1/pets`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Keep me","categoryId":1}' })).status).toBe(201);
      const page = await browser.newPage();
      await page.goto(site.url);
      // Vite answers the preflights itself (its CORS allows pages on localhost), so the POSTs reach the mock.
      expect(await tryTheAdmin(page, `${url}__mock/`)).toEqual([
        'simple POST: cors 403',
        'text/plain POST: cors 403',
        'no-cors POST: opaque 0',
        'JSON POST: cors 403',
        'X-Mock-Admin POST: cors 403',
      ]);
      expect(adminLines(log)).toEqual(Array.from({ length: 5 }, () => 'POST /__mock/reset 403'));
      const listed = (await (await fetch(`${url}v1/pets?${FULL_PAGE}`, { headers: AUTH })).json()) as { name: string }[];
      expect(listed.map((pet) => pet.name)).toContain('Keep me');
    } finally {
      await vite.close();
    }
  });

  it('points at a running mock (target), rejects a rebound name when Vite checks no Host, and leaves the mock running', async () => {
    const log: string[] = [];
    const mock: MockServer = await startMockServer({ port: 0, apiKey: KEY, count: 5, onRequest: (line) => log.push(line) });
    // allowedHosts: true turns off Vite's own defence against DNS rebinding; the plugin then checks Host as the mock does.
    const { vite, url } = await devServer({ target: mock.url }, { allowedHosts: true });
    try {
      const app = await browser.newPage();
      await app.goto(`${url}?key=${KEY}`);
      await expect.poll(() => app.textContent('#result'), POLL).not.toBe('');
      expect(JSON.parse((await app.textContent('#result')) ?? '')).toMatchObject({ listed: 200, reset: 200, after: 5 });
      const rebound = await browser.newPage();
      await rebound.goto(`http://${REBOUND}:${new URL(url).port}/?key=${KEY}`);
      await expect.poll(() => rebound.textContent('#result'), POLL).not.toBe('');
      expect(JSON.parse((await rebound.textContent('#result')) ?? '')).toMatchObject({ listed: 403, created: 403, reset: 403 });
      // The dev server refuses the rebound page itself (src/mock/hosts/vite-guard.ts): none of its requests reaches the mock.
      expect(adminLines(log)).toEqual(['POST /__mock/reset 200']);
      expect(log).toHaveLength(5);
    } finally {
      await vite.close();
    }
    try {
      expect((await fetch(`${mock.url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('hands a given port over to the mock of a restarted dev server, which reads its config before the old server closes', async () => {
    const port = await freePort();
    const old = await devServer({ port, count: 1 });
    const restarted = await devServer({ port, count: 2 });
    try {
      await old.vite.close();
      expect(await (await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: AUTH })).json()).toHaveLength(2);
      expect(await (await fetch(`${restarted.url}v1/pets`, { headers: AUTH })).json()).toHaveLength(2);
    } finally {
      await restarted.vite.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: AUTH })).rejects.toThrow();
  });

  it('says where the API and the inspector are after Vite prints its URLs, and leads /__mock to the inspector', async () => {
    const printed: string[] = [];
    const customLogger = createLogger('info');
    customLogger.info = (message) => printed.push(message);
    const vite = await createServer({
      configFile: false,
      root,
      customLogger,
      plugins: [petstoreMock({ count: 1 })],
      server: { host: '127.0.0.1', port: 0, watch: null },
    });
    try {
      await vite.listen();
      vite.printUrls();
      const url = vite.resolvedUrls?.local[0] ?? '';
      const mockOrigin = proxyTarget(vite);
      // Vite colours its lines where it thinks a terminal can show colours (under CI=true too).
      const lines = stripVTControlCharacters(printed.join('\n')).split('\n');
      const local = lines.findIndex((line) => line.includes('Local:'));
      expect(local).toBeGreaterThanOrEqual(0);
      expect(lines.slice(local + 1).filter((line) => line.includes('➜  Pet store API') || line.includes('➜  Its inspector'))).toEqual([
        `  ➜  Pet store API: ${url}v1 (petstore-mock at ${mockOrigin}/v1)`,
        `  ➜  Its inspector: ${url}__mock/`,
      ]);
      const inspector = await fetch(`${url}__mock`);
      expect([inspector.url, inspector.status, inspector.headers.get('content-type')]).toEqual([`${url}__mock/`, 200, 'text/html; charset=utf-8']);
    } finally {
      await vite.close();
    }
  });

  it('needs no vite at runtime: the built module imports only types from it', async () => {
    const built = await readFile(new URL('../../dist/mock/hosts/vite.js', import.meta.url), 'utf8').catch(() => {
      throw new Error('dist/ is missing: run `npm run build` before the e2e tests.');
    });
    expect(built).not.toMatch(/from ['"]vite['"]|import\(['"]vite['"]\)/);
  });
});
