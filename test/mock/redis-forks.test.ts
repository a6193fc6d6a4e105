/**
 * The state in Redis must never silently fork, nor leak the way to it: no password printed in any form
 * of the URL, no Redis that may evict the mock's keys, no request waiting unbounded on a Redis that
 * stopped answering, no replica serving the world it remembers after the namespace was emptied, and
 * no worker left a ghost while Redis is down. Each against a real redis-server; needs `dist/`.
 */
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { AUTH } from '../support/http-facts.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const SECRET = 'Sesame-7f3a9c';

/** Every mock a test started, stopped after it. */
let running: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(running.map((mock) => mock.stop()));
  running = [];
});

async function mock(args: readonly string[]): Promise<RunningMock> {
  const started = await startMockCli(['--port', '0', ...args]);
  running.push(started);
  return started;
}

/** One request's status, headers and body text. */
async function get(url: string): Promise<{ readonly status: number; readonly headers: Headers; readonly text: string }> {
  const response = await fetch(url, { headers: AUTH });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const healthOf = (mockUrl: string) => mockUrl.replace(/\/v1$/, '/__mock/health');

/** Runs one command on `redis` from a client of the test's own. */
async function command(redis: TestRedis, name: string, ...args: (string | number)[]): Promise<unknown> {
  const client = new Redis(redis.url, { lazyConnect: true });
  try {
    await client.connect();
    return await client.call(name, ...args);
  } finally {
    client.disconnect();
  }
}

describe('a password in the --store URL', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis({ args: ['--requirepass', SECRET] });
  });
  afterAll(() => redis.stop());

  it('is never printed: not in the banner, a 503 body, /__mock/health or a log line, in any form of the URL', async () => {
    const forms = [`${redis.url}/0?password=${SECRET}`, `redis://:${SECRET}@127.0.0.1:${redis.port}`, `redis://default:${SECRET}@127.0.0.1:${redis.port}/0`];
    const mocks = await Promise.all(forms.map((url, i) => mock(['--store', url, '--namespace', `secret${i}`])));
    for (const each of mocks) {
      expect(each.stdout()).toMatch(/state in Redis at redis:\/\/127\.0\.0\.1:\d+/);
      expect((await get(healthOf(each.url))).status).toBe(200);
    }
    await redis.kill();
    try {
      for (const each of mocks) {
        for (const path of [healthOf(each.url), `${each.url}/pets/1`]) {
          const response = await get(path);
          expect(response.status).toBe(503);
          expect(response.text).toMatch(/Redis at redis:\/\/127\.0\.0\.1/);
          expect(response.text).not.toContain(SECRET);
        }
      }
    } finally {
      await redis.restart();
    }
    for (const each of mocks) {
      expect(each.stdout()).not.toContain(SECRET);
      expect(each.stderr()).not.toContain(SECRET);
    }
  });

  it('is not printed when Redis cannot be reached at start', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--store', `redis://127.0.0.1:1/0?password=${SECRET}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1\/0/);
    expect(result.stderr + result.stdout).not.toContain(SECRET);
  });

  it('is not printed when the --store URL is rejected (exit 2)', async () => {
    for (const url of [`http://:${SECRET}@127.0.0.1:6379`, `redis://:${SECRET}@127.0.0.1:99999`]) {
      const result = await runCli('petstore-mock', ['--store', url]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--store <url>/);
      expect(result.stderr + result.stdout).not.toContain(SECRET);
    }
  });
});

