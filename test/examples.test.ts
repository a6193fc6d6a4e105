/**
 * The docs' snippets are the files under examples/, shown whole; this suite checks that README.md and
 * docs/*.md show each file exactly, that the commands they show use flags the CLIs have, and runs
 * the examples no other suite runs. examples/vitest, examples/fixtures, examples/sessions,
 * examples/big-ids, examples/client, examples/self-check and examples/pact are test files that
 * vitest runs itself; test/browser.test.ts runs examples/browser.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { describe, expect, it } from 'vitest';
import devServerConfig from '../examples/dev-server/vite.config.js';
import globalSetup from '../examples/global-setup/global-setup.js';
import { verifyCommand } from '../src/contracts/cli.js';
import { verify } from '../src/contracts/runner.js';
import { pets } from '../src/fixtures/index.js';
import { mockCommand } from '../src/mock/cli.js';
import { startMockServer } from '../src/mock/server.js';
import { AUTH, KEY } from './support/http-facts.js';

const root = new URL('../', import.meta.url);
const EXAMPLE = /<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)```/g;
const CODE_BLOCK = /```(\w*)\n([\s\S]*?)```/g;
const README_MAX_BYTES = 15 * 1024;

/** README.md and every page under docs/, by path. */
async function pages(): Promise<[string, string][]> {
  const docs = (await readdir(new URL('docs/', root))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  return Promise.all(['README.md', ...docs].map(async (path) => [path, await readFile(new URL(path, root), 'utf8')] as [string, string]));
}

/** The `--flags` a command line passes to petstore-mock or petstore-verify, by command. */
function flagsUsed(line: string): { command: 'petstore-mock' | 'petstore-verify'; flags: string[] } | undefined {
  const code = line
    .replace(/\s#.*$/, '')
    .replace(/npx --package petstore-mock /g, '')
    .replace(/npm start --/g, 'petstore-mock');
  const found = /(?:^|[\s=:])(petstore-mock|petstore-verify)(?=\s|$)(.*)$/.exec(code);
  if (!found) return undefined;
  return {
    command: found[1] as 'petstore-mock' | 'petstore-verify',
    flags: [...(found[2] ?? '').matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((m) => m[1] as string),
  };
}

const HELP = { 'petstore-mock': mockCommand().helpInformation(), 'petstore-verify': verifyCommand().helpInformation() };

describe('README.md and docs/', () => {
  it('show every example file exactly as it is, so that the snippets are the code the tests run', async () => {
    const shown = (await pages()).flatMap(([page, text]) =>
      [...text.matchAll(EXAMPLE)].map(([, path, code]) => [page, path as string, code as string] as const),
    );
    expect([...new Set(shown.map(([, path]) => path))].sort()).toEqual([
      'examples/big-ids/client.test.ts',
      'examples/browser/mocks.ts',
      'examples/client/client.test.ts',
      'examples/dev-server/vite.config.ts',
      'examples/fixtures/fixtures.test.ts',
      'examples/global-setup/global-setup.ts',
      'examples/pact/admin-ui.pact.test.ts',
      'examples/redis/docker-compose.yml',
      'examples/redis/nginx.conf',
      'examples/self-check/self-check.test.ts',
      'examples/sessions/workers.test.ts',
      'examples/vitest/pets.test.ts',
    ]);
    for (const [page, path, code] of shown)
      expect(code, `${page} shows ${path} differently: copy the file into it`).toBe(await readFile(new URL(path, root), 'utf8'));
  });

  it('show only commands whose flags the CLIs have', async () => {
    const lines = (await pages()).flatMap(([page, text]) =>
      [...text.matchAll(CODE_BLOCK)]
        .filter(([, lang]) => lang === 'sh' || lang === 'yaml')
        .flatMap(([, , code]) => (code as string).split('\n').map((line) => [page, line] as const)),
    );
    const commands = lines.flatMap(([page, line]) => {
      const used = flagsUsed(line);
      return used ? [{ page, line, ...used }] : [];
    });
    expect(commands.length).toBeGreaterThanOrEqual(8);
    for (const { page, line, command, flags } of commands)
      for (const flag of flags) expect(HELP[command], `${page}: \`${line.trim()}\` uses ${flag}, which ${command} --help does not list`).toContain(flag);
    expect(flagsUsed('npm start -- --port 5000')).toEqual({ command: 'petstore-mock', flags: ['--port'] });
  });

  it('never run a bare `npx petstore-verify`, which could fetch another package of that name and hand it the key', async () => {
    for (const [page, text] of await pages()) expect(text, page).not.toMatch(/npx (?:--yes |-y )?petstore-(?:verify|mock)\b/);
  });
});

describe('README.md', () => {
  it(`stays under ${README_MAX_BYTES / 1024} KB: details belong in docs/`, async () => {
    const bytes = (await readFile(new URL('README.md', root))).byteLength;
    expect(bytes, 'README.md grew past 15 KB: move the detail to a page under docs/').toBeLessThan(README_MAX_BYTES);
  });

  it('says first what the package is, then how to install it and how contributors start and test', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8');
    const opening = readme.slice(0, readme.indexOf('## Install'));
    for (const part of ['mock server', 'MSW handlers', 'fixtures', 'verifier', 'client']) expect(opening).toContain(part);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    expect(readme).toContain('npm start -- --port 5000');
  });

  it('links each of the five jobs to its page under docs/, and every docs page it links exists', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8');
    for (const page of ['docs/mock.md', 'docs/msw.md', 'docs/fixtures.md', 'docs/verifier.md', 'docs/pact.md']) expect(readme).toContain(`](${page})`);
    const present = new Set(await readdir(new URL('docs/', root)));
    const owned = ['mock.md', 'msw.md', 'fixtures.md', 'verifier.md', 'pact.md', 'guarantees.md', 'performance.md', 'development.md', 'README.md'];
    for (const page of owned) expect(present, `docs/${page}`).toContain(page);
  });
});

describe('examples', () => {
  it('dev-server: vite serves the app and proxies /v1 and /__mock to the mock, which stops with the dev server', async () => {
    const server = await createServer({
      ...devServerConfig,
      configFile: false,
      root: fileURLToPath(new URL('examples/dev-server/', root)),
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, watch: null },
    });
    await server.listen();
    const address = server.httpServer?.address() as AddressInfo | undefined;
    const response = await fetch(`http://127.0.0.1:${address?.port}/v1/pets`, { headers: AUTH });
    expect(await response.json()).toEqual(pets.slice(0, 20));
    const health = await fetch(`http://127.0.0.1:${address?.port}/__mock/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', pets: 50 });
    const mockOrigin = server.config.server.proxy?.['/v1'] as string;
    await server.close();
    await expect(fetch(`${mockOrigin}/v1/pets`, { headers: AUTH })).rejects.toThrow();
  });

  it('global-setup: starts the mock for the run, publishes its URL, and stops it on teardown', async () => {
    const before = process.env.PETSTORE_URL;
    const teardown = await globalSetup();
    const url = process.env.PETSTORE_URL as string;
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(await (await fetch(`${url}/pets`, { headers: AUTH })).json()).toEqual(pets.slice(0, 20));
    } finally {
      await teardown();
      if (before === undefined) delete process.env.PETSTORE_URL;
      else process.env.PETSTORE_URL = before;
    }
    await expect(fetch(`${url}/pets`, { headers: AUTH })).rejects.toThrow();
  });

  it('pact: the template writes a pact that petstore-verify replays against the mock, every interaction passing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-pact-template-'));
    const mock = await startMockServer({ port: 0 });
    try {
      const vitest = fileURLToPath(new URL('node_modules/vitest/vitest.mjs', root));
      const ran = await new Promise<string | undefined>((resolve) =>
        execFile(
          process.execPath,
          [vitest, 'run', 'examples/pact/admin-ui.pact.test.ts'],
          { cwd: fileURLToPath(root), timeout: 90_000, env: { ...process.env, PACT_DIR: dir } },
          (error, stdout, stderr) => resolve(error ? stdout + stderr : undefined),
        ),
      );
      expect(ran).toBeUndefined();
      const report = await verify({ baseUrl: mock.url, apiKey: KEY, suite: 'pact', pacts: [join(dir, 'admin-ui-petstore-api.json')] });
      const template = report.results.filter((result) => result.id.startsWith('pact.admin-ui.'));
      expect(template.map((result) => [result.id, result.outcome])).toEqual([
        ['pact.admin-ui.admin-ui-lists-pets', 'pass'],
        ['pact.admin-ui.admin-ui-reads-one-pet', 'pass'],
      ]);
      expect(report.exitCode).toBe(0);
    } finally {
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
