/**
 * `--proxy URL --record FILE`, then `--data FILE --profile ...`: the proxy in front of a mock seeded
 * with --seed 7 writes what it was shown, and a new mock started from the recording serves the same
 * pets offline. The upstream key never lands in either file, in any encoding, and the file stays
 * within the size of a file the CLIs read, however many pets the deployment shows.
 */
import { once } from 'node:events';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/files/file-bytes.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';
import { FULL_PAGE, SEED_WITH_ROOM } from '../support/page-size.js';

const UPSTREAM_KEY = 'staging-s3cret/key+42';
const UPSTREAM_AUTH = { authorization: `Bearer ${UPSTREAM_KEY}` };
const ENCODINGS = [UPSTREAM_KEY, Buffer.from(UPSTREAM_KEY).toString('base64'), encodeURIComponent(UPSTREAM_KEY), 'staging-s3cret'];

const running: (RunningMock | MockServer)[] = [];
afterEach(async () => {
  for (const started of running.splice(0)) await ('stop' in started ? started.stop('SIGKILL') : started.close());
});

describe('petstore-mock --proxy URL --record FILE', () => {
  it('records the pets and the profile the deployment showed; --data and --profile serve them again offline', async () => {
    // Few enough pets that the one added still fits on a full page, which the replay is compared by.
    const upstream = await startMockServer({ port: 0, seed: 7, count: SEED_WITH_ROOM, apiKey: UPSTREAM_KEY });
    running.push(upstream);
    const file = join(await mkdtemp(join(tmpdir(), 'petstore-record-')), 'staging.json');
    const proxy = await startMockCli(['--port', '0', '--quiet', '--proxy', upstream.url, '--upstream-key', UPSTREAM_KEY, '--record', file]);
    running.push(proxy);
    // A pet whose name echoes the key, as sent and in base64: recorded without it.
    const name = `owner ${UPSTREAM_KEY} ${Buffer.from(UPSTREAM_KEY).toString('base64')}`;
    const created = await fetch(`${proxy.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name, categoryId: 2 }) });
    expect(created.status).toBe(201);
    expect((await fetch(`${proxy.url}/pets?${FULL_PAGE}`, { headers: AUTH })).status).toBe(200);
    expect((await fetch(`${proxy.url}/pets/3`, { headers: AUTH })).status).toBe(200);
    const recorded = await readFile(file, 'utf8');
    const profileFile = join(file, '..', 'staging.profile.json');
    const profile = await readFile(profileFile, 'utf8');
    for (const form of ENCODINGS) {
      expect(recorded).not.toContain(form);
      expect(profile).not.toContain(form);
    }
    expect(recorded).toContain('"name":"owner *** ***"');
    expect(JSON.parse(profile)).toMatchObject({ version: 1, listOrder: 'id-asc', defaultStatus: 'available' });

    const replay = await startMockCli(['--port', '0', '--quiet', '--data', file, '--profile', profileFile]);
    running.push(replay);
    const there = await (await fetch(`${upstream.url}/pets?${FULL_PAGE}`, { headers: UPSTREAM_AUTH })).text();
    const here = await (await fetch(`${replay.url}/pets?${FULL_PAGE}`, { headers: AUTH })).text();
    expect(here).toBe(there.replace(JSON.stringify(name).slice(1, -1), 'owner *** ***'));
    expect(JSON.parse(here)).toHaveLength(SEED_WITH_ROOM + 1);
  });

  it('records no form of the upstream key the request log would hide: unpadded, base64 unpadded or url, encoded twice', async () => {
    const key = 'staging/K3y+0=';
    const base64 = Buffer.from(key).toString('base64');
    const forms = [key.slice(0, -1), base64.replace(/=+$/, ''), Buffer.from(key).toString('base64url'), encodeURIComponent(encodeURIComponent(key))];
    const upstream = await startMockServer({ port: 0, seed: 7, apiKey: key });
    running.push(upstream);
    const file = join(await mkdtemp(join(tmpdir(), 'petstore-record-')), 'staging.json');
    const proxy = await startMockCli(['--port', '0', '--quiet', '--proxy', upstream.url, '--upstream-key', key, '--record', file]);
    running.push(proxy);
    for (const form of forms) {
      const created = await fetch(`${proxy.url}/pets`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: `owner ${form}`, categoryId: 2 }),
      });
      expect(created.status).toBe(201);
    }
    const recorded = await readFile(file, 'utf8');
    for (const form of forms) expect(recorded).not.toContain(form);
    expect(recorded.match(/"name":"owner \*\*\*"/g)).toHaveLength(forms.length);
  });

  it('writes the file as pets are shown, and refuses a path it cannot write (exit 2), and --record without --proxy', async () => {
    const upstream = await startMockServer({ port: 0, seed: 7 });
    running.push(upstream);
    const file = join(await mkdtemp(join(tmpdir(), 'petstore-record-')), 'pets.json');
    const proxy = await startMockCli(['--port', '0', '--quiet', '--proxy', upstream.url, '--record', file]);
    running.push(proxy);
    expect(await readFile(file, 'utf8')).toBe('[]\n');
    await fetch(`${proxy.url}/pets/2`, { headers: AUTH });
    await vi.waitFor(async () => expect(JSON.parse(await readFile(file, 'utf8'))).toHaveLength(1), { timeout: 10_000 });
    const nowhere = await runCli('petstore-mock', ['--port', '0', '--proxy', upstream.url, '--record', '/nonexistent-folder/pets.json']);
    expect([nowhere.code, nowhere.stderr]).toEqual([2, expect.stringContaining('--record /nonexistent-folder/pets.json: cannot write it')]);
    const alone = await runCli('petstore-mock', ['--port', '0', '--record', file]);
    expect([alone.code, alone.stderr]).toEqual([2, expect.stringContaining('--record needs --proxy <base url>')]);
  });

  it('keeps the file within 16 MiB of pets however many a deployment shows, says so once, and serves on', async () => {
    // A deployment whose every page is 4,000 pets never shown before, each with a name of 1,000
    // characters: 4 MB a page (a deployment of short names paging so made a recording of 36 MB).
    let next = 1;
    const deployment = createServer((request, answer) => {
      request.resume();
      const pets = Array.from({ length: 4_000 }, (_, i) => ({ id: next + i, name: `${'x'.repeat(1_000)}${next + i}`, categoryId: 1, status: 'available' }));
      next += pets.length;
      answer.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(pets));
    });
    deployment.listen(0, '127.0.0.1');
    await once(deployment, 'listening');
    running.push({ close: () => new Promise<void>((resolve) => deployment.close(() => resolve())) } as unknown as MockServer);
    const { port } = deployment.address() as { port: number };
    const file = join(await mkdtemp(join(tmpdir(), 'petstore-record-')), 'pets.json');
    const proxy = await startMockCli(['--port', '0', '--quiet', '--proxy', `http://127.0.0.1:${port}/v1`, '--record', file]);
    running.push(proxy);
    for (let page = 0; page < 6; page++) expect((await fetch(`${proxy.url}/pets?${FULL_PAGE}`, { headers: AUTH })).status).toBe(200);
    expect((await stat(file)).size).toBeLessThanOrEqual(MAX_FILE_BYTES);
    expect(JSON.parse(await readFile(file, 'utf8')).length).toBeGreaterThan(15_000);
    expect(proxy.stderr().split(`--record ${file} holds ${MAX_FILE_BYTES} bytes of pets`)).toHaveLength(2);
  });
});
