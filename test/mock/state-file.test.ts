/**
 * `--state` loses nothing: one process owns the file, a create is saved or not made at all, a path
 * that cannot work is refused at start, and what killed processes leave behind is cleaned up.
 */
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rmdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { spawn } from '../support/children.js';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { ADMIN, AUTH, JSON_HEADERS } from '../support/http-facts.js';

const folder = () => mkdtemp(join(tmpdir(), 'petstore-state-'));
const REX = '{"name":"Rex","categoryId":1}';
const createdIn = async (path: string) => (JSON.parse(await readFile(path, 'utf8')) as { created: { name: string }[] }).created;

const running: (RunningMock | MockServer)[] = [];
afterEach(async () => {
  for (const mock of running.splice(0)) await ('stop' in mock ? mock.stop('SIGKILL') : mock.close());
});

describe('one owner per state file', () => {
  it('refuses a second mock on the same file, naming the file and the pid of the one that holds it', async () => {
    const path = join(await folder(), 'pets.json');
    const first = await startMockCli(['--port', '0', '--quiet', '--state', path]);
    running.push(first);
    const second = await runCli('petstore-mock', ['--port', '0', '--quiet', '--state', path]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`${path} is in use by another petstore-mock (pid ${first.child.pid})`);
    // The first one still saves, and only its pets are in the file.
    expect((await fetch(`${first.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX })).status).toBe(201);
    expect(await createdIn(path)).toEqual([expect.objectContaining({ name: 'Rex' })]);
  });

  it('takes over at once the lock of a process that was killed', async () => {
    const path = join(await folder(), 'pets.json');
    const first = await startMockCli(['--port', '0', '--quiet', '--state', path]);
    await first.stop('SIGKILL');
    // Dated a day ahead, the lock never goes stale while the test runs: the second mock can take it
    // over only by seeing that its holder is gone, not by waiting for it to age (10 s, proper-lockfile's).
    const tomorrow = new Date(Date.now() + 86_400_000);
    await utimes(`${path}.lock`, tomorrow, tomorrow);
    const second = await startMockCli(['--port', '0', '--quiet', '--state', path]);
    running.push(second);
    expect((await fetch(`${second.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX })).status).toBe(201);
  });

  it.runIf(process.platform === 'linux')('takes over the lock of a process that was killed and not yet reaped (a zombie)', async () => {
    const path = join(await folder(), 'pets.json');
    // sh starts the mock in the background, then becomes `sleep`, which never reaps it: killed, the mock stays a zombie.
    const script = `"${process.execPath}" bin/petstore-mock.js --port 0 --quiet --state "${path}" & echo "$!"; exec sleep 60`;
    const parent = spawn('sh', ['-c', script], { cwd: fileURLToPath(new URL('../../', import.meta.url)), stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(Number.parseInt(String(chunk), 10))));
      await vi.waitFor(async () => expect(await readFile(`${path}.lock.pid`, 'utf8')).toBe(`${pid}\n`), { timeout: 10_000, interval: 50 });
      process.kill(pid, 'SIGKILL');
      await vi.waitFor(async () => expect(await readFile(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /), { timeout: 5_000, interval: 20 });
      const second = await startMockCli(['--port', '0', '--quiet', '--state', path]);
      running.push(second);
      expect((await fetch(`${second.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX })).status).toBe(201);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('lets the file go on a graceful stop, for the next mock', async () => {
    const path = join(await folder(), 'pets.json');
    const first = await startMockServer({ port: 0, stateFile: path });
    await first.close();
    running.push(await startMockServer({ port: 0, stateFile: path }));
  });
});

describe('all-or-nothing saves', () => {
  /** A mock whose saves fail until `heal()`: its state path is made a folder, which no rename can replace. */
  async function failingSaves() {
    const path = join(await folder(), 'pets.json');
    const server = await startMockServer({ port: 0, stateFile: path });
    running.push(server);
    await mkdir(path);
    return { server, path, heal: () => rmdir(path) };
  }

  it('answers 500 to a create it could not save, and keeps no pet: three retries make no pet, the next success makes one', async () => {
    const { server, path, heal } = await failingSaves();
    for (let retry = 0; retry < 3; retry++) {
      const response = await fetch(`${server.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX });
      expect(response.status).toBe(500);
      expect(((await response.json()) as { message: string }).message).toMatch(
        /^Nothing was changed: the change could not be saved to the state file \(.+\), so it was undone/,
      );
    }
    expect(server.mock.store.size).toBe(50);
    expect((await fetch(`${server.url}/pets/51`, { headers: AUTH })).status).toBe(404);
    await heal();
    const saved = await fetch(`${server.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX });
    expect(((await saved.json()) as { id: number }).id).toBe(51);
    expect(await createdIn(path)).toHaveLength(1);
  });

  it('undoes only the failed create when others run at the same time', async () => {
    const { server, heal } = await failingSaves();
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${server.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX })));
    expect(answers.map((answer) => answer.status)).toEqual([500, 500, 500, 500, 500]);
    await heal();
    const statuses = await Promise.all(
      Array.from({ length: 5 }, async () => (await fetch(`${server.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX })).status),
    );
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    expect(server.mock.store.size).toBe(55);
  });

  it('saves nothing when a named session is reset: only changes of the default session are saved', async () => {
    const { server } = await failingSaves();
    const origin = new URL(server.url).origin;
    expect((await fetch(`${origin}/__mock/sessions/worker-1/reset`, { method: 'POST', headers: ADMIN })).status).toBe(200);
    expect((await fetch(`${origin}/__mock/reset`, { method: 'POST', headers: { ...ADMIN, 'x-mock-session': 'worker-1' } })).status).toBe(200);
    // The default session's reset is saved, so it fails here, and says so.
    expect((await fetch(`${origin}/__mock/reset`, { method: 'POST', headers: ADMIN })).status).toBe(500);
  });
});

