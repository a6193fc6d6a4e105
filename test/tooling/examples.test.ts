/**
 * The docs' snippets are the files under examples/, shown whole; this suite checks that README.md and
 * docs/*.md show each file exactly, that the commands they show use flags the CLIs have, and runs
 * the examples no other suite runs. examples/vitest, examples/fixtures, examples/sessions,
 * examples/big-ids, examples/client, examples/self-check and examples/pact are test files that
 * vitest runs itself; test/mock/browser.test.ts runs examples/browser.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, resolveConfig } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import devServerConfig, { petstoreMock } from '../../examples/dev-server/vite.config.js';
import globalSetup from '../../examples/global-setup/global-setup.js';
import type { VerificationReport } from '../../src/contracts/runner.js';
import { verifyCommand } from '../../src/contracts/verify-cli.js';
import { pets } from '../../src/fixtures/index.js';
import { mockCommand } from '../../src/mock/hosts/mock-cli.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { execFile } from '../support/children.js';
import { AUTH, KEY } from '../support/http-facts.js';

const root = new URL('../../', import.meta.url);
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
    .replace(/node bin\/(petstore-mock|petstore-verify)\.js/g, '$1')
    .replace(/npm start --/g, 'petstore-mock');
  const found = /(?:^|[\s=:])(petstore-mock|petstore-verify)(?=\s|$)(.*)$/.exec(code);
  if (!found) return undefined;
  return {
    command: found[1] as 'petstore-mock' | 'petstore-verify',
    flags: [...(found[2] ?? '').matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((m) => m[1] as string),
  };
}

/** This process's environment without a key or base URL, so a command shows it gives its own. */
function withoutVerifierSettings(): NodeJS.ProcessEnv {
  const { PETSTORE_API_KEY: _key, PETSTORE_BASE_URL: _url, ...env } = process.env;
  return env;
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
      'examples/ci/petstore-verify.yml',
      'examples/client/client.test.ts',
      'examples/dev-server/vite.config.ts',
      'examples/fixtures/fixtures.test.ts',
      'examples/global-setup/global-setup.ts',
      'examples/journal/journal.test.ts',
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

  it('show petstore-verify commands that run as pasted: through npx --package or bin/ in this repository, with a base URL and a key', async () => {
    const blocks = (await pages()).flatMap(([page, text]) =>
      [...text.matchAll(CODE_BLOCK)].filter(([, lang]) => lang === 'sh' || lang === 'yaml').map(([, , code]) => [page, code as string] as const),
    );
    let checked = 0;
    for (const [page, block] of blocks)
      for (const line of block.split('\n')) {
        if (/^\s*#/.test(line) || flagsUsed(line)?.command !== 'petstore-verify') continue;
        checked += 1;
        const where = `${page}: \`${line.trim()}\``;
        // A shell finds a devDependency's bin only through npx or an npm script; in this repository, through bin/.
        expect(line, `${where} runs a bare petstore-verify, which a shell does not find`).toMatch(
          /npx --package petstore-mock petstore-verify|node bin\/petstore-verify\.js/,
        );
        const { flags } = flagsUsed(line) as { flags: string[] };
        const given = (flag: string, short: string, env: string) =>
          flags.includes(flag) ||
          new RegExp(`(?:^|\\s)${short}\\s`).test(line) ||
          new RegExp(`\\b${env}[=:]`).test(line) ||
          new RegExp(`^\\s*${env}:`, 'm').test(block);
        expect(given('--base-url', '-u', 'PETSTORE_BASE_URL'), `${where} gives no --base-url (nor PETSTORE_BASE_URL)`).toBe(true);
        expect(given('--api-key', '-k', 'PETSTORE_API_KEY'), `${where} gives no --api-key (nor PETSTORE_API_KEY)`).toBe(true);
      }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('link only to files that exist (relative links), apart from the pages other branches are writing', async () => {
    const broken: string[] = [];
    for (const [page, text] of await pages()) {
      const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, (code) => (code.includes('](') ? '' : code));
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const path = (target as string).replace(/#.*$/, '');
        if (path === '' || /^[a-z][a-z+.-]*:/i.test(path)) continue; // an anchor on the page, or a URL
        const file = new URL(path, new URL(page, root));
        const relative = fileURLToPath(file).slice(fileURLToPath(root).length);
        if (!existsSync(file)) broken.push(`${page} links (${target}), and ${relative} does not exist`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('never run a bare `npx petstore-verify`, which could fetch another package of that name and hand it the key', async () => {
    for (const [page, text] of await pages()) expect(text, page).not.toMatch(/npx (?:--yes |-y )?petstore-(?:verify|mock)\b/);
  });
});

/**
 * The assertions of `expectRequests` a snippet makes without `await` (or `return`) before it in its
 * statement: one copied so into a test would still fail it (the check is eager), but only through an
 * unhandled rejection, after the test has moved on. A mention without `.toInclude(` names the function.
 */
function unawaitedExpectations(code: string): string[] {
  return [...code.matchAll(/expectRequests\(/g)].flatMap(({ index }) => {
    const before = code.slice(0, index);
    const start = Math.max(before.lastIndexOf(';'), before.lastIndexOf('{\n'), before.lastIndexOf('}\n'), before.lastIndexOf('`')) + 1;
    const end = code.slice(index).search(/;|`|$/);
    const statement = code.slice(start, index + end).trim();
    return statement.includes('.toInclude(') && !/\b(?:await|return)\b/.test(code.slice(start, index)) ? [statement] : [];
  });
}

describe('the snippets of README.md, docs/ and examples/', () => {
  it('await every expectRequests assertion', async () => {
    const examples = (await readdir(new URL('examples/', root), { recursive: true }))
      .filter((name) => /\.(?:[cm]?[jt]s)$/.test(name) && !name.includes('node_modules'))
      .map(async (name) => [`examples/${name}`, await readFile(new URL(`examples/${name}`, root), 'utf8')] as const);
    const snippets = (await pages()).flatMap(([page, text]) => [
      ...[...text.matchAll(CODE_BLOCK)].map(([, , code]) => [page, code as string] as const),
      ...[...text.replace(CODE_BLOCK, '').matchAll(/`[^`\n]+`/g)].map(([span]) => [page, span] as const),
    ]);
    const found = [...snippets, ...(await Promise.all(examples))].flatMap(([where, code]) =>
      unawaitedExpectations(code).map((statement) => `${where}: ${statement}`),
    );
    expect(found).toEqual([]);
    expect(snippets.filter(([, code]) => code.includes('expectRequests(')).length, 'the pages show expectRequests').toBeGreaterThan(2);
    // The check finds what it must: a bare statement, a code span, and not an awaited or named one.
    expect(unawaitedExpectations("it('x', () => {\n  expectRequests(api).toInclude({ method: 'POST' });\n});")).toHaveLength(1);
    expect(unawaitedExpectations("`expectRequests(mock).toInclude({ path: '/v1/pets' })`")).toHaveLength(1);
    expect(unawaitedExpectations('await expect(\n  expectRequests(api).toInclude({}).times(1),\n).rejects.toThrow();')).toEqual([]);
    expect(unawaitedExpectations('`expectRequests(source, options?)`')).toEqual([]);
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

  it('shows the five jobs on its first screen: the table right under the opening list, which names adding a consumer pact', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8');
    const lines = readme.split('\n');
    const lastItem = lines.findLastIndex((line, i) => line.startsWith('- ') && i < lines.indexOf('| job | start here | details |'));
    expect(lines.slice(0, lastItem + 1).join('\n')).toContain('add a consumer pact');
    expect(lines[lastItem + 1]).toBe('');
    expect(lines[lastItem + 2]).toBe('| job | start here | details |');
    const jobs = lines.slice(lastItem + 4, lastItem + 9);
    expect(jobs.map((line) => /^\| ([^|]+?) \|/.exec(line)?.[1])).toEqual([
      'run the mock for your app',
      'answer requests in your tests with MSW',
      "use the mock's data in any suite",
      'verify a deployment in CI',
      'add a consumer pact',
    ]);
    expect(lastItem + 9, 'the table ends within the first screen (30 lines)').toBeLessThanOrEqual(30);
  });

  it('links each of the five jobs to its page under docs/, and every docs page it links exists', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8');
    for (const page of ['docs/mock.md', 'docs/msw.md', 'docs/fixtures.md', 'docs/verifier.md', 'docs/pact.md']) expect(readme).toContain(`](${page})`);
    const present = new Set(await readdir(new URL('docs/', root)));
    const owned = ['mock.md', 'msw.md', 'fixtures.md', 'verifier.md', 'pact.md', 'guarantees.md', 'performance.md', 'development.md', 'README.md'];
    for (const page of owned) expect(present, `docs/${page}`).toContain(page);
  });
});

/** A doc's shell line as argv and environment: `VAR=value` prefixes, double-quoted words and `$VAR` of `env` expanded. */
function shellWords(line: string, env: Record<string, string>): { assignments: Record<string, string>; words: string[] } {
  const words = [...line.replace(/\s#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map(([, quoted, bare]) =>
    (quoted ?? bare ?? '').replace(/\$([A-Z_]+)/g, (_, name: string) => env[name] ?? ''),
  );
  const assignments: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, ...value] = (words.shift() as string).split('=');
    assignments[name as string] = value.join('=');
  }
  return { assignments, words };
}

/** Where a command's URL of the deployment goes, until a mock of its own runs it. */
const MOCK_URL = 'http://mock.invalid/v1';

describe("the docs' petstore-verify commands", () => {
  it('run as pasted against the mock (its URL for the deployment, the bundled pact for a consumer pact), exit 0', async () => {
    const lines = (await pages()).flatMap(([page, text]) =>
      [...text.matchAll(CODE_BLOCK)]
        .filter(([, lang]) => lang === 'sh')
        .flatMap(([, , code]) => (code as string).split('\n').map((line) => [page, line] as const))
        .filter(([, line]) => !/^\s*#/.test(line) && flagsUsed(line)?.command === 'petstore-verify'),
    );
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const bundledPact = fileURLToPath(new URL('spec/pacts/petstore-web-petstore-api.json', root));
    /** A line as the verifier gets it: its arguments and environment, `MOCK_URL` where the mock's URL goes. */
    const asRun = (line: string) => {
      const { assignments, words } = shellWords(line, { PETSTORE_API_KEY: KEY });
      const start = words.join(' ').startsWith('npx --package petstore-mock petstore-verify') ? 4 : 2; // or node bin/petstore-verify.js
      const args = words
        .slice(start)
        .map((word) => (/^https?:\/\/[^/\s]+\/v1$/.test(word) ? MOCK_URL : word.endsWith('-petstore-api.json') ? bundledPact : word));
      const env: Record<string, string> = { ...assignments };
      if (env.PETSTORE_BASE_URL) env.PETSTORE_BASE_URL = MOCK_URL;
      return JSON.stringify({ args, env });
    };
    // A command that two pages show alike (the same arguments and environment once the URL is the mock's) runs
    // once: a verifier run is some 2 s of CPU, and its outcome is that of the same run.
    const distinct = [...new Set(lines.map(([, line]) => asRun(line)))];
    // Each command against a mock of its own and in a folder of its own (what it writes stays there), all at once:
    // the runs are independent and spend most of their time waiting.
    const outcomes = await Promise.all(
      distinct.map(async (run) => {
        const mock = await startMockServer({ port: 0 });
        const cwd = await mkdtemp(join(tmpdir(), 'petstore-docs-command-'));
        try {
          const { args, env: assignments } = JSON.parse(run.replaceAll(MOCK_URL, mock.url)) as { args: string[]; env: Record<string, string> };
          const env: NodeJS.ProcessEnv = { ...withoutVerifierSettings(), ...assignments, NO_COLOR: '1' };
          return await new Promise<{ code: number; output: string }>((resolve) =>
            execFile(
              process.execPath,
              [fileURLToPath(new URL('bin/petstore-verify.js', root)), ...args],
              { cwd, timeout: 90_000, env },
              (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
            ),
          );
        } finally {
          await mock.close();
          await rm(cwd, { recursive: true, force: true });
        }
      }),
    );
    const runs = lines.map(([page, line]) => ({ page, line, ...(outcomes[distinct.indexOf(asRun(line))] as { code: number; output: string }) }));
    for (const { page, line, code, output } of runs) {
      expect(code, `${page}: \`${line.trim()}\`\n${output}`).toBe(0);
      expect(output).toContain('The deployment keeps the contract.');
    }
    // Seven runs of the verifier: longer than one CLI test's bound on a busy machine.
  });
});

describe('examples', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('dev-server: vite serves the app and proxies /v1 and /__mock to the mock, which stops with the dev server', async () => {
    vi.stubEnv('VITEST', ''); // as under `vite`, not vitest
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
    const api = server.config.server.proxy?.['/v1'];
    const mockOrigin = String(typeof api === 'object' ? api.target : api);
    await server.close();
    await expect(fetch(`${mockOrigin}/v1/pets`, { headers: AUTH })).rejects.toThrow();
  });

  it('dev-server: the plugin applies to `vite` (serve) only, never to a build nor under vitest, which reads vite.config.ts too', () => {
    const apply = petstoreMock().apply as (config: object, env: { command: 'serve' | 'build'; mode: string }) => boolean;
    expect(apply({}, { command: 'serve', mode: 'development' })).toBe(false); // this suite runs under vitest
    vi.stubEnv('VITEST', '');
    expect(apply({}, { command: 'serve', mode: 'development' })).toBe(true);
    expect(apply({}, { command: 'build', mode: 'production' })).toBe(false);
    expect(apply({}, { command: 'serve', mode: 'test' })).toBe(false); // vitest's mode, even without VITEST set
  });

  it('dev-server: vitest resolving vite.config.ts (mode test) starts no mock and proxies nothing', async () => {
    vi.stubEnv('VITEST', '');
    const config = await resolveConfig(
      { configFile: fileURLToPath(new URL('examples/dev-server/vite.config.ts', root)), mode: 'test', logLevel: 'silent' },
      'serve',
    );
    expect(config.server.proxy).toBeUndefined();
    expect(config.plugins.map((plugin) => plugin.name)).not.toContain('petstore-mock');
  });

  it('dev-server: the mock stops when a dev server without an HTTP server of its own (middleware mode) closes', async () => {
    vi.stubEnv('VITEST', '');
    const server = await createServer({
      configFile: false,
      plugins: [petstoreMock()],
      root: fileURLToPath(new URL('examples/dev-server/', root)),
      logLevel: 'silent',
      server: { middlewareMode: true, watch: null },
    });
    const api = server.config.server.proxy?.['/v1'];
    const mockOrigin = String(typeof api === 'object' ? api.target : api);
    expect(await (await fetch(`${mockOrigin}/v1/pets`, { headers: AUTH })).json()).toEqual(pets.slice(0, 20));
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

  it("pact: the template writes a pact that README's petstore-verify command replays against the mock, every interaction passing", async () => {
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
      // README's last command of "Add a consumer pact", as pasted, but for the mock's port and the pact's folder (and a JSON report to read).
      const readme = await readFile(new URL('README.md', root), 'utf8');
      const section = readme.slice(readme.indexOf('## Add a consumer pact'));
      const line = section.split('\n').find((text) => text.startsWith('npx --package petstore-mock petstore-verify')) as string;
      expect(line).toContain(`--api-key ${KEY}`); // the mock's key, which the command runs with as pasted
      const args = line
        .replace('npx --package petstore-mock petstore-verify', '')
        .replaceAll('http://127.0.0.1:4010/v1', mock.url)
        .replaceAll('pacts/admin-ui-petstore-api.json', join(dir, 'admin-ui-petstore-api.json'))
        .trim()
        .split(/\s+/);
      const replayed = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          [fileURLToPath(new URL('bin/petstore-verify.js', root)), ...args, '--reporter', 'json'],
          { cwd: fileURLToPath(root), timeout: 90_000, env: withoutVerifierSettings() },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
        ),
      );
      expect(replayed.code, `${line}\n${replayed.stderr}`).toBe(0);
      const report = JSON.parse(replayed.stdout) as VerificationReport;
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
  });
});
