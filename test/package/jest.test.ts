/**
 * The package in a CommonJS project: `npm pack`, then a project with no `type` and no configuration
 * at all (no jest key, no babel config, no transformIgnorePatterns) that installs the tarball, Jest 30
 * and msw 2 from the registry. Its Jest tests and a plain `node` script require() the five entries and
 * use each (downstream/commonjs-checks.cjs); Jest also runs the example of docs/mock-in-code.md; and
 * TypeScript in that project takes the entries' types from the CommonJS declarations. Everything passes
 * on Node 22.13, the oldest that `engines` names, and on Node 24 (each fetched once by
 * scripts/with-node.sh), but for one limit of Jest: in its CommonJS mode it cannot load msw at all (msw
 * imports an ES module) unless it runs on Node 24.9 or later with --experimental-vm-modules, and
 * petstore-mock/msw then fails with an error that says so. Needs the dist/ that `npm test` builds, and
 * the npm registry (or npm's cache).
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeBinOf, pack, type Run, root, run as runIn, TIMEOUT } from './projects.js';

const checks = fileURLToPath(new URL('downstream/commonjs-checks.cjs', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
/** The Node that installs the project, then the ones Jest and the script run on. */
const NODES = ['22.13.0', '24'] as const;

/** Runs as in projects.ts, with CI=true (Jest neither watches nor asks) and without the suite's own NODE_OPTIONS. */
function run(command: string, args: readonly string[], cwd: string, nodeBin: string, extra: Record<string, string> = {}): Promise<Run> {
  return runIn(command, args, cwd, nodeBin, { CI: 'true', NODE_OPTIONS: '', ...extra });
}

// The Jest test of the project: the checks, one test each, in Jest's default CommonJS mode.
const JEST_TEST = `const { checks } = require('./commonjs-checks.cjs');

for (const [name, check] of Object.entries(checks)) test(name, check);
`;

// TypeScript in a CommonJS project: each import compiles to a require(), so the types come from the
// \`require\` condition of each entry.
const TYPED = `import { type MockServer, startMockServer } from 'petstore-mock';
import { createClient, type Pet } from 'petstore-mock/client';
import { buildNewPet, pets } from 'petstore-mock/fixtures';
import { createHandlers, type MockHandlers } from 'petstore-mock/msw';
import { expectRequests, type JournalEntry } from 'petstore-mock/testing';

export async function typed(): Promise<Pet[]> {
  const server: MockServer = await startMockServer({ port: 0 });
  const handlers: MockHandlers = createHandlers({ baseUrl: server.url });
  handlers.reset();
  const client = createClient({ baseUrl: server.url, apiKey: 'petstore-dev-key' });
  await client.createPet(buildNewPet({ name: 'Rex' }));
  // @ts-expect-error the status is one of the spec's
  await client.listPets({ status: 'lost' });
  const sent: readonly JournalEntry[] = await expectRequests(server).toInclude({ method: 'POST', body: { name: 'Rex' } }).times(1);
  await server.close();
  return sent.length > 0 ? [...pets] : [];
}
`;

// A test that forgets to await an expectation the mock does not meet; named outside Jest's default
// testMatch, so that only the test below runs it.
const FORGOTTEN = `const { createMockApi } = require('petstore-mock');
const { expectRequests } = require('petstore-mock/testing');

test('forgets to await an expectation', () => {
  expectRequests(createMockApi()).toInclude({ method: 'POST', path: '/v1/pets' });
});

test('runs after it', () => new Promise((resolve) => setTimeout(resolve, 50)));
`;