describe('a Redis whose maxmemory-policy may evict keys', () => {
  it('is rejected at start with exit 2 and a sentence naming the setting, through CONFIG or INFO', async () => {
    const lru = await startRedis({ args: ['--maxmemory-policy', 'allkeys-lru'] });
    const hidden = await startRedis({ args: ['--maxmemory-policy', 'volatile-lru', '--rename-command', 'CONFIG', ''] });
    try {
      for (const [redis, policy] of [
        [lru, 'allkeys-lru'],
        [hidden, 'volatile-lru'],
      ] as const) {
        const result = await runCli('petstore-mock', ['--port', '0', '--store', redis.url]);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toMatch(new RegExp(`maxmemory-policy ${policy}.*CONFIG SET maxmemory-policy noeviction`));
        expect(result.stdout).toBe('');
      }
    } finally {
      await Promise.all([lru.stop(), hidden.stop()]);
    }
  });

  it('set while the mock runs gets 503 with the sentence, until the policy is noeviction again', async () => {
    const redis = await startRedis();
    try {
      const replica = await mock(['--store', redis.url, '--quiet']);
      await command(redis, 'CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru');
      await expect.poll(async () => (await get(`${replica.url}/pets?limit=1`)).status, { timeout: 10_000 }).toBe(503);
      const rejected = await get(healthOf(replica.url));
      expect(rejected.text).toMatch(/maxmemory-policy allkeys-lru.*CONFIG SET maxmemory-policy noeviction/);
      expect(rejected.headers.get('retry-after')).not.toBeNull();
      await command(redis, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
      await expect.poll(async () => (await get(`${replica.url}/pets?limit=1`)).status, { timeout: 10_000 }).toBe(200);
    } finally {
      await redis.stop();
    }
  });
});

describe('a Redis that stops answering (SIGSTOP)', () => {
  it('gets 503 with Retry-After within about --store-timeout, health included, and the mock recovers after SIGCONT', async () => {
    const redis = await startRedis();
    // Long enough that a busy machine's delays stay well under one more of it.
    const storeTimeout = 2_000;
    try {
      const replica = await mock(['--store', redis.url, '--store-timeout', String(storeTimeout), '--quiet']);
      expect((await get(`${replica.url}/pets/1`)).status).toBe(200);
      redis.pause();
      try {
        for (const url of [healthOf(replica.url), `${replica.url}/pets?limit=5`, `${replica.url}/pets/1`]) {
          const started = performance.now();
          const response = await get(url);
          // One time-out, not two (a command queued behind a stalled pipeline waits out the one before it):
          // under twice it, with a whole time-out (2 s) of slack for a busy machine.
          expect(performance.now() - started, url).toBeLessThan(2 * storeTimeout);
          expect(response.status, url).toBe(503);
          expect(response.headers.get('retry-after')).toBe('1');
          expect(JSON.parse(response.text)).toMatchObject({ code: 'service_unavailable' });
        }
      } finally {
        redis.resume();
      }
      await expect.poll(async () => (await get(`${replica.url}/pets/1`)).status, { timeout: 10_000 }).toBe(200);
      expect((await get(healthOf(replica.url))).status).toBe(200);
    } finally {
      await redis.stop();
    }
  });
});

describe('a namespace emptied under running replicas (FLUSHALL)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  const pets = async (replica: RunningMock) => Promise.all(Array.from({ length: 20 }, (_, i) => get(`${replica.url}/pets/${i + 1}`).then((r) => r.text)));

  it('is seeded again or followed by every replica, never served from two worlds', async () => {
    const [a, b] = await Promise.all([mock(['--store', redis.url, '--seed', '1', '--quiet']), mock(['--store', redis.url, '--seed', '1', '--quiet'])]);
    const before = await pets(a as RunningMock);
    // Emptied, then asked first: the replica seeds it again with the recipe it had.
    await command(redis, 'FLUSHALL');
    expect(await pets(a as RunningMock)).toEqual(before);
    expect(await pets(b as RunningMock)).toEqual(before);
    // Emptied, then a replica told another seed starts first: it seeds, and the others follow it.
    await command(redis, 'FLUSHALL');
    const c = await mock(['--store', redis.url, '--seed', '2', '--quiet']);
    const after = await pets(c);
    expect(after).not.toEqual(before);
    expect(await pets(a as RunningMock)).toEqual(after);
    expect(await pets(b as RunningMock)).toEqual(after);
  });
});

describe('--workers 2: the workers Node runs', () => {
  it("bounds each worker's young generation as memory mode has it, unless NODE_OPTIONS sets its own", async () => {
    const redis = await startRedis();
    try {
      const argsOfWorkers = (cluster: RunningMock) =>
        execFileSync('ps', ['-o', 'args=', '--ppid', String(cluster.child.pid)], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean);
      const bounded = await mock(['--store', redis.url, '--namespace', 'semi-a', '--workers', '2', '--quiet']);
      expect(argsOfWorkers(bounded)).toHaveLength(2);
      for (const args of argsOfWorkers(bounded)) expect(args).toContain('--max-semi-space-size=8');
      await bounded.stop('SIGTERM');
      const own = await startMockCli(['--port', '0', '--store', redis.url, '--namespace', 'semi-b', '--workers', '2', '--quiet'], {
        NODE_OPTIONS: '--max-semi-space-size=32',
      });
      try {
        expect(argsOfWorkers(own)).toHaveLength(2);
        for (const args of argsOfWorkers(own)) expect(args).not.toContain('--max-semi-space-size=8');
      } finally {
        await own.stop('SIGTERM');
      }
    } finally {
      await redis.stop();
    }
  });
});

describe('--workers 2 while Redis is down', () => {
  it('replaces a worker killed with -9 by one that connects and serves once Redis is back', async () => {
    const redis = await startRedis();
    try {
      const cluster = await mock(['--store', redis.url, '--workers', '2', '--quiet']);
      const workers = () =>
        execFileSync('ps', ['-o', 'pid=', '--ppid', String(cluster.child.pid)], { encoding: 'utf8' })
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
      const [first] = workers();
      await redis.kill();
      process.kill(Number(first), 'SIGKILL');
      await expect.poll(() => cluster.stderr(), { timeout: 10_000 }).toMatch(/starting another/);
      // Redis comes back only once the new worker has found it away and waits for it.
      await expect.poll(() => cluster.stderr(), { timeout: 30_000 }).toMatch(/worker \d+: .*Trying again every second\./);
      await redis.restart();
      const connected = async () => {
        const list = String(await command(redis, 'CLIENT', 'LIST'));
        return workers().filter((pid) => list.includes(`name=petstore-mock-${pid} `)).length;
      };
      await expect.poll(connected, { timeout: 15_000, interval: 250 }).toBe(2);
      expect(workers()).not.toContain(first);
      for (let i = 0; i < 6; i++) expect((await get(`${cluster.url}/pets/1`)).status).toBe(200);
    } finally {
      await redis.stop();
    }
  });
});
