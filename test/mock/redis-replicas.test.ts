/**
 * Several `petstore-mock` processes on one real Redis, as a load balancer would spread a team's
 * requests over them: every replica must answer as one mock would. Needs `dist/` (built by `npm test`)
 * and Debian's redis-server.
 */

import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { ADMIN, AUTH, JSON_HEADERS } from '../support/http-facts.js';
import { FULL_PAGE, LIMIT, SEED_WITH_ROOM } from '../support/page-size.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
let namespaces = 0;

beforeAll(async () => {
  redis = await startRedis({ appendonly: true });
});
afterAll(() => redis.stop());

/** `count` replicas of one mock: the same Redis, a namespace of the test's own. */
async function replicas(count: number, args: readonly string[] = []): Promise<RunningMock[]> {
  const namespace = `replicas${++namespaces}`;
  return Promise.all(Array.from({ length: count }, () => startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--namespace', namespace, ...args])));
}

const stopAll = (mocks: readonly RunningMock[]) => Promise.all(mocks.map((mock) => mock.stop()));

function create(mock: RunningMock, name: string, headers: Record<string, string> = JSON_HEADERS): Promise<Response> {
  return fetch(`${mock.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1, status: 'sold' }) });
}

/** Runs `tasks` with at most `width` in flight. */
async function inFlight<T>(tasks: readonly (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await (tasks[index] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

describe('three replicas on one Redis', () => {
  let mocks: RunningMock[];
  beforeAll(async () => {
    // A seed that leaves room on a full page, where a session's pet is listed after the seeded ones.
    mocks = await replicas(3, ['--max-sessions', '2', '--count', String(SEED_WITH_ROOM)]);
  });
  afterAll(() => stopAll(mocks));

  it('give 1,000 creates spread over them unique ids, each pet readable on every replica', async () => {
    const made = await inFlight(
      Array.from({ length: 1000 }, (_, i) => async () => {
        const response = await create(mocks[i % 3] as RunningMock, `pet ${i}`);
        expect(response.status).toBe(201);
        return ((await response.json()) as { id: number }).id;
      }),
      24,
    );
    expect(new Set(made).size).toBe(1000);
    expect([...made].sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => SEED_WITH_ROOM + 1 + i));
    await inFlight(
      made.flatMap((id) =>
        mocks.map((mock) => async () => {
          const response = await fetch(`${mock.url}/pets/${id}`, { headers: AUTH });
          expect(response.status, `pet ${id} on ${mock.url}`).toBe(200);
          expect(((await response.json()) as { id: number }).id).toBe(id);
        }),
      ),
      24,
    );
    for (const mock of mocks) {
      const page = (await (await fetch(`${mock.url}/pets?status=sold&${FULL_PAGE}`, { headers: AUTH })).json()) as { id: number }[];
      expect(page).toHaveLength(LIMIT.maximum);
    }
  });

  it('share sessions: created on one, listed on another, counted against one cap, reset everywhere', async () => {
    const [a, b, c] = mocks as [RunningMock, RunningMock, RunningMock];
    const inSession = (session: string) => ({ ...JSON_HEADERS, 'x-mock-session': session });
    const made = (await (await create(a, 'Alice pet', inSession('alice'))).json()) as { id: number };
    expect(made.id).toBe(SEED_WITH_ROOM + 1);
    const listed = (await (await fetch(`${b.url}/pets?${FULL_PAGE}`, { headers: inSession('alice') })).json()) as { name: string }[];
    expect(listed.at(-1)?.name).toBe('Alice pet');
    expect((await create(b, 'Bob pet', inSession('bob'))).status).toBe(201);
    const third = await create(c, 'Carol pet', inSession('carol'));
    expect(third.status, 'a third session passes the cap of 2 across replicas').toBe(429);
    const origin = new URL(c.url).origin;
    const sessions = (await (await fetch(`${origin}/__mock/sessions`)).json()) as { sessions: { name: string; pets: number }[] };
    expect(sessions.sessions).toEqual([
      expect.objectContaining({ name: 'alice', pets: SEED_WITH_ROOM + 1 }),
      expect.objectContaining({ name: 'bob', pets: SEED_WITH_ROOM + 1 }),
    ]);
    expect((await fetch(`${new URL(b.url).origin}/__mock/reset`, { method: 'POST', headers: ADMIN })).status).toBe(200);
    expect((await fetch(`${a.url}/pets/${SEED_WITH_ROOM + 1}`, { headers: inSession('alice') })).status).toBe(404);
    expect((await fetch(`${c.url}/pets/1100`, { headers: AUTH })).status).toBe(404);
    expect((await create(c, 'Carol pet', inSession('carol'))).status, 'the reset dropped every session').toBe(201);
  });

  it('share each session clock: moved on one, getPet is gone on the others', async () => {
    const [a, b] = mocks as [RunningMock, RunningMock];
    const moved = await fetch(`${new URL(a.url).origin}/__mock/clock`, { method: 'POST', headers: ADMIN, body: '{"now":"2031-01-01T00:00:00Z"}' });
    expect(moved.status).toBe(200);
    expect((await fetch(`${b.url}/pets/1`, { headers: AUTH })).status).toBe(410);
    expect((await fetch(`${new URL(b.url).origin}/__mock/clock`, { method: 'POST', headers: ADMIN, body: '{"now":null}' })).status).toBe(200);
    expect((await fetch(`${a.url}/pets/1`, { headers: AUTH })).status).toBe(200);
  });
});

describe('replicas when Redis is killed mid-run', () => {
  it('answer 503 naming Redis while it is away, recover by themselves, and lose no acknowledged create', async () => {
    const mocks = await replicas(2);
    try {
      const acknowledged: number[] = [];
      let stop = false;
      const outcomes = new Map<number, number>();
      const writers = mocks.map(async (mock, w) => {
        for (let i = 0; !stop; i++) {
          const response = await create(mock, `w${w} ${i}`).catch(() => undefined);
          if (response === undefined) continue;
          outcomes.set(response.status, (outcomes.get(response.status) ?? 0) + 1);
          const body = (await response.json()) as { id?: number; message?: string };
          if (response.status === 201) acknowledged.push(body.id as number);
          else {
            expect(response.status).toBe(503);
            expect(body.message).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+/);
          }
        }
      });
      // Each phase lasts until the writers have seen it, not a fixed time a busy machine may not fill
      // (the bounds are a hang's): creates acknowledged, 503s while Redis is away, creates once it is back.
      const count = (status: number) => outcomes.get(status) ?? 0;
      const phase = { timeout: 30_000, interval: 20 };
      await expect.poll(() => count(201), phase).toBeGreaterThan(0);
      await redis.kill();
      await expect.poll(() => count(503), phase).toBeGreaterThan(0);
      await redis.restart();
      // Each replica reconnects on its own backoff (up to 500 ms apart), so each is awaited, not the first only.
      for (const mock of mocks) {
        await expect.poll(async () => (await fetch(`${mock.url}/pets?limit=1`, { headers: AUTH })).status, phase).toBe(200);
      }
      const before = count(201);
      await expect.poll(() => count(201), phase).toBeGreaterThan(before);
      stop = true;
      await Promise.all(writers);
      expect(outcomes.get(503), 'requests while Redis was away').toBeGreaterThan(0);
      expect(acknowledged.length).toBeGreaterThan(0);
      for (const id of acknowledged) {
        for (const mock of mocks) expect((await fetch(`${mock.url}/pets/${id}`, { headers: AUTH })).status, `acknowledged pet ${id}`).toBe(200);
      }
      expect(new Set(acknowledged).size).toBe(acknowledged.length);
    } finally {
      await stopAll(mocks);
    }
  });
});

describe('petstore-mock --store and --workers on the command line', () => {
  it('exits 1 naming the URL, never its password, when Redis cannot be reached', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--store', 'redis://admin:hunter2-secret@127.0.0.1:1/3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1\/3/);
    expect(result.stdout + result.stderr).not.toMatch(/hunter2|admin|aHVudGVy/);
    const workers = await runCli('petstore-mock', ['--port', '0', '--workers', '2', '--store', 'redis://127.0.0.1:1']);
    expect(workers.code, 'the primary checks Redis before it forks a worker').toBe(1);
    expect(workers.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1/);
  });

  it('refuses --state with --store, and --workers, --store-timeout or --namespace without a shared store, with a sentence (exit 2)', async () => {
    const both = await runCli('petstore-mock', ['--store', redis.url, '--state', 'x.json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--state .*--store/);
    const alone = await runCli('petstore-mock', ['--workers', '2']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--workers needs --store/);
    const zero = await runCli('petstore-mock', ['--workers', '0', '--store', redis.url]);
    expect(zero.code).toBe(2);
    // The settings of the state in Redis, given without it, would be ignored: they are refused.
    for (const flag of [
      ['--store-timeout', '500'],
      ['--namespace', 'mine'],
    ]) {
      const ignored = await runCli('petstore-mock', ['--port', '0', ...flag]);
      expect(ignored.code).toBe(2);
      expect(ignored.stderr).toMatch(new RegExp(`${flag[0]} needs --store redis://`));
    }
  });

  it('--workers 2 serves one state from two processes on one port', async () => {
    const [mock] = await replicas(1, ['--workers', '2']);
    try {
      const ids = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => ((await (await create(mock as RunningMock, `w${i}`)).json()) as { id: number }).id),
      );
      expect(new Set(ids).size).toBe(50);
      const workers = async () => (await readFile(`/proc/${mock?.child.pid}/task/${mock?.child.pid}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean);
      const first = await workers();
      expect(first).toHaveLength(2);
      process.kill(Number(first[0]), 'SIGKILL');
      await expect.poll(async () => (await workers()).filter((pid) => !first.includes(pid)), { timeout: 10_000 }).toHaveLength(1);
      expect((await create(mock as RunningMock, 'after a worker died')).status).toBe(201);
    } finally {
      await mock?.stop();
    }
  });
});
