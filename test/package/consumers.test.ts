/**
 * The package with each major of its optional peers, as consumers install it: one `npm pack`, then one
 * project per setup, installed from the registry beside the tarball, on a Node that the peers support.
 * npm must raise no peer or engine warning; the package's MSW handlers answer through the installed msw,
 * and a Pact consumer run writes a pact that petstore-verify replays with the installed Pact.
 * The newest majors run on Node 24, the newest LTS; the previous ones on Node 22.13, the oldest that `engines`
 * names (each fetched once by scripts/with-node.sh). Needs the dist/ that `npm test` builds, and the npm
 * registry (or npm's cache).
 */
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeBinOf, pack, type Run, root, run, TIMEOUT } from './projects.js';

const here = fileURLToPath(new URL('downstream/', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

interface Setup {
  readonly name: string;
  /** The Node that npm installs with and the scripts run on (a version for scripts/with-node.sh), whichever Node runs this suite. */
  readonly node: string;
  readonly peers: readonly string[];
  /** How this msw major names the option that makes a request no handler claims an error. */
  readonly unhandled: 'onUnhandledFrame' | 'onUnhandledRequest';
}

const SETUPS: readonly Setup[] = [
  { name: 'msw 3 and Pact 17 on Node 24', node: '24', peers: ['msw@3', '@pact-foundation/pact@17'], unhandled: 'onUnhandledFrame' },
  { name: 'msw 2 and Pact 16 on Node 22.13', node: '22.13.0', peers: ['msw@2', '@pact-foundation/pact@16'], unhandled: 'onUnhandledRequest' },
];

async function sizeOf(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

/**
 * The package and every package it depends on (not its peers), as installed: an engine warning about one of
 * them is the package's to fix, while a peer's own dependencies answer to that peer.
 */
async function ownPackages(project: string): Promise<Set<string>> {
  const own = new Set<string>();
  const queue = ['petstore-mock'];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (own.has(name)) continue;
    own.add(name);
    // npm hoists every dependency to the top: no two versions of one package are needed today.
    const manifest: Manifest = JSON.parse(await readFile(join(project, 'node_modules', name, 'package.json'), 'utf8').catch(() => '{}'));
    queue.push(...Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }));
  }
  return own;
}

/** The packages npm warned about an unsupported engine: the `package: 'name@version'` line of each warning. */
function engineWarned(warnings: readonly string[]): string[] {
  return warnings.flatMap((line) => /EBADENGINE\s+package: '(@?[^@']+)@/.exec(line)?.slice(1) ?? []);
}

interface Installed {
  readonly project: string;
  readonly nodeBin: string;
  readonly install: Run;
  readonly warnings: readonly string[];
}

async function install(setup: Setup, tarball: string): Promise<Installed> {
  const nodeBin = await nodeBinOf(setup.node);
  const project = await mkdtemp(join(tmpdir(), 'petstore-consumer-'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...setup.peers], project, nodeBin);
  const warnings = install.output.split('\n').filter((line) => /^npm warn/i.test(line));
  const bytes = install.code === 0 ? await sizeOf(join(project, 'node_modules')) : 0;
  const version = await run('node', ['--version'], project, nodeBin);
  // The figures the release notes quote: what each setup weighs and what npm said about it.
  console.info(
    `${setup.name} (${version.output.trim()}): node_modules ${(bytes / 1024 / 1024).toFixed(1)} MB, npm warnings: ${warnings.length ? `\n${warnings.join('\n')}` : 'none'}`,
  );
  return { project, nodeBin, install, warnings };
}

describe('the packed package with each major of msw and Pact', () => {
  let packDir: string;
  const installed = new Map<string, Promise<Installed>>();

  beforeAll(async () => {
    packDir = await mkdtemp(join(tmpdir(), 'petstore-consumers-'));
    const tarball = await pack(packDir);
    // The setups install side by side: most of the time goes to waiting on the registry.
    for (const setup of SETUPS) installed.set(setup.name, install(setup, tarball));
    await Promise.allSettled(installed.values());
  }, TIMEOUT);

  afterAll(async () => {
    const done = await Promise.allSettled(installed.values());
    const projects = done.flatMap((result) => (result.status === 'fulfilled' ? [result.value.project] : []));
    await Promise.all([packDir, ...projects].map((dir) => dir && rm(dir, { recursive: true, force: true })));
  });

  describe.each(SETUPS)('$name', (setup) => {
    const setupOf = () => installed.get(setup.name) ?? Promise.reject(new Error(`${setup.name} was not installed`));

    it('installs with no warning about peers, and none about the engines of the package or its dependencies', async () => {
      const { install, warnings, project } = await setupOf();
      expect(install.code, install.output).toBe(0);
      expect(warnings.filter((line) => /peer|ERESOLVE/i.test(line))).toEqual([]);
      const own = await ownPackages(project);
      expect(own.has('@faker-js/faker')).toBe(true);
      expect(engineWarned(warnings).filter((name) => own.has(name))).toEqual([]);
    });

    it(
      "type-checks and runs an MSW test with the package's handlers",
      async () => {
        const { project, nodeBin } = await setupOf();
        await copyFile(join(here, 'msw-handlers.mts'), join(project, 'msw-handlers.mts'));
        const entry = [
          "import { setupServer } from 'msw/node';",
          "import { checkHandlers } from './msw-handlers.mjs';",
          'const server = setupServer();',
          `server.listen({ ${setup.unhandled}: 'error' });`,
          'await checkHandlers(server);',
          "console.log('msw: the handlers responded');",
        ];
        await writeFile(join(project, 'msw.mts'), `${entry.join('\n')}\n`);
        const compilerOptions = { target: 'ES2022', module: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, skipLibCheck: true };
        await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['msw.mts'] }));
        const compiled = await run('node', [tsc, '-p', '.'], project, nodeBin);
        expect(compiled.code, compiled.output).toBe(0);
        const ran = await run('node', ['msw.mjs'], project, nodeBin);
        expect(ran.code, ran.output).toBe(0);
        expect(ran.output).toContain('msw: the handlers responded');
      },
      TIMEOUT,
    );

    it(
      'writes a pact with Pact and replays it with petstore-verify against petstore-mock',
      async () => {
        const { project, nodeBin } = await setupOf();
        await copyFile(join(here, 'pact-consumer.mjs'), join(project, 'pact-consumer.mjs'));
        await copyFile(join(here, 'installed-mock.mjs'), join(project, 'installed-mock.mjs'));
        const ran = await run('node', ['pact-consumer.mjs'], project, nodeBin);
        expect(ran.code, ran.output).toBe(0);
        expect(ran.output).toContain('pact: the consumer wrote a pact and petstore-verify replayed it');
      },
      TIMEOUT,
    );
  });
});
