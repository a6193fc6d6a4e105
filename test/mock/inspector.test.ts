/**
 * The inspector page (`GET /__mock/`) in a real Chromium: it shows a request within a second, its
 * reset button resets, a hostile pet name is text, "copy as curl" holds no key, a page elsewhere can
 * neither frame nor read it, and beyond loopback it asks for the key. UPDATE_SCREENSHOT=1 writes
 * docs/inspector.png from the same page.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { AUTH, JSON_HEADERS, KEY } from '../support/http-facts.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { type StaticServer, serveStatic } from '../support/static-server.js';

const TEST = 'test/mock/inspector.test.ts';
const HOSTILE = '<img src=x onerror=alert(1)>';
const SCREENSHOT = new URL('../../docs/inspector.png', import.meta.url);
/** How long the page may take to show what it has read: a hang's bound, not a speed's (the page polls twice a second). */
const SHOWN = { timeout: 15_000 };

async function health(mock: MockServer): Promise<number> {
  const response = await fetch(new URL('/__mock/health', mock.url));
  return ((await response.json()) as { pets: number }).pets;
}

describe('the inspector page, over HTTP', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, adminKeyRequired: true });
  });
  afterAll(() => mock?.close());

  it('serves the page, its style and its script without a key, and nothing framable or cached', async () => {
    for (const [path, type] of [
      ['/__mock/', 'text/html; charset=utf-8'],
      ['/__mock/inspector.js', 'text/javascript; charset=utf-8'],
      ['/__mock/inspector.css', 'text/css; charset=utf-8'],
    ] as const) {
      const response = await fetch(new URL(path, mock.url));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('is found from /__mock (a permanent redirect to /__mock/, without a key) and named by the 404 at /', async () => {
    for (const path of ['/__mock', '/__mock?x=1']) {
      const response = await fetch(new URL(path, mock.url), { redirect: 'manual' });
      expect([response.status, response.headers.get('location')], path).toEqual([308, '/__mock/']);
    }
    const followed = await fetch(new URL('/__mock', mock.url));
    expect([followed.url, followed.status, followed.headers.get('content-type')]).toEqual([
      new URL('/__mock/', mock.url).href,
      200,
      'text/html; charset=utf-8',
    ]);
    const root = await fetch(new URL('/', mock.url));
    expect(root.status).toBe(404);
    expect(((await root.json()) as { message: string }).message).toMatch(/the API lives under \/v1, and the inspector, for a browser, at \/__mock\//);
  });

  it('serves its icon, and the same as /favicon.ico, so that a page of the mock raises no 404 in the browser', async () => {
    for (const path of ['/__mock/favicon.svg', '/favicon.ico']) {
      const response = await fetch(new URL(path, mock.url));
      expect([response.status, response.headers.get('content-type')], path).toEqual([200, 'image/svg+xml']);
      expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    expect((await fetch(new URL('/favicon.ico', mock.url), { method: 'POST' })).status).toBe(404);
  });

  it('keeps the data it shows behind the key where the admin needs one', async () => {
    expect((await fetch(new URL('/__mock/requests', mock.url))).status).toBe(401);
    expect((await fetch(new URL('/__mock/requests', mock.url), { headers: AUTH })).status).toBe(200);
  });

  it('is refused to a foreign Host (DNS rebinding) and to a page elsewhere that sends its Origin', async () => {
    const url = new URL('/__mock/', mock.url);
    const rebound = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.example' } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        }).on('error', reject),
      );
    });
    expect(rebound).toBe(403);
    expect((await fetch(url, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
  });
});

describe('the inspector page in every mode of the CLI', () => {
  let redis: TestRedis;
  let upstream: RunningMock;
  const running: RunningMock[] = [];
  beforeAll(async () => {
    [redis, upstream] = await Promise.all([startRedis(), startMockCli(['--port', '0', '--quiet'])]);
  });
  afterAll(async () => {
    await Promise.all([...running, upstream].map((mock) => mock?.stop()));
    await redis?.stop();
  });

  it.each([
    ['--store redis --workers 2', () => ['--store', redis.url, '--workers', '2']],
    ['--proxy', () => ['--proxy', upstream.url]],
  ])('%s: serves the page, its script, and the journal it reads', async (_mode, flags) => {
    const mock = await startMockCli([...flags(), '--port', '0', '--quiet']);
    running.push(mock);
    const origin = new URL(mock.url).origin;
    const page = await fetch(`${origin}/__mock/`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await page.text()).toContain('<script src="/__mock/inspector.js" defer></script>');
    expect((await fetch(`${origin}/__mock/inspector.js`)).status).toBe(200);
    await fetch(`${mock.url}/pets?limit=1`, { headers: AUTH });
    // Another worker's entries reach the cluster's journal a moment after its response (docs/mock-journal.md).
    await expect
      .poll(async () => ((await (await fetch(`${origin}/__mock/requests`)).json()) as { entries: unknown[] }).entries.length, SHOWN)
      .toBeGreaterThan(0);
  });
});

describe.skipIf(skipWithoutChromium(TEST))('the inspector page, in Chromium', () => {
  let mock: MockServer;
  let browser: Browser;
  let page: Page;
  let elsewhere: StaticServer;
  let dir: string;
  const problems: string[] = [];

  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error(`CI=${process.env.CI}: ${chromiumMissing(TEST)}`);
    mock = await startMockServer({ port: 0, count: 5 });
    dir = await mkdtemp(join(tmpdir(), 'petstore-inspector-elsewhere-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>a page elsewhere</title>');
    elsewhere = await serveStatic(dir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // A mock without --proxy has no drift: the page asks once, and its 404 is expected.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('/__mock/drift'))
        problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(new URL('/__mock/', mock.url).href);
  });

  afterAll(async () => {
    await browser?.close();
    await elsewhere?.close();
    await mock?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows a request the test made within a second', async () => {
    // A second of the page's own clock, paused: its timers fire only as the test moves it, so that the
    // second is the page's, however long a busy machine takes to do what falls in it.
    const context = await browser.newContext();
    try {
      const start = Date.now();
      await context.clock.install({ time: start });
      await context.clock.pauseAt(start + 1_000);
      const clocked = await context.newPage();
      await clocked.goto(new URL('/__mock/', mock.url).href);
      // The first reads are done (no request for half a second), and the next one waits on the paused clock.
      await clocked.waitForLoadState('networkidle');
      await fetch(`${mock.url}/pets?limit=2&status=available`, { headers: AUTH });
      await context.clock.runFor(1_000);
      await clocked.locator('.entry .path', { hasText: '/v1/pets?limit=2&status=available' }).waitFor(SHOWN);
      // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, whose textContent would run the parts together
      const line = await clocked.locator('.entry', { hasText: 'limit=2&status=available' }).locator('summary').innerText();
      expect(line).toMatch(/200\s+GET\s+\/v1\/pets\?limit=2&status=available\s+listPets\s+operation/);
    } finally {
      await context.close();
    }
  });

  it('shows a hostile pet name as text, runs nothing, and copies curl without the key', async () => {
    const created = await fetch(`${mock.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name: HOSTILE, categoryId: 1 }) });
    expect(created.status).toBe(201);
    const entry = page.locator('.entry', { hasText: 'createPet' }).first();
    await entry.waitFor(SHOWN);
    await entry.locator('summary').click();
    expect(await entry.locator('pre.body').textContent()).toContain(HOSTILE);
    expect(await page.locator('img').count()).toBe(0);
    const curl = await entry.locator('pre.curl').textContent();
    expect(curl).toContain('-H "Authorization: Bearer $PETSTORE_API_KEY"');
    expect(curl).toContain(`--data-raw '{"name":"${HOSTILE}","categoryId":1}'`);
    expect(await page.content()).not.toContain(KEY);
  });

  it('copies curl that a shell runs as the request, never as commands a client planted in it', async () => {
    // Any client (a page elsewhere too: the API answers CORS) chooses the scheme of its Authorization,
    // which the journal keeps; pasted into a shell, the copied command must run nothing of it.
    const marker = join(await mkdtemp(join(tmpdir(), 'petstore-inspector-')), 'planted');
    const planted = `$(touch\${IFS}${marker})\`touch\${IFS}${marker}\`;touch\${IFS}${marker}`;
    await fetch(`${mock.url}/pets?planted=1`, { headers: { authorization: `${planted} x`, 'x-mock-session': `a'b` } });
    const entry = page.locator('.entry', { hasText: 'planted=1' }).first();
    await entry.waitFor(SHOWN);
    await entry.locator('summary').click();
    const curl = (await entry.locator('pre.curl').textContent()) ?? '';
    const shell = spawnSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }\n${curl}`], { env: { PATH: process.env.PATH ?? '', PETSTORE_API_KEY: 'the-key' } });
    const ran = existsSync(marker);
    await rm(dirname(marker), { recursive: true, force: true });
    expect(ran).toBe(false);
    expect(shell.stdout.toString()).toContain(`Authorization: ${planted} the-key`);
  });

  it('lists the sessions with their pet counts, and its reset button resets the mock', async () => {
    await fetch(`${mock.url}/pets`, { method: 'POST', headers: { ...JSON_HEADERS, 'x-mock-session': 'checkout' }, body: '{"name":"Rex","categoryId":1}' });
    await page.locator('#sessions tr', { hasText: 'checkout' }).locator('.pets', { hasText: '6' }).waitFor(SHOWN);
    expect(await health(mock)).toBe(6); // the hostile pet
    await page.locator('#reset-all').click();
    await page.locator('#notice', { hasText: 'back to its seeded pets' }).waitFor(SHOWN);
    expect(await health(mock)).toBe(5);
    await page.locator('#sessions tr', { hasText: 'checkout' }).waitFor({ ...SHOWN, state: 'detached' });
  });

  it('shows the coverage, no profile as none rather than a block of unknowns, and hides the drift a mock without --proxy has not', async () => {
    await page.locator('#coverage th', { hasText: 'createPet' }).waitFor(SHOWN);
    expect(await page.locator('#coverage-total').textContent()).toMatch(/^\d+ of \d+$/);
    await page.locator('#profile', { hasText: 'none' }).waitFor({ timeout: 3_000 });
    expect(await page.locator('#profile').textContent()).not.toContain('unknown');
    expect(await page.locator('#drift').isVisible()).toBe(false);
  });

  it('shows the choices a profile in force knows, and only those', async () => {
    const profiled = await startMockServer({ port: 0, count: 2, profile: { version: 1, listOrder: 'id-desc', limitOutOfRange: 'clamp' } });
    try {
      const other = await browser.newPage();
      await other.goto(new URL('/__mock/', profiled.url).href);
      await other.locator('#profile', { hasText: 'listOrder' }).waitFor({ timeout: 3_000 });
      expect(JSON.parse((await other.locator('#profile').textContent()) ?? '')).toEqual({ listOrder: 'id-desc', limitOutOfRange: 'clamp' });
      await other.close();
    } finally {
      await profiled.close();
    }
  });

  it('raises no error, no CSP violation and no dialog', () => {
    expect(problems).toEqual([]);
  });

  it('cannot be framed or read by a page elsewhere', async () => {
    const other = await browser.newPage();
    await other.goto(`${elsewhere.url}/`);
    const outcome = await other.evaluate(async (inspector) => {
      const frame = document.createElement('iframe');
      frame.src = inspector;
      document.body.append(frame);
      await new Promise((resolve) => setTimeout(resolve, 500));
      let read: string;
      try {
        read = String((await fetch(new URL('/__mock/requests', inspector))).status);
      } catch (error) {
        read = (error as Error).name;
      }
      return { read };
    }, new URL('/__mock/', mock.url).href);
    expect(outcome.read).toBe('TypeError');
    // Chromium shows its own error page in the frame instead: the inspector never loaded there.
    const frames = other.mainFrame().childFrames();
    expect(frames).toHaveLength(1);
    expect(frames[0]?.url()).not.toBe(new URL('/__mock/', mock.url).href);
    expect(await frames[0]?.locator('#requests').count()).toBe(0);
    await other.close();
  });

  it('asks for the key where the admin needs one, and then shows the requests', async () => {
    const guarded = await startMockServer({ port: 0, adminKeyRequired: true, count: 2 });
    try {
      const keyed = await browser.newPage();
      await keyed.goto(new URL('/__mock/', guarded.url).href);
      await keyed.locator('#key-form').waitFor({ ...SHOWN, state: 'visible' });
      await keyed.locator('#key').fill(KEY);
      await keyed.locator('#key-form button').click();
      await fetch(`${guarded.url}/pets/1`, { headers: AUTH });
      await keyed.locator('.entry .path', { hasText: '/v1/pets/1' }).waitFor(SHOWN);
      expect(await keyed.content()).not.toContain(KEY);
      await keyed.close();
    } finally {
      await guarded.close();
    }
  });

  it('is pictured in docs/inspector.png (UPDATE_SCREENSHOT=1 takes it again)', async () => {
    if (process.env.UPDATE_SCREENSHOT) {
      await fetch(`${mock.url}/pets?limit=3`, { headers: AUTH });
      await fetch(`${mock.url}/pets/999`, { headers: AUTH });
      await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer wrong' } });
      await page.waitForTimeout(1_000);
      await page.locator('.entry').first().locator('summary').click();
      await page.screenshot({ path: SCREENSHOT.pathname, fullPage: false });
    }
    const png = await readFile(SCREENSHOT);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
