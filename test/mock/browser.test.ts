/**
 * The browser example (examples/browser) in a real Chromium: the page calls /v1 with fetch, and MSW's
 * service worker hands every call to setupWorker(...handlers), the mock's one handler. The static
 * server that serves the page answers nothing under /v1, so every answer the page shows came from
 * the worker.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pets } from '../../src/fixtures/index.js';
import { AUTH_MESSAGES } from '../../src/mock/pipeline/auth.js';
import { execFile } from '../support/children.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { LIMIT } from '../support/page-size.js';
import { type StaticServer, serveStatic } from '../support/static-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example = join(root, 'examples/browser');
const app = join(root, 'test-results/browser-app');
const screenshots = join(root, 'test-results/browser');

// The page answers in milliseconds; the margin is for a CI machine busy with the other suites.
const POLL = { timeout: 15_000 };
const MISSING = chromiumMissing('test/mock/browser.test.ts');
const skip = skipWithoutChromium('test/mock/browser.test.ts');

describe.skipIf(skip)('the browser example, with setupWorker(...handlers) in Chromium', () => {
  let site: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error(`CI=${process.env.CI}: ${MISSING}`);
    // The worker script comes from the installed msw, so that it always matches the library's version.
    await promisify(execFile)(process.execPath, [join(root, 'node_modules/msw/cli/index.js'), 'init', join(example, 'public'), '--no-save'], { cwd: root });
    await build({
      root: example,
      configFile: join(example, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: app, emptyOutDir: true },
    });
    site = await serveStatic(app);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    await mkdir(screenshots, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('lists the first page of the seeded pets, adds a pet the mock keeps, and shows the 401 message for a wrong key', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(site.url);

    // The page lists the first page, the spec's default size: the interface has no page navigation.
    const items = page.locator('#pets li');
    const firstPage = pets.slice(0, LIMIT.default);
    await expect.poll(() => items.count(), POLL).toBe(firstPage.length);
    expect(await items.allTextContents()).toEqual(firstPage.map((pet) => `#${pet.id} ${pet.name} (${pet.status})`));
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/mockServiceWorker\.js$/);

    await page.fill('input[name=name]', 'Rex');
    await page.fill('input[name=categoryId]', '3');
    await page.selectOption('select[name=status]', 'pending');
    await page.click('button[type=submit]');
    await expect.poll(() => page.textContent('#message'), POLL).toBe(`Added Rex (#${pets.length + 1})`);
    // Kept by the worker's mock: read back through it, as the page's own requests are.
    const kept = await page.evaluate(
      async (id) => (await fetch(`/v1/pets/${id}`, { headers: { authorization: 'Bearer petstore-dev-key' } })).json(),
      pets.length + 1,
    );
    expect(kept).toMatchObject({ id: pets.length + 1, name: 'Rex', categoryId: 3, status: 'pending' });
    expect(await items.allTextContents()).toEqual(firstPage.map((pet) => `#${pet.id} ${pet.name} (${pet.status})`));
    await page.screenshot({ path: join(screenshots, 'pets-listed-and-added.png'), fullPage: true });

    await page.fill('#key', 'wrong-key');
    await page.click('#reload');
    await expect.poll(() => page.textContent('#message'), POLL).toBe(`401 unauthorized: ${AUTH_MESSAGES.key}`);
    expect(await items.count()).toBe(0);
    await page.screenshot({ path: join(screenshots, 'wrong-key-401.png'), fullPage: true });
    expect(failures).toEqual([]);
  });
});
