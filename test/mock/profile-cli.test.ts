/**
 * The profile workflow as docs/profiles.md gives it, run command by command over real HTTP: learn
 * with petstore-verify --write-profile, run petstore-mock --profile, watch with petstore-mock --proxy.
 * And every refusal: a profile the contract forbids, a bad --proxy URL, a key without --proxy.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { readProfile } from '../../src/profile/profile.js';
import { runCli, startMockCli } from '../support/cli.js';
import { type CorrectDeployment, correctDeployment, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';
const DOCS = new URL('../../docs/profiles.md', import.meta.url);

/** The commands of the docs' `sh` blocks that run this package's CLIs, as argument lists: the staging URL and the keys replaced. */
async function documentedCommands(url: string, key: string): Promise<string[][]> {
  const text = await readFile(DOCS, 'utf8');
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/^npx --package petstore-mock /, ''))
    .filter((line) => /^petstore-(verify|mock) /.test(line))
    .map((line) =>
      line.split(/\s+/).map((word) => (word === 'https://staging.example.com/v1' ? url : /^"\$(PETSTORE_API_KEY|STAGING_KEY)"$/.test(word) ? key : word)),
    );
}

describe('docs/profiles.md, command by command', () => {
  let deployment: CorrectDeployment;
  let folder: string;
  let commands: string[][];
  beforeAll(async () => {
    deployment = await correctDeployment({ order: 'newest-first', limitOutOfRange: 'clamp', errorCodes: 'numeric', defaultStatus: 'omitted' });
    folder = await mkdtemp(join(tmpdir(), 'petstore-profile-'));
    commands = await documentedCommands(deployment.url, KEY);
  });
  afterAll(async () => {
    await deployment.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('documents the three commands: learn, and run the mock and the proxy with the profile', () => {
    expect(commands.map((command) => command.slice(0, 2).join(' '))).toEqual([
      'petstore-verify --base-url',
      'petstore-mock --profile',
      'petstore-mock --proxy',
    ]);
  });

  it('learns, mimics and watches the deployment without drift', async () => {
    const [learn = [], mimic = [], watch = []] = commands;
    const inFolder = (args: string[]) => args.map((arg) => (arg === 'petstore-profile.json' ? join(folder, arg) : arg));

    const learned = await runCli('petstore-verify', inFolder(learn.slice(1)));
    expect(learned.code, learned.stderr + learned.stdout).toBe(0);
    expect(learned.stdout + learned.stderr).not.toContain(KEY);
    const profile = readProfile(JSON.parse(await readFile(join(folder, 'petstore-profile.json'), 'utf8')));
    expect(profile).toMatchObject({ listOrder: 'id-desc', limitOutOfRange: 'clamp', defaultStatus: 'omitted', errorCodes: { not_found: 'E404' } });

    const mock = await startMockCli([...inFolder(mimic.slice(1)), '--port', '0', '--quiet']);
    try {
      const shown = await fetch(`${mock.url.replace(/\/v1$/, '')}/__mock/profile`);
      expect(await shown.json()).toEqual(profile);
      const clamped = await fetch(`${mock.url}/pets?limit=500`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(clamped.status).toBe(200);
      expect(((await (await fetch(`${mock.url}/pets/999999`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { code: string }).code).toBe('E404');
    } finally {
      await mock.stop();
    }

    const proxy = await startMockCli([...inFolder(watch.slice(1)), '--port', '0']);
    try {
      // The proxy holds the upstream key: a client sends the mock's own, here the default.
      for (const target of ['/pets?limit=500', '/pets?limit=3', '/pets/abc', '/pets/999999'])
        expect((await fetch(`${proxy.url}${target}`, { headers: { authorization: `Bearer ${KEY}` } })).status, target).toBeLessThan(500);
      const drift = (await (await fetch(`${proxy.url.replace(/\/v1$/, '')}/__mock/drift`)).json()) as { drift: { count: number; kept: unknown[] } };
      expect(drift.drift.kept).toEqual([]);
    } finally {
      expect(await proxy.stop()).toBe(0);
    }
    expect(proxy.stderr()).toMatch(/petstore-mock: proxy summary: 5 request\(s\), \d+ contract violation\(s\), 0 drift\(s\) from the mock/);
    expect(proxy.stderr()).not.toContain(KEY);
  });

  it('reports drift in the proxy summary when the mock runs without the profile', async () => {
    const proxy = await startMockCli(['--proxy', deployment.url, '--port', '0', '--quiet']);
    await fetch(`${proxy.url}/pets?limit=500`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await proxy.stop()).toBe(0);
    expect(proxy.stderr()).toMatch(/petstore-mock: drift \(status\): GET \/v1\/pets\?limit=500: status: the deployment 200, the mock 400/);
    expect(proxy.stderr()).toMatch(/1 drift\(s\) from the mock \(status 1\)/);
  });

  it('runs the example profile of the docs', async () => {
    const example = /```json\n([\s\S]*?)```/.exec(await readFile(DOCS, 'utf8'))?.[1] ?? '';
    const server = await startMockServer({ profile: JSON.parse(example), selfCheck: (mismatch) => expect.fail(mismatch) });
    try {
      const refused = await fetch(`${server.url}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: '{"name":"Rex","categoryId":4}',
      });
      expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await refused.json()).toMatchObject({ code: 'E400', status: 400 });
    } finally {
      await server.close();
    }
  });
});

describe('a profile the contract forbids is refused at start, naming the field', () => {
  const forbidden = [
    [{ version: 1, defaultStatus: 'lost' }, 'profile.defaultStatus'],
    [{ version: 1, limitOutOfRange: 500 }, 'profile.limitOutOfRange'],
  ] as const;
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'petstore-profile-bad-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  for (const [profile, field] of forbidden) {
    it(`${JSON.stringify(profile)}: petstore-mock exits 2, startMockServer and createHandlers throw a TypeError`, async () => {
      const file = join(folder, `${field}.json`);
      await writeFile(file, JSON.stringify(profile));
      const run = await runCli('petstore-mock', ['--profile', file, '--port', '0']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(field);
      expect(run.stderr).toContain('petstore-verify --write-profile');
      await expect(startMockServer({ profile: profile as never })).rejects.toThrow(TypeError);
      expect(() => createHandlers({ profile: profile as never })).toThrow(field);
    });
  }

  it('a file that is not JSON, or missing, exits 2 saying so', async () => {
    const file = join(folder, 'broken.json');
    await writeFile(file, '{ "version": 1,');
    expect(await runCli('petstore-mock', ['--profile', file])).toMatchObject({ code: 2, stderr: expect.stringMatching(/not JSON/) });
    expect(await runCli('petstore-mock', ['--profile', join(folder, 'absent.json')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/ENOENT/) });
  });
});

describe('petstore-verify --write-profile learns only what a profile may hold', () => {
  it('skips an Error code over 100 characters, or with ESC, BEL, C1 or RLO, saying so without printing it; never crashes', { timeout: 240_000 }, async () => {
    const folder = await mkdtemp(join(tmpdir(), 'petstore-profile-codes-'));
    try {
      for (const code of ['A'.repeat(101), 'E\u001b[31mbad\u0007', 'E\u0085x', 'E\u202eevil']) {
        const mock = createMockApi({ apiKey: KEY });
        // The mock, with every Error's code replaced by `code` (a gateway's own).
        const deployment = await serve(async (request) => {
          const answer = await mock.fetch(request);
          const text = await answer.text();
          const body = /"code":"[a-z_]+"/.test(text) ? text.replace(/"code":"[a-z_]+"/, `"code":${JSON.stringify(code)}`) : text;
          return new Response(body === '' ? null : body, { status: answer.status, headers: answer.headers });
        });
        try {
          const file = join(folder, 'profile.json');
          const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--suite', 'spec', '--write-profile', file], { PETSTORE_API_KEY: KEY });
          const printed = `${run.stdout}${run.stderr}`;
          expect(printed, JSON.stringify(code)).toMatch(
            /Note: the deployment's Error code for bad_request \(\d+ characters(, with a control or invisible character)?\) was not learned/,
          );
          expect(printed).toMatch(/Profile of the deployment written to/);
          expect(printed).not.toMatch(/TypeError/);
          for (const character of ['\u001b', '\u0007', '\u0085', '\u202e']) expect(printed).not.toContain(character);
          const learned = readProfile(JSON.parse(await readFile(file, 'utf8')));
          expect(Object.values(learned.errorCodes)).not.toContain(code);
        } finally {
          await deployment.close();
        }
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('petstore-mock --proxy refusals', () => {
  it('exits 2 for a --proxy that is not an http URL, and for --upstream-key without --proxy, never printing the key', async () => {
    const secret = 'an-upstream-secret-42';
    const ftp = await runCli('petstore-mock', ['--proxy', 'ftp://staging.example', '--upstream-key', secret, '--port', '0']);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toMatch(/--proxy: upstream: must be a http:\/\/ or https:\/\/ URL, not ftp:/);
    const alone = await runCli('petstore-mock', ['--upstream-key', secret, '--port', '0']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--upstream-key needs --proxy/);
    expect(ftp.stderr + ftp.stdout + alone.stderr + alone.stdout).not.toContain(secret);
  });
});
