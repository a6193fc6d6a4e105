/**
 * spec/openapi.yaml in the client generators other teams use, run unmodified with their default
 * settings: openapi-typescript (+ openapi-fetch), @hey-api/openapi-ts and orval each generate a
 * client into a new folder; a small program per client (test/tooling/generators/programs) type-checks under
 * strict settings and runs against the real mock. The project's own tsc skips the programs (tsconfig
 * `exclude`): their imports exist only once this test has generated the clients.
 */
import { cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { execFile } from '../support/children.js';
import { KEY } from '../support/http-facts.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const spec = join(root, 'spec/openapi.yaml');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const TIMEOUT = 120_000;

interface Run {
  readonly code: number | null;
  readonly output: string;
}

function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 60_000, env: { ...process.env, NO_COLOR: '1', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    );
  });
}

/** Each generator as its docs run it, writing into `dir`. */
const generators: Record<string, (dir: string) => Promise<Run>> = {
  'openapi-typescript': (dir) => run(bin('openapi-typescript'), [spec, '-o', join(dir, 'openapi-typescript/schema.d.ts')], dir),
  // `./`: a bare relative path would read as a Hey API registry shorthand (organization/project).
  'hey-api': (dir) => run(bin('openapi-ts'), ['-i', spec, '-o', './hey-api', '--no-log-file'], dir),
  orval: async (dir) => {
    const config = {
      petstore: {
        input: { target: spec },
        output: {
          target: './orval/client.ts',
          client: 'fetch',
          baseUrl: { getBaseUrlFromSpecification: true },
          override: { mutator: { path: './orval-fetch.ts', name: 'petstoreFetch' } },
        },
      },
    };
    await writeFile(join(dir, 'orval.config.cjs'), `module.exports = ${JSON.stringify(config)};\n`);
    return run(bin('orval'), ['--config', './orval.config.cjs'], dir);
  },
};

/** What a front-end project would type-check its code with. */
const STRICT = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  lib: ['ES2023', 'DOM'],
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  skipLibCheck: true,
};

describe('clients generated from spec/openapi.yaml', () => {
  let dir: string;
  let mock: MockServer;
  const generated: Record<string, Run> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-generators-'));
    await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await cp(join(root, 'test/tooling/generators/programs'), dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'generated-clients', private: true, type: 'module' }));
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: STRICT, include: ['*.ts'] }));
    for (const [name, generate] of Object.entries(generators)) generated[name] = await generate(dir);
    mock = await startMockServer({ port: 0 });
  }, TIMEOUT);

  afterAll(async () => {
    await mock?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(generators))('%s generates a client without an error', (name) => {
    expect(generated[name]?.code, generated[name]?.output).toBe(0);
  });

  it(
    'each program type-checks with its client under strict settings, creating a pet without a status included',
    async () => {
      const result = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], dir);
      expect(result.output).toBe('');
      expect(result.code).toBe(0);
    },
    TIMEOUT,
  );

  it.each(['openapi-fetch', 'hey-api', 'orval'])(
    '%s lists, filters, creates without a status, reads, and gets the 400, 401 and 404 Error bodies from the mock',
    async (program) => {
      const result = await run(process.execPath, ['--import', 'tsx', `${program}.ts`], dir, { PETSTORE_URL: mock.url, PETSTORE_API_KEY: KEY });
      expect(result.code, result.output).toBe(0);
      const outcome = JSON.parse(result.output) as { created: { id: number }; filtered: string[] };
      expect(outcome).toMatchObject({
        listed: 20,
        created: { name: 'Rex', categoryId: 3, status: 'available' },
        read: outcome.created,
        errors: [
          { code: 'bad_request', status: 400, message: expect.stringContaining('limit') },
          { code: 'unauthorized', status: 401 },
          { code: 'not_found', status: 404 },
        ],
      });
      expect(outcome.filtered.length).toBeGreaterThan(0);
      expect(new Set(outcome.filtered)).toEqual(new Set(['sold']));
    },
    TIMEOUT,
  );

  it("@hey-api/openapi-ts takes the spec's first server, the local mock, as its base URL", async () => {
    const result = await run(process.execPath, ['--import', 'tsx', 'hey-api.ts'], dir, { PETSTORE_URL: mock.url, PETSTORE_API_KEY: KEY });
    expect(JSON.parse(result.output)).toMatchObject({ defaultBaseUrl: 'http://127.0.0.1:4010/v1' });
  });
});
