/**
 * docs/mock-data.md's snippets, run: its data file served by its command line, its curl put into a
 * session, its recording command line against a local deployment, and its MSW code imported as the
 * package's user would.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockHandlers } from '../../src/mock/hosts/msw.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { execFile } from '../support/children.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { AUTH } from '../support/http-facts.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const page = await readFile(join(root, 'docs/mock-data.md'), 'utf8');
const SNIPPET = /<!-- snippet: (\S+) -->\n```\w*\n([\s\S]*?)```/g;
const snippets = new Map([...page.matchAll(SNIPPET)].map(([, name, code]) => [name as string, code as string]));
const snippet = (name: string) => snippets.get(name) ?? expect.fail(`docs/mock-data.md has no snippet ${name}`);
/** The `petstore-mock` command lines of a snippet, as argument lists. */
const commands = (code: string) =>
  code
    .split('\n')
    .filter((line) => line.startsWith('petstore-mock '))
    .map((line) => line.split(' ').slice(1));

const running: (RunningMock | MockServer)[] = [];
afterEach(async () => {
  for (const started of running.splice(0)) await ('stop' in started ? started.stop('SIGKILL') : started.close());
});
async function cli(args: readonly string[], cwd: string): Promise<RunningMock> {
  const started = await startMockCli(['--port', '0', '--quiet', ...args.map((arg) => (/\.(json|ya?ml)$/.test(arg) ? join(cwd, arg) : arg))]);
  running.push(started);
  return started;
}

describe('docs/mock-data.md', () => {
  it('serves its pets.yaml with its command line, the int64 maximum exact, as its curl reads it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-docs-data-'));
    await writeFile(join(dir, 'pets.yaml'), snippet('pets.yaml'));
    const [args = []] = commands(snippet('serve'));
    const served = await cli(args, dir);
    const curl = /curl (.*)$/m.exec(snippet('serve'))?.[1] ?? '';
    const { stdout } = await promisify(execFile)('sh', ['-c', `curl -s ${curl.replace('http://127.0.0.1:4010/v1', served.url)}`]);
    expect(stdout).toBe('{"id":9223372036854775807,"name":"The int64 maximum","categoryId":3,"status":"sold"}');
    const created = await fetch(`${served.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"Gus","categoryId":1}',
    });
    expect(page).toContain(`gets id ${((await created.json()) as { id: number }).id}`);
  });

  it('puts the pet of its curl into the session, answering as it shows', async () => {
    const served = await cli([], tmpdir());
    const command = snippet('put').split('\n# ')[0]?.replace('http://127.0.0.1:4010', served.url.replace(/\/v1$/, '')) ?? '';
    const { stdout } = await promisify(execFile)('sh', ['-c', command.replace('curl ', 'curl -s ')]);
    expect(stdout).toBe('{"session":"checkout","stored":[{"id":4242,"name":"Exactly this one","categoryId":7,"status":"pending"}],"pets":51}');
    expect(snippet('put')).toContain('# {"session":"checkout","stored":[{"id":4242,...}],"pets":51}');
  });

  it('records with its command line and serves the recording with the next', async () => {
    const upstream = await startMockServer({ port: 0, seed: 7, apiKey: 'staging-key-1234' });
    running.push(upstream);
    const dir = await mkdtemp(join(tmpdir(), 'petstore-docs-record-'));
    const [record = [], replay = []] = commands(snippet('record'));
    const proxy = await cli(
      record.map((arg) => arg.replace('https://staging.example.com/v1', upstream.url).replace('"$STAGING_KEY"', 'staging-key-1234')),
      dir,
    );
    await fetch(`${proxy.url}/pets?limit=5`, { headers: AUTH });
    const offline = await cli(replay, dir);
    expect(await (await fetch(`${offline.url}/pets`, { headers: AUTH })).text()).toBe(
      await (await fetch(`${upstream.url}/pets?limit=5`, { headers: { authorization: 'Bearer staging-key-1234' } })).text(),
    );
  });

  it("runs its MSW code as the package's user would", async () => {
    const file = join(root, 'test/mock', `.data-docs-${process.pid}.snippet.ts`);
    await writeFile(file, snippet('msw'));
    try {
      const { handlers } = (await import(/* @vite-ignore */ file)) as { handlers: MockHandlers };
      const response = await handlers.mock.fetch(new Request('http://localhost/v1/pets/9223372036854775807', { headers: AUTH }));
      expect(await response.text()).toContain('"id":9223372036854775807');
    } finally {
      await rm(file, { force: true });
    }
  });
});
