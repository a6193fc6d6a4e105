/**
 * What `petstore-mock/msw` adds to an app's browser build: two Vite builds of a small app in a new folder
 * that imports the package by name, as a project does (dist/, which `npm test` builds, through a
 * node_modules link): one starts `setupWorker(...handlers)`, the other the same worker with a handler of
 * its own, msw alone. The JavaScript the page loads at start, gzipped, may grow by at most BUDGET_KB;
 * faker, which only a seed or count other than the default needs, may come in a chunk loaded later, and
 * no YAML parser or JSON Schema compiler may come at all. Then two such apps run in Chromium: with the
 * default seed it never loads faker's chunk; with another, it loads it, and serves the pets faker draws.
 */
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededPets } from '../../src/fixtures/seed.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { serveStatic } from '../support/static-server.js';
import { root } from './projects.js';

/** The most `petstore-mock/msw` may add to the JavaScript a page loads at start, gzipped, in kB (1000 bytes, as Vite prints it). */
const BUDGET_KB = 150;

const APPS = {
  with_mock: `import { setupWorker } from 'msw/browser';
import { handlers } from 'petstore-mock/msw';

await setupWorker(...handlers).start({ onUnhandledFrame: 'bypass' });
document.body.textContent = JSON.stringify(await (await fetch('/v1/pets', { headers: { authorization: 'Bearer petstore-dev-key' } })).json());
`,
  msw_alone: `import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';

await setupWorker(http.get('/v1/pets', () => HttpResponse.json([]))).start({ onUnhandledFrame: 'bypass' });
document.body.textContent = JSON.stringify(await (await fetch('/v1/pets')).json());
`,
  another_seed: `import { setupWorker } from 'msw/browser';
import { createHandlers } from 'petstore-mock/msw';

await setupWorker(...createHandlers({ seed: 7, count: 3 })).start({ onUnhandledFrame: 'bypass' });
document.body.textContent = JSON.stringify(await (await fetch('/v1/pets', { headers: { authorization: 'Bearer petstore-dev-key' } })).json());
`,
} as const;

interface Built {
  /** Gzipped bytes of the JavaScript the page loads at start: the entry and what it imports statically. */
  readonly initial: number;
  /** Gzipped bytes of the chunks only a dynamic import loads. */
  readonly lazy: number;
  /** The packages whose modules are in the initial JavaScript. */
  readonly initialPackages: ReadonlySet<string>;
  /** The packages whose modules are anywhere in the build. */
  readonly packages: ReadonlySet<string>;
  /** The size of the largest chunk a dynamic import loads, before compression. */
  readonly largestLazy: number;
}

/** The package a module id belongs to (`@faker-js/faker`, `yaml`), or `petstore-mock` for the package's own dist/. */
function packageOf(id: string): string {
  const found = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(id);
  if (found) return found[1] as string;
  return id.startsWith(join(root, 'dist')) ? 'petstore-mock' : id;
}