describe('a state path that cannot work is refused at start', () => {
  it('refuses a folder that does not exist, with exit 2 and what to do', async () => {
    const path = join(await folder(), 'missing', 'pets.json');
    const result = await runCli('petstore-mock', ['--port', '0', '--state', path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `petstore-mock: --state ${path}: the folder ${join(path, '..')} does not exist. Create it or make it writable, or choose another path.\n`,
    );
  });

  it('refuses a folder that is not writable', async () => {
    const dir = await folder();
    await chmod(dir, 0o555);
    const result = await runCli('petstore-mock', ['--port', '0', '--state', join(dir, 'pets.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the folder ${dir} is not writable`);
  });

  it('refuses a read-only state file and leaves it as it was', async () => {
    const path = join(await folder(), 'pets.json');
    const first = await startMockServer({ port: 0, stateFile: path });
    await fetch(`${first.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX });
    await first.close();
    const before = await readFile(path, 'utf8');
    await chmod(path, 0o444);
    const result = await runCli('petstore-mock', ['--port', '0', '--state', path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${path} is read-only, and the mock would replace it on the first save. Make it writable (chmod u+w)`);
    expect(await readFile(path, 'utf8')).toBe(before);
    expect((await lstat(path)).mode & 0o777).toBe(0o444);
  });
});

describe('what killed processes leave behind', () => {
  it('removes leftover temporary files of the state file at start, and only those', async () => {
    const dir = await folder();
    const path = join(dir, 'pets.json');
    await Promise.all(['.pets.json.4242.tmp', '.pets.json.1.tmp', '.other.json.4242.tmp', 'notes.txt'].map((name) => writeFile(join(dir, name), 'x')));
    running.push(await startMockServer({ port: 0, stateFile: path }));
    expect((await readdir(dir)).sort()).toEqual(['.other.json.4242.tmp', 'notes.txt', 'pets.json.lock', 'pets.json.lock.pid']);
  });

  it('writes through a symbolic link to its target, which stays a link', async () => {
    const dir = await folder();
    const target = join(dir, 'real', 'pets.json');
    await mkdir(join(dir, 'real'));
    const link = join(dir, 'link.json');
    await symlink(target, link);
    const mock = await startMockCli(['--port', '0', '--quiet', '--state', link]);
    expect((await fetch(`${mock.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: REX })).status).toBe(201);
    await mock.stop('SIGKILL');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await createdIn(target)).toEqual([expect.objectContaining({ name: 'Rex' })]);
  });
});
