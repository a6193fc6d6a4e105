/**
 * The published types as a TypeScript project gets them: the packed package installed into a new project
 * without its optional peers (ioredis, msw, Pact), with @types/node for the oldest Node that `engines`
 * names, and compiled strictly with `skipLibCheck: false`, so that every .d.ts an entry point reaches is
 * checked: a type import of a peer the project lacks fails there (TS2307). Only `petstore-mock/msw` may
 * need msw, the peer its users install. Every entry then compiles under each `moduleResolution` a project
 * may have (node10, node16, nodenext, bundler: `typesVersions` serves the subpaths to node10, which cannot
 * read `exports`), publint and @arethetypeswrong/cli judge the tarball, and the installed commands print
 * the version. Needs the dist/ that `npm test` builds, and the npm registry (or npm's cache).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from '../support/children.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const publint = join(root, 'node_modules/publint/src/cli.js');
const TIMEOUT = 240_000;

/**
 * attw's profile: `strict`, its default, checks every resolution: node10 (`moduleResolution: node`),
 * node16 from CommonJS and from ESM, and bundler.
 */
const ATTW_PROFILE = 'strict';
// The `attw` bin of the devDependency, run on this Node.
const attwPackage = createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json');
const attwBin = join(dirname(attwPackage), (JSON.parse(readFileSync(attwPackage, 'utf8')) as { bin: { attw: string } }).bin.attw);

/** How each `moduleResolution` is set up in a project: its `module`, and the extension of an ES module file there. */
const RESOLUTIONS = {
  node10: { module: 'CommonJS', moduleResolution: 'node10', file: 'ts' },
  node16: { module: 'Node16', moduleResolution: 'node16', file: 'mts' },
  nodenext: { module: 'NodeNext', moduleResolution: 'nodenext', file: 'mts' },
  bundler: { module: 'ESNext', moduleResolution: 'bundler', file: 'ts' },
} as const;

/** The @types/node of the oldest Node the package supports (`engines`: >=22.13). */
const NODE_TYPES = '@types/node@22';

interface Run {
  readonly code: number | null;
  readonly output: string;
}

// npm run test passes its own npm_* settings down, and a developer's shell may hold a key: the new project inherits neither.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && name !== 'PETSTORE_API_KEY' && name !== 'PETSTORE_BASE_URL'),
);

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  const options = { cwd, timeout: TIMEOUT, maxBuffer: 16 * 1024 * 1024, env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' } };
  return new Promise((resolve) => {
    execFile(command, args, options, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    );
  });
}

/** A file that imports every entry point with code, so that the compiler loads every declaration they reach. */
const CONSUMER = `import * as mock from 'petstore-mock';
import * as fixtures from 'petstore-mock/fixtures';
import * as client from 'petstore-mock/client';
import * as msw from 'petstore-mock/msw';
import * as testing from 'petstore-mock/testing';
import * as vite from 'petstore-mock/vite';

const options: mock.MockServerOptions = { port: 0, store: 'redis://127.0.0.1:6379', namespace: 'types' };
const pets: readonly mock.Pet[] = fixtures.seededPets(1, 3);
const entry: mock.JournalEntry | undefined = undefined;
export const entries = { mock, fixtures, client, msw, testing, vite, options, pets, entry };
`;

/** The entry points a page in a browser imports: no Node types, and msw only for `petstore-mock/msw`. */
const BROWSER = `import * as fixtures from 'petstore-mock/fixtures';
import * as client from 'petstore-mock/client';
import * as msw from 'petstore-mock/msw';
import * as testing from 'petstore-mock/testing';

export const entries = { fixtures, client, msw, testing, pet: fixtures.buildPet({ status: 'sold' }) };
`;

/** A compiler diagnostic: `file(line,col): error TSnnnn: message`, or a global one without a file. */
interface Diagnostic {
  readonly file: string;
  readonly code: string;
  readonly message: string;
}

function diagnostics(output: string): Diagnostic[] {
  return [...output.matchAll(/^(?:(.+?)\(\d+,\d+\): )?error (TS\d+): (.*)$/gm)].map(([, file = '', code = '', message = '']) => ({ file, code, message }));
}

/** The peer an entry point is for, where that entry imports it: msw for `/msw`, vite for `/vite`, whose users install it. */
const ENTRY_PEERS: Readonly<Record<string, string>> = { 'msw.d.ts': 'msw', 'vite.d.ts': 'vite' };

/** The absence of an entry point's own peer: the one error a project without that peer may see. */
function isMissingPeer({ file, code, message }: Diagnostic): boolean {
  const peer = ENTRY_PEERS[file.split('/').pop() ?? ''];
  return (
    peer !== undefined && file.includes('node_modules/petstore-mock/dist/mock/hosts/') && code === 'TS2307' && new RegExp(`'${peer}(/[^']*)?'`).test(message)
  );
}

/** Every diagnostic of a compilation but an entry's own peer's absence; a failed run that printed none is a crash, and counts. */
function unexpected(compiled: Run): (Diagnostic | string)[] {
  const found = diagnostics(compiled.output).filter((diagnostic) => !isMissingPeer(diagnostic));
  return compiled.code !== 0 && diagnostics(compiled.output).length === 0 ? [compiled.output] : found;
}