async function buildApp(dir: string): Promise<Built> {
  const result = (await build({ root: dir, configFile: false, logLevel: 'silent', build: { write: false, target: 'es2022' } })) as Rollup.RollupOutput;
  const chunks = result.output.filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const initial = new Set<Rollup.OutputChunk>();
  const queue = chunks.filter((chunk) => chunk.isEntry);
  for (let chunk = queue.pop(); chunk !== undefined; chunk = queue.pop()) {
    if (initial.has(chunk)) continue;
    initial.add(chunk);
    for (const name of chunk.imports) queue.push(byName.get(name) as Rollup.OutputChunk);
  }
  const gz = (list: Iterable<Rollup.OutputChunk>) => [...list].reduce((sum, chunk) => sum + gzipSync(chunk.code).length, 0);
  const packagesIn = (list: Iterable<Rollup.OutputChunk>) => new Set([...list].flatMap((chunk) => chunk.moduleIds.map(packageOf)));
  return {
    initial: gz(initial),
    lazy: gz(chunks.filter((chunk) => !initial.has(chunk))),
    initialPackages: packagesIn(initial),
    packages: packagesIn(chunks),
    largestLazy: Math.max(0, ...chunks.filter((chunk) => !initial.has(chunk)).map((chunk) => Buffer.byteLength(chunk.code))),
  };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

const TEST = 'test/package/browser-bundle.test.ts';

/** The pets an app of `APPS` shows in Chromium, served from its build with MSW's worker script, and whether the page loaded faker. */
async function runInChromium(browser: Browser, dir: string): Promise<{ readonly shown: unknown; readonly fakerLoaded: boolean }> {
  const built = (await build({ root: dir, configFile: false, logLevel: 'silent', build: { outDir: 'dist', target: 'es2022' } })) as Rollup.RollupOutput;
  const fakerChunks = built.output
    .filter((item): item is Rollup.OutputChunk => item.type === 'chunk' && item.moduleIds.some((id) => packageOf(id) === '@faker-js/faker'))
    .map((chunk) => `/${chunk.fileName}`);
  expect(fakerChunks, 'the build has faker in a chunk of its own').toHaveLength(1);
  await copyFile(join(root, 'node_modules/msw/lib/mockServiceWorker.js'), join(dir, 'dist/mockServiceWorker.js'));
  const site = await serveStatic(join(dir, 'dist'));
  const page = await browser.newPage();
  try {
    const loaded = new Set<string>();
    page.on('request', (request) => void loaded.add(new URL(request.url()).pathname));
    await page.goto(site.url);
    await expect.poll(() => page.textContent('body'), { timeout: 15_000 }).toMatch(/^\[/);
    return { shown: JSON.parse((await page.textContent('body')) ?? ''), fakerLoaded: fakerChunks.some((chunk) => loaded.has(chunk)) };
  } finally {
    await page.close();
    await site.close();
  }
}

describe('petstore-mock/msw in a browser build with Vite', () => {
  let dir: string;
  let withMock: Built;
  let mswAlone: Built;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-bundle-'));
    await mkdir(join(dir, 'node_modules'));
    await symlink(root, join(dir, 'node_modules/petstore-mock'), 'dir');
    await symlink(join(root, 'node_modules/msw'), join(dir, 'node_modules/msw'), 'dir');
    for (const [name, main] of Object.entries(APPS).filter(([name]) => name !== 'another_seed')) {
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, 'index.html'), '<!doctype html><title>app</title><script type="module" src="./main.js"></script>\n');
      await writeFile(join(dir, name, 'main.js'), main);
    }
    [withMock, mswAlone] = [await buildApp(join(dir, 'with_mock')), await buildApp(join(dir, 'msw_alone'))];
    console.info(
      `petstore-mock/msw in a Vite build: ${kB(withMock.initial)} gzipped at start against ${kB(mswAlone.initial)} for msw alone ` +
        `(+${kB(withMock.initial - mswAlone.initial)}), and ${kB(withMock.lazy)} loaded later only when asked for`,
    );
  }, 240_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`adds at most ${BUDGET_KB} kB gzipped to the JavaScript a page loads at start`, () => {
    expect(withMock.initialPackages.has('petstore-mock'), 'the build holds the package: the measure is of it').toBe(true);
    expect(withMock.initial - mswAlone.initial).toBeLessThanOrEqual(BUDGET_KB * 1000);
  });

  it('loads no faker at start, and brings no YAML parser, JSON Schema compiler or Redis client at all', () => {
    expect([...withMock.initialPackages].filter((name) => name.startsWith('@faker-js/'))).toEqual([]);
    expect([...withMock.packages].filter((name) => ['yaml', 'ajv', 'fast-uri', 'ioredis'].includes(name))).toEqual([]);
    expect(withMock.packages.has('@faker-js/faker'), 'faker, in a chunk of its own for another seed').toBe(true);
  });

  it('gives Vite no module of Node to stand in for, and faker no chunk past the 500 kB Vite warns of', () => {
    expect([...withMock.packages].filter((name) => name.startsWith('__vite-browser-external'))).toEqual([]);
    expect(withMock.largestLazy).toBeGreaterThan(0);
    expect(withMock.largestLazy).toBeLessThanOrEqual(500 * 1000);
  });
});

describe.skipIf(skipWithoutChromium(TEST))('petstore-mock/msw in Chromium, built by Vite', () => {
  let dir: string;
  let browser: Browser;

  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error(`CI=${process.env.CI}: ${chromiumMissing(TEST)}`);
    dir = await mkdtemp(join(tmpdir(), 'petstore-bundle-run-'));
    await mkdir(join(dir, 'node_modules'));
    await symlink(root, join(dir, 'node_modules/petstore-mock'), 'dir');
    await symlink(join(root, 'node_modules/msw'), join(dir, 'node_modules/msw'), 'dir');
    for (const name of ['with_mock', 'another_seed'] as const) {
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, 'index.html'), '<!doctype html><title>app</title><body></body><script type="module" src="./main.js"></script>\n');
      await writeFile(join(dir, name, 'main.js'), APPS[name]);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves the default pets, and never loads faker', async () => {
    const { shown, fakerLoaded } = await runInChromium(browser, join(dir, 'with_mock'));
    expect(shown).toEqual(seededPets(1, 20));
    expect(fakerLoaded).toBe(false);
  });

  it('serves the pets of another seed once faker, a chunk of its own, has drawn them', async () => {
    const { shown, fakerLoaded } = await runInChromium(browser, join(dir, 'another_seed'));
    expect(shown).toEqual(seededPets(7, 3));
    expect(fakerLoaded).toBe(true);
  });
});
