/**
 * The package as a front-end project gets it: `npm pack`, then `npm install --omit=dev` of the
 * tarball into an empty project. Without the optional peers (Pact, MSW) it must stay light and free
 * of native binaries, and still verify a deployment with the spec suite. Needs the dist/ that
 * `npm test` builds, and the npm registry (or npm's cache) for the runtime dependencies.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { execFile } from '../support/children.js';
import { KEY } from '../support/http-facts.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MAX_BYTES = 10 * 1024 * 1024;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// npm run test passes its own npm_* settings down, and a developer's shell may hold a key: the new project inherits neither.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && name !== 'PETSTORE_API_KEY' && name !== 'PETSTORE_BASE_URL'),
);

function run(command: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: timeoutMs, env: { ...env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** Every file under `dir`, with its size. */
async function files(dir: string): Promise<{ path: string; bytes: number }[]> {
  const found: { path: string; bytes: number }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found.push({ path, bytes: (await stat(path)).size });
  }
  return found;
}

describe('the packed package, installed without dev dependencies', () => {
  let project: string;
  let installed: { path: string; bytes: number }[];
  let install: Run;
  let mock: MockServer;
  const bin = (name: string) => join(project, 'node_modules', '.bin', name);

  beforeAll(async () => {
    if (!existsSync(join(root, 'dist/contracts/verify-cli.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
    project = await mkdtemp(join(tmpdir(), 'petstore-install-'));
    // dist/ is built already; --ignore-scripts keeps `prepare` from building it a second time.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], root, 60_000);
    expect(pack.code, pack.stderr).toBe(0);
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'front-end-app', private: true, type: 'module' }));
    install = await run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', `./${filename}`], project, 180_000);
    expect(install.code, install.stderr).toBe(0);
    installed = await files(join(project, 'node_modules'));
    const bytes = (list: readonly { bytes: number }[]) => list.reduce((sum, file) => sum + file.bytes, 0);
    const own = installed.filter(({ path }) => path.includes(`node_modules${sep}petstore-mock${sep}`));
    console.info(`installed: node_modules ${(bytes(installed) / 1e6).toFixed(2)} MB, of which petstore-mock ${(bytes(own) / 1e6).toFixed(2)} MB`);
    mock = await startMockServer({ port: 0 });
  }, 240_000);

  afterAll(async () => {
    await mock?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('installs without a word about install scripts: the package runs none in a consumer (npm 11 lists any it was not told to allow)', () => {
    expect(install.stdout + install.stderr).not.toMatch(/install-scripts|allowScripts|prepare/);
  });

  it('brings no native binary: no .node addon, no Pact core', () => {
    const native = installed.filter(({ path }) => path.endsWith('.node') || /@pact-foundation|pact_ffi|libpact/.test(path));
    expect(native.map(({ path }) => path)).toEqual([]);
  });

  it('stays under 10 MB', () => {
    const bytes = installed.reduce((sum, file) => sum + file.bytes, 0);
    expect(bytes, `node_modules holds ${(bytes / 1024 / 1024).toFixed(1)} MB`).toBeLessThan(MAX_BYTES);
  });

  it('verifies a deployment with `petstore-verify --suite spec`', async () => {
    const result = await run(bin('petstore-verify'), ['--suite', 'spec', '--base-url', mock.url, '--api-key', KEY], project, 60_000);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('The deployment keeps the contract.');
  });

  it('runs the spec suite by default, saying in one line on stderr that Pact is not installed', async () => {
    const result = await run(bin('petstore-verify'), ['--base-url', mock.url, '--api-key', KEY], project, 60_000);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('The deployment keeps the contract.');
    expect(result.stderr).toMatch(/^petstore-verify: @pact-foundation\/pact is not installed, so only --suite spec runs;.*\n$/);
    expect(result.stderr.split('\n')).toHaveLength(2);
    const help = await run(bin('petstore-verify'), ['--help'], project, 30_000);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('default: all when @pact-foundation/pact is installed, spec otherwise');
  });

  it('resolves the spec, the bundled pacts and the fixtures through the package exports', async () => {
    const script = `for (const s of ['petstore-mock/spec/openapi.yaml', 'petstore-mock/fixtures/pets.json', 'petstore-mock/fixtures/new-pets.json', 'petstore-mock/fixtures/errors.json']) console.log(import.meta.resolve(s));`;
    const result = await run(process.execPath, ['--input-type=module', '-e', script], project, 30_000);
    expect(result.code, result.stderr).toBe(0);
    const paths = result.stdout
      .trim()
      .split('\n')
      .map((url) => fileURLToPath(url));
    expect(paths).toHaveLength(4);
    for (const path of paths) expect(existsSync(path), path).toBe(true);
    const pacts = installed.filter(({ path }) => /spec[\\/]pacts[\\/][^\\/]+\.json$/.test(path)).map(({ path }) => path.split(/[\\/]/).pop());
    expect(pacts).not.toEqual([]);
    for (const pact of pacts) {
      const resolved = await run(
        process.execPath,
        ['--input-type=module', '-e', `console.log(import.meta.resolve('petstore-mock/spec/pacts/${pact}'))`],
        project,
        30_000,
      );
      expect(resolved.code, resolved.stderr).toBe(0);
      expect(existsSync(fileURLToPath(resolved.stdout.trim()))).toBe(true);
    }
  });

  it.each([['pact'], ['all']])('answers --suite %s with the one-line hint to install Pact, exit 2', async (suite) => {
    const result = await run(bin('petstore-verify'), ['--suite', suite, '--base-url', mock.url, '--api-key', KEY], project, 60_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^petstore-verify: .*npm install --save-dev @pact-foundation\/pact.*\n$/);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr).not.toContain(KEY);
  });

  it.each([[['--suite', 'fuzz']], [['--suite', 'spec', '--fuzz-runs', '5']]])(
    'answers %j with the one-line hint to install fast-check, exit 2',
    async (args) => {
      const result = await run(bin('petstore-verify'), [...args, '--base-url', mock.url, '--api-key', KEY], project, 60_000);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        'petstore-verify: the fuzz suite (--suite fuzz, --fuzz-runs) needs fast-check: run `npm install --save-dev fast-check`, or verify without it.\n',
      );
    },
  );

  it('runs `petstore-mock`', async () => {
    const result = await run(bin('petstore-mock'), ['--help'], project, 30_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('--port');
  });
});