describe('the packed package, as a TypeScript project without the optional peers gets it', () => {
  let packDir: string;
  let project: string;
  let tarball: string;

  /** Compiles `source` as `<name>.mts` in the project, strictly, with skipLibCheck false and these options besides. */
  async function compile(
    name: string,
    source: string,
    options: { readonly lib: readonly string[]; readonly types: readonly string[]; readonly listFiles?: boolean },
    resolution: (typeof RESOLUTIONS)[keyof typeof RESOLUTIONS] = RESOLUTIONS.nodenext,
  ): Promise<Run> {
    const { file, ...modules } = resolution;
    await writeFile(join(project, `${name}.${file}`), source);
    const compilerOptions = {
      ...options,
      ...modules,
      target: 'ES2022',
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      noEmit: true,
    };
    await writeFile(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: [`${name}.${file}`] }));
    return run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], project);
  }

  beforeAll(async () => {
    if (!existsSync(join(root, 'dist/index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
    packDir = await mkdtemp(join(tmpdir(), 'petstore-types-'));
    // --ignore-scripts: dist/ is built already, and a rebuild would empty it under the suites running beside this one.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], root);
    expect(pack.code, pack.output).toBe(0);
    const [{ filename }] = JSON.parse(pack.output.slice(pack.output.indexOf('['))) as [{ filename: string }];
    tarball = join(packDir, filename);
    project = join(packDir, 'consumer');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'typed-consumer', private: true, type: 'module' }));
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, NODE_TYPES], project);
    expect(install.code, install.output).toBe(0);
  }, TIMEOUT);

  afterAll(async () => {
    if (packDir) await rm(packDir, { recursive: true, force: true });
  });

  it('installs none of ioredis, msw and Pact', () => {
    for (const peer of ['ioredis', 'msw', '@pact-foundation/pact']) expect(existsSync(join(project, 'node_modules', peer)), peer).toBe(false);
  });

  it(
    'compiles every entry point strictly with skipLibCheck false: no ioredis or Pact type is named, and only petstore-mock/msw needs msw',
    async () => {
      const compiled = await compile('consumer', CONSUMER, { lib: ['ES2023'], types: ['node'] });
      expect(compiled.output).not.toMatch(/ioredis|@pact-foundation/);
      expect(unexpected(compiled), compiled.output).toEqual([]);
    },
    TIMEOUT,
  );

  it.each(Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[])(
    'compiles every entry point with moduleResolution %s',
    async (mode) => {
      const compiled = await compile(`consumer-${mode}`, CONSUMER, { lib: ['ES2023'], types: ['node'], listFiles: true }, RESOLUTIONS[mode]);
      expect(unexpected(compiled), compiled.output).toEqual([]);
      // Each entry must be read from the package's declarations (listFiles), whichever file the resolution picks.
      for (const entry of ['index', 'fixtures/index', 'client/index', 'mock/hosts/msw', 'testing/index', 'mock/hosts/vite'])
        expect(compiled.output, `${mode}: ${entry}`).toMatch(new RegExp(`node_modules/petstore-mock/dist/(?:cjs/)?${entry}\\.d\\.c?ts`));
    },
    TIMEOUT,
  );

  it(
    'compiles the entry points a browser uses (fixtures, client, msw) without @types/node',
    async () => {
      // listFiles: a declaration that references the Node types (`/// <reference types="node" />`) would
      // bring in the project's @types/node and compile here, where a browser project has none.
      const compiled = await compile('browser', BROWSER, { lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: [], listFiles: true });
      expect(unexpected(compiled), compiled.output).toEqual([]);
      expect(compiled.output).toContain('node_modules/petstore-mock/dist/client/index.d.ts');
      expect(compiled.output).not.toMatch(/node_modules\/@types\/node\//);
    },
    TIMEOUT,
  );

  it(
    'passes publint',
    async () => {
      const linted = await run(process.execPath, [publint, tarball], project);
      expect(linted.code, linted.output).toBe(0);
      console.info(linted.output.trim());
    },
    TIMEOUT,
  );

  it(
    `passes @arethetypeswrong/cli --profile ${ATTW_PROFILE}`,
    async () => {
      // The spec is a YAML file for `import.meta.resolve` and a reader, not a module: no types can resolve to it.
      const options = ['--profile', ATTW_PROFILE, '--format', 'ascii', '--no-color', '--exclude-entrypoints', './spec/openapi.yaml'];
      const checked = await run(process.execPath, [attwBin, tarball, ...options], project);
      expect(checked.code, checked.output).toBe(0);
      // Each entry with code, under each resolution, node10 included: a green mark.
      for (const entry of ['petstore-mock', ...['msw', 'fixtures', 'client', 'testing', 'vite'].map((path) => `petstore-mock/${path}`)])
        for (const mode of ['node10', 'node16 \\(from CJS\\)', 'node16 \\(from ESM\\)', 'bundler'])
          expect(checked.output, `${entry} under ${mode}`).toMatch(new RegExp(`"${entry}"\\n\\n(?:.+\\n)*?${mode}: 🟢`));
    },
    TIMEOUT,
  );

  it('prints the package version from both installed commands', async () => {
    const { version }: { version: string } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    for (const command of ['petstore-mock', 'petstore-verify']) {
      const printed = await run(join(project, 'node_modules/.bin', command), ['--version'], project);
      expect(printed, command).toEqual({ code: 0, output: `${version}\n` });
    }
  });
});