describe('the packed package in a CommonJS project with Jest 30 and no configuration', () => {
  let workDir: string;
  let project: string;
  const nodeBins = new Map<string, string>();

  beforeAll(async () => {
    await readFile(join(root, 'dist/cjs/index.cjs')).catch(() => {
      throw new Error('dist/cjs/ is missing: run `npm run build` (npm test does) before this suite.');
    });
    workDir = await mkdtemp(join(tmpdir(), 'petstore-jest-'));
    project = join(workDir, 'project');
    const [tarball] = await Promise.all([pack(workDir), ...NODES.map(async (version) => nodeBins.set(version, await nodeBinOf(version)))]);
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'commonjs-consumer', private: true }));
    const nodeBin = nodeBins.get(NODES[0]) ?? '';
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'jest@30', 'msw@2'], project, nodeBin);
    expect(install.code, install.output).toBe(0);
    await copyFile(checks, join(project, 'commonjs-checks.cjs'));
    await writeFile(join(project, 'petstore.test.js'), JEST_TEST);
    await writeFile(join(project, 'typed.ts'), TYPED);
    await writeFile(join(project, 'forgotten-await.check.js'), FORGOTTEN);
    // The page's example runs as one more test file, so that it stays true.
    const page = await readFile(join(root, 'docs/mock-in-code.md'), 'utf8');
    const example = /```js\n(\/\/ pets\.test\.js[\s\S]*?)```/.exec(page)?.[1];
    if (example === undefined) throw new Error('docs/mock-in-code.md has no `// pets.test.js` example under "CommonJS and Jest"');
    await writeFile(join(project, 'pets.test.js'), example);
  }, TIMEOUT);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it.each(NODES)(
    '`npx jest` with no flags passes the tests of petstore-mock, /fixtures, /client, /testing and the docs example; /msw fails saying why (Node %s)',
    async (version) => {
      const jest = await run('npx', ['jest'], project, nodeBins.get(version) ?? '');
      expect(jest.output).toMatch(/Tests:\s+1 failed, 5 passed, 6 total/);
      // msw itself (2.12 and later) imports the ES module rettime, which Jest's CommonJS mode cannot require.
      expect(jest.output).toContain('● petstore-mock/msw: the handlers respond');
      expect(jest.output).toContain("petstore-mock/msw: require('msw') failed: msw is, or imports, ES modules");
      expect(jest.output).toContain('NODE_OPTIONS=--experimental-vm-modules');
    },
    TIMEOUT,
  );

  it(
    '`npx jest` under NODE_OPTIONS=--experimental-vm-modules on Node 24 passes the tests of all five entries and the docs example',
    async () => {
      const jest = await run('npx', ['jest'], project, nodeBins.get('24') ?? '', { NODE_OPTIONS: '--experimental-vm-modules' });
      expect(jest.code, jest.output).toBe(0);
      expect(jest.output).toMatch(/Tests:\s+6 passed, 6 total/);
    },
    TIMEOUT,
  );

  it(
    'fails a test that forgets to await an expectation of petstore-mock/testing, naming what the mock did not receive',
    async () => {
      const jest = await run('npx', ['jest', '--testMatch', '**/forgotten-await.check.js'], project, nodeBins.get('24') ?? '');
      expect(jest.code, jest.output).toBe(1);
      expect(jest.output).toMatch(/✕ forgets to await an expectation/);
      expect(jest.output).toContain('expected the mock to have received at least 1 request like POST /v1/pets, but it received 0');
    },
    TIMEOUT,
  );

  it.each(NODES)(
    '`node commonjs-checks.cjs` requires and uses the five entries (Node %s)',
    async (version) => {
      const script = await run('node', ['commonjs-checks.cjs'], project, nodeBins.get(version) ?? '');
      expect(script.code, script.output).toBe(0);
      expect(script.output.match(/^ok: /gm)).toHaveLength(5);
    },
    TIMEOUT,
  );

  it(
    'type-checks a CommonJS TypeScript file against the CommonJS declarations',
    async () => {
      const compilerOptions = { target: 'ES2022', module: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: true };
      await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['typed.ts'] }));
      const checked = await run('node', [tsc, '-p', '.', '--listFiles'], project, nodeBins.get(NODES[0]) ?? '');
      expect(checked.code, checked.output).toBe(0);
      const ours = checked.output.split('\n').filter((line) => line.includes('node_modules/petstore-mock/'));
      expect(ours.filter((file) => file.endsWith('.d.ts')).map((file) => file.slice(file.indexOf('petstore-mock/')))).toEqual([]);
      for (const entry of ['index', 'client/index', 'fixtures/index', 'mock/hosts/msw', 'testing/index']) {
        expect(ours.some((file) => file.endsWith(`petstore-mock/dist/cjs/${entry}.d.cts`))).toBe(true);
      }
    },
    TIMEOUT,
  );
});
