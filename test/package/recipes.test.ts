/**
 * docs/recipes.md: each recipe's code is a file under examples/recipes/, shown whole, and each recipe runs as
 * written in a new project: the packed package, vitest, Jest 30 and Playwright Test installed from the
 * registry (or npm's cache) on Node 24, as consumers install them. Playwright Test's `request` fixture needs no
 * browser (none is downloaded). Cypress's binary cannot be downloaded here: its recipe (config, support file,
 * spec) runs under vitest with downstream/cypress-stand-in.mjs, a stand-in for `cy.request` that makes the same
 * HTTP call. The Vite recipe shows petstore-mock/vite, which test/mock/vite-plugin.test.ts checks.
 * Needs the dist/ that `npm test` builds.
 */
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newProject, nodeBinOf, type Project, pack, root, run, TIMEOUT } from './projects.js';

const recipes = join(root, 'examples/recipes');
const here = join(root, 'test/package/downstream');
const RECIPE = /<!-- recipe: (\S+) -->\n```\w*\n([\s\S]*?)```/g;
const vitestVersion = (JSON.parse(readFileSync(join(root, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }).version;

describe('docs/recipes.md', () => {
  it('shows each recipe file exactly as it is, and names the files it does not show', async () => {
    const page = await readFile(join(root, 'docs/recipes.md'), 'utf8');
    const shown = [...page.matchAll(RECIPE)].map(([, path, code]) => [path as string, code as string] as const);
    for (const [path, code] of shown)
      expect(code, `docs/recipes.md shows ${path} differently: copy the file into it`).toBe(await readFile(join(root, path), 'utf8'));
    const files = (await readdir(recipes, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(root.length));
    const paths = new Set(shown.map(([path]) => path));
    for (const file of files) expect(paths.has(file) || page.includes(file) || page.includes(dirname(file)), `docs/recipes.md never names ${file}`).toBe(true);
    expect(shown.length).toBeGreaterThanOrEqual(12);
  });
});

describe('the recipes, run in a new project', () => {
  let project: Project;
  let nodeBin: string;
  const temporary: string[] = [];

  /** Copies a recipe folder into the project, for its runner to run from there; vitest's and Playwright's share examples/global-setup. */
  async function place(recipe: string): Promise<string> {
    const dir = join(project.dir, recipe);
    await cp(join(recipes, recipe), dir, { recursive: true });
    if (recipe === 'vitest' || recipe === 'playwright') await cp(join(root, 'examples/global-setup/global-setup.ts'), join(dir, 'global-setup.ts'));
    return dir;
  }

  beforeAll(async () => {
    const packDir = await mkdtemp(join(tmpdir(), 'petstore-recipes-pack-'));
    temporary.push(packDir);
    const [tarball, bin] = await Promise.all([pack(packDir), nodeBinOf('24')]);
    nodeBin = bin;
    const packages = [tarball, `vitest@${vitestVersion}`, 'jest@30', '@playwright/test'];
    project = await newProject(packages, nodeBin, { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' });
    temporary.push(project.dir);
    expect(project.install.code, project.install.output).toBe(0);
  }, TIMEOUT);

  afterAll(async () => {
    await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it(
    'vitest: two test files in two workers at once, each in its own session named after VITEST_POOL_ID',
    async () => {
      const dir = await place('vitest');
      // Not part of the recipe: a third file checks that vitest set VITEST_POOL_ID (else every worker would share `vitest-undefined`).
      const probe =
        "import { expect, it } from 'vitest';\nimport { session } from './petstore.js';\n\nit('names the session after the worker', () => expect(session).toMatch(/^vitest-[0-9]+$/));\n";
      await writeFile(join(dir, 'session-name.spec.ts'), probe);
      // Two workers, so that the files run at the same time (vitest would use one on a 2-core machine).
      const ran = await run('npx', ['--no', 'vitest', 'run', '--maxWorkers=2'], dir, nodeBin);
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toMatch(/Test Files\s+3 passed/);
      expect(ran.output).toMatch(/Tests\s+4 passed/);
    },
    TIMEOUT,
  );

  it(
    'Jest, native ESM: the same, each worker in the session named after JEST_WORKER_ID',
    async () => {
      const dir = await place('jest');
      const ran = await run('npx', ['--no', 'jest', '--maxWorkers=2'], dir, nodeBin, { NODE_OPTIONS: '--experimental-vm-modules' });
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toMatch(/Tests:\s+3 passed, 3 total/);
    },
    TIMEOUT,
  );

  it(
    'Jest, CommonJS with the default configuration, once the package can be required',
    async (context) => {
      const manifest = JSON.parse(await readFile(join(project.dir, 'node_modules/petstore-mock/package.json'), 'utf8')) as { exports: Record<string, unknown> };
      // The CommonJS build is another change of this release: until the package has one, the recipe cannot run.
      if (!JSON.stringify(manifest.exports['.']).includes('"require"')) context.skip();
      const dir = await place('jest-cjs');
      await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'commonjs' }));
      const ran = await run('npx', ['--no', 'jest', '--maxWorkers=2'], dir, nodeBin);
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toMatch(/Tests:\s+3 passed, 3 total/);
    },
    TIMEOUT,
  );

  it(
    'Playwright Test: the request fixture in two workers, without a browser',
    async () => {
      const dir = await place('playwright');
      const ran = await run('npx', ['--no', 'playwright', 'test', '--workers=2', '--reporter=list'], dir, nodeBin);
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toMatch(/using 2 workers/);
      expect(ran.output).toMatch(/3 passed/);
    },
    TIMEOUT,
  );

  it(
    "Cypress: the support file and spec, under vitest with a stand-in for cy.request (Cypress's binary cannot be downloaded here)",
    async () => {
      const dir = await place('cypress');
      for (const file of ['cypress-stand-in.mjs', 'cypress-node-events.mjs']) await cp(join(here, file), join(dir, file));
      await cp(join(here, 'cypress-vitest.config.mjs'), join(dir, 'vitest.config.mjs'));
      // The recipe's cypress.config.mjs imports defineConfig from 'cypress', which only types the config.
      const cypress = join(project.dir, 'node_modules/cypress');
      await mkdir(cypress, { recursive: true });
      await writeFile(join(cypress, 'package.json'), JSON.stringify({ name: 'cypress', version: '0.0.0-stand-in', type: 'module', exports: './index.js' }));
      await writeFile(join(cypress, 'index.js'), 'export const defineConfig = (config) => config;\n');
      const ran = await run('npx', ['--no', 'vitest', 'run'], dir, nodeBin);
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toMatch(/Tests\s+3 passed/);
    },
    TIMEOUT,
  );
});
