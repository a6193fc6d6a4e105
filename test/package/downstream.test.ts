/**
 * The package as a downstream project gets it: packed, installed from the tarball into a new
 * project, and imported from plain Node ESM through its exports map, types included.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from '../support/children.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('downstream/', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const INSTALL = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
const TIMEOUT = 180_000;

// npm run test passes its own npm_* settings down, and vitest its own VITEST* ones; the new project must not inherit them.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && !name.startsWith('VITEST')));

async function run(command: string, args: readonly string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

interface Packed {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

/** The files a published package may hold: the exports' targets and the data beside them. */
const PUBLISHED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
  /^docs\/[\w.-]+\.md$/, // the docs pages README links to
  /^docs\/[\w.-]+\.png$/, // the pictures they show (the inspector)
  /^examples\/pact\/[\w.-]+\.ts$/,
  /^bin\/[\w-]+\.js$/,
  /^dist\/[\w/-]+\.(?:c?js|d\.c?ts)$/, // .cjs and .d.cts: the CommonJS build under dist/cjs/
  /^fixtures\/[\w-]+\.json$/,
  /^schemas\/[\w.-]+\.json$/,
  /^spec\/openapi\.yaml$/,
  /^spec\/pacts\/[\w-]+\.json$/,
];

/** The files an exports map points at, through every condition. */
function targetsOf(value: unknown): string[] {
  return typeof value === 'string' ? [value] : Object.values(value as Record<string, unknown>).flatMap(targetsOf);
}

describe('the packed package, installed in a new project', () => {
  let project: string;
  let packed: Packed;
  let tarball: string;

  beforeAll(async () => {
    await readFile(join(root, 'dist/index.js')).catch(() => {
      throw new Error('dist/ is missing: run `npm run build` (npm test does) before this suite.');
    });
    project = await mkdtemp(join(tmpdir(), 'petstore-downstream-'));
    // --ignore-scripts: npm test has just built dist/, and a rebuild would empty it under the suites running beside this one.
    [packed] = JSON.parse(await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], root)) as [Packed];
    tarball = join(project, packed.filename);
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'downstream', private: true, type: 'module' }, null, 2)}\n`);
  }, TIMEOUT);

  afterAll(() => rm(project, { recursive: true, force: true }));

  it('holds what its exports and bin need, and nothing else: no sources, tests or source maps', async () => {
    const paths = packed.files.map((file) => file.path);
    // The Pact consumer template is a test by design: teams copy it into their suites.
    const template = (path: string) => path.startsWith('examples/pact/');
    expect(paths.filter((path) => !PUBLISHED.some((pattern) => pattern.test(path)) || (/\.test\./.test(path) && !template(path)))).toEqual([]);
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    // Nothing runs when a consumer installs it, from a tarball, a registry or git: `prepack` builds before `npm pack` only.
    expect(Object.keys(manifest.scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([]);
    const targets = [...targetsOf(manifest.exports), ...Object.values(manifest.bin)].map((target) => target.replace(/^\.\//, ''));
    expect(targets).toContain('dist/mock/hosts/msw.d.ts');
    for (const target of targets) {
      // A subpath pattern (`./fixtures/*.json`) must match at least one packed file.
      const pattern = new RegExp(`^${target.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('*', '[^/]+')}$`);
      expect(
        paths.some((path) => pattern.test(path)),
        target,
      ).toBe(true);
    }
    expect(paths).toEqual(
      expect.arrayContaining([
        'fixtures/pets.json',
        'fixtures/new-pets.json',
        'fixtures/errors.json',
        'spec/openapi.yaml',
        'schemas/profile.schema.json',
        'spec/pacts/petstore-web-petstore-api.json',
        'examples/pact/admin-ui.pact.test.ts',
        'LICENSE',
      ]),
    );
  });

  it('passes publint, strict', async () => {
    const { messages } = await publint({ pack: { tarball: (await readFile(tarball)).buffer as ArrayBuffer }, strict: true });
    expect(messages).toEqual([]);
  });

  it(
    'imports petstore-mock and petstore-mock/fixtures, and answers through them, without msw installed',
    async () => {
      await run('npm', ['install', tarball, ...INSTALL], project);
      await expect(readFile(join(project, 'node_modules/msw/package.json'))).rejects.toThrow();
      await copyFile(join(here, 'without-msw.mjs'), join(project, 'without-msw.mjs'));
      expect(await run(process.execPath, ['without-msw.mjs'], project)).toMatch(/answered/);
    },
    TIMEOUT,
  );

  it(
    'type-checks and runs the three entry points with msw 3 installed: the README imports, one request through each',
    async () => {
      await run('npm', ['install', 'msw@3', ...INSTALL], project);
      await copyFile(join(here, 'consumer.mts'), join(project, 'consumer.mts'));
      const compilerOptions = { target: 'ES2022', module: 'NodeNext', lib: ['ES2023', 'DOM'], types: [], strict: true, skipLibCheck: true };
      await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.mts'] }));
      await run(process.execPath, [tsc, '-p', '.'], project);
      expect(await run(process.execPath, ['consumer.mjs'], project)).toMatch(/all three entry points answered/);
    },
    TIMEOUT,
  );

  it(
    "runs the README's MSW snippet in vitest as pasted with msw 3, and in its msw 2 form (the comment's call) with msw 2",
    async () => {
      const readme = await readFile(join(root, 'README.md'), 'utf8');
      const snippet = /<!-- example: examples\/vitest\/pets\.test\.ts -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
      if (snippet === undefined) throw new Error('README.md shows no examples/vitest/pets.test.ts');
      // The msw 2 form: each call written for msw 3 replaced by the one its `// msw 2:` comment names.
      const forMsw2 = snippet.replace(/\w+(?:\.\w+)*\(\{[^{}]*\}\)(?=.*\/\/ msw 2: (\w+(?:\.\w+)*\(\{[^{}]*\}\)))/g, (_, call: string) => call);
      expect(forMsw2).toContain("server.listen({ onUnhandledRequest: 'error' })");
      await run('npm', ['install', 'vitest@5', ...INSTALL], project);
      const vitest = async (file: string, code: string) => {
        await writeFile(join(project, file), code);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours a terminal would show.
        return (await run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', file], project)).replace(/\x1b\[[\d;]*m/g, '');
      };
      expect(await vitest('pets.test.ts', snippet)).toMatch(/Tests\s+4 passed \(4\)/);
      await run('npm', ['install', 'msw@2', ...INSTALL], project);
      expect(await vitest('pets-msw2.test.ts', forMsw2)).toMatch(/Tests\s+4 passed \(4\)/);
    },
    TIMEOUT,
  );

  it(
    'runs petstore-verify (spec and Pact suites, with the optional Pact peer installed) from the package against petstore-mock from the package, and the typed client',
    async () => {
      await run('npm', ['install', '@pact-foundation/pact@16', ...INSTALL], project);
      await copyFile(join(here, 'bins-and-client.mjs'), join(project, 'bins-and-client.mjs'));
      await copyFile(join(here, 'installed-mock.mjs'), join(project, 'installed-mock.mjs'));
      expect(await run(process.execPath, ['bins-and-client.mjs'], project)).toMatch(/the commands and the client verified/);
    },
    TIMEOUT,
  );
});
