/**
 * The request journal with `--store redis://` and `--workers`: the journal is the cluster's, not one
 * process's. Every fact of the journal holds on a Redis store; a request answered by one replica is
 * read from another; a --workers cluster's journal holds every request whichever worker answered it;
 * and no key reaches Redis. Needs `dist/` and Debian's redis-server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry, JournalPage } from '../../src/mock/state/journal.js';
import { expectRequests } from '../../src/testing/index.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';
import { runJournalFacts } from '../support/journal-facts.js';
import { redisHost, startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
let namespaces = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

runJournalFacts(
  'Node server on Redis',
  redisHost(() => redis),
);

async function journal(mock: RunningMock, query = ''): Promise<JournalPage> {
  const response = await fetch(new URL(`/__mock/requests${query}`, mock.url));
  expect(response.status).toBe(200);
  return (await response.json()) as JournalPage;
}

describe('two replicas on one Redis', () => {
  let mocks: RunningMock[];
  beforeAll(async () => {
    const namespace = `replicas${++namespaces}`;
    mocks = await Promise.all([0, 1].map(() => startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--namespace', namespace])));
  });
  afterAll(() => Promise.all(mocks.map((mock) => mock.stop())));

  it('reads from one replica what the other answered, numbered by one counter', async () => {
    const [a, b] = mocks as [RunningMock, RunningMock];
    await fetch(`${a.url}/pets?limit=1`, { headers: AUTH });
    await fetch(`${b.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
    await fetch(`${a.url}/pets/1`, { headers: AUTH });
    // b wrote its own before it read; a's reach Redis once its responses are sent. Entries are numbered
    // as they reach Redis: a's and b's, written by two processes a moment apart, may come in either
    // order (docs/mock-journal.md), a's two in theirs.
    await expect
      .poll(async () => (await journal(b)).entries.map((entry) => `${entry.method} ${entry.path}`).sort(), { timeout: 5_000 })
      .toEqual(['GET /v1/pets', 'GET /v1/pets/1', 'POST /v1/pets']);
    const fromA = (await journal(b)).entries.filter((entry) => entry.method === 'GET').map((entry) => entry.path);
    expect(fromA).toEqual(['/v1/pets', '/v1/pets/1']);
    const { entries, last } = await journal(a);
    const ids = entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(3);
    expect(last).toBe(ids.at(-1));
    expect((await journal(a, `?since=${ids[0]}`)).entries.map((entry) => entry.id)).toEqual(ids.slice(1));
  });
});

describe('--workers 2 on Redis', () => {
  let cluster: RunningMock;
  const key = 'cluster-k3y+/=';
  beforeAll(async () => {
    cluster = await startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--namespace', `workers${++namespaces}`, '--workers', '2', '--api-key', key]);
  });
  afterAll(() => cluster.stop());

  it("journals every request whichever worker answered it, and expectRequests reads the cluster's journal", async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // Fresh connections, so that both workers answer some.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${cluster.url}/pets`, {
          method: 'POST',
          headers: { ...headers, connection: 'close' },
          body: JSON.stringify({ name: `Pet ${i}`, categoryId: 1 }),
        }),
      ),
    );
    const entries = await expectRequests(cluster.url, { within: 5_000 }).toInclude({ method: 'POST', path: '/v1/pets', status: 201 }).times(20);
    expect(new Set(entries.map((entry: JournalEntry) => entry.body)).size).toBe(20);
    await expectRequests(cluster.url)
      .toInclude({ body: { name: 'Pet 7' } })
      .times(1);
  });

  it('writes no key into Redis, in any form', async () => {
    await fetch(`${cluster.url}/pets?token=${encodeURIComponent(key)}`, { headers: { authorization: `Bearer ${key}`, prefer: `code=${key}` } });
    await expectRequests(cluster.url, { within: 5_000 }).toInclude({ query: { token: '***' } });
    const client = new Redis(redis.url);
    try {
      const lists = await client.keys('workers*:journal:s:*');
      expect(lists.length).toBeGreaterThan(0);
      const stored = (await Promise.all(lists.map((list) => client.lrange(list, 0, -1)))).flat().join('\n');
      for (const form of [key, encodeURIComponent(key), btoa(key)]) expect(stored).not.toContain(form);
    } finally {
      client.disconnect();
    }
  });
});
