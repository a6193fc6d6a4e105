/**
 * The request journal with `--store redis://` and `--workers`: the journal is the cluster's, not one
 * process's. Every fact of the journal holds on a Redis store; a request answered by one replica is
 * read from another; a --workers cluster's journal holds every request whichever worker answered it;
 * and no key reaches Redis. Needs `dist/` and Debian's redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry, JournalPage } from '../../src/mock/state/journal.js';
import { expectRequests } from '../../src/testing/index.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';
import { runJournalFacts } from '../support/journal-facts.js';
import { monitored, redisHost, startRedis, type TestRedis } from '../support/redis.js';

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
    mocks = await Promise.all(
      [0, 1].map(() => startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--namespace', namespace, '--journal-size', '5000'])),
    );
  });
  afterAll(() => Promise.all(mocks.map((mock) => mock.stop())));

  it('reads from one replica what the other answered, numbered by one counter', async () => {
    const [a, b] = mocks as [RunningMock, RunningMock];
    await fetch(`${a.url}/pets?limit=1`, { headers: AUTH });
    await fetch(`${b.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
    await fetch(`${a.url}/pets/1`, { headers: AUTH });
    // A read asks every replica: what either answered is listed at once, each replica's in its order.
    expect((await journal(b)).entries.map((entry) => `${entry.method} ${entry.path}`).sort()).toEqual(['GET /v1/pets', 'GET /v1/pets/1', 'POST /v1/pets']);
    const fromA = (await journal(b)).entries.filter((entry) => entry.method === 'GET').map((entry) => entry.path);
    expect(fromA).toEqual(['/v1/pets', '/v1/pets/1']);
    const { entries, last } = await journal(a);
    const ids = entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(3);
    expect(last).toBe(ids.at(-1));
    expect((await journal(a, `?since=${ids[0]}`)).entries.map((entry) => entry.id)).toEqual(ids.slice(1));
  });

  it('forgets on DELETE on every replica before it answers', async () => {
    const [a, b] = mocks as [RunningMock, RunningMock];
    await fetch(`${b.url}/pets/2`, { headers: AUTH });
    const cleared = await fetch(new URL('/__mock/requests', a.url), { method: 'DELETE', headers: { 'x-mock-admin': '1' } });
    expect(cleared.status).toBe(200);
    await fetch(`${b.url}/pets/3`, { headers: AUTH });
    expect((await journal(a)).entries.map((entry) => entry.path)).toEqual(['/v1/pets/3']);
  });

  it('lets pollers on both replicas, polling at once with since, see every entry exactly once', async () => {
    const [a, b] = mocks as [RunningMock, RunningMock];
    const seen = [new Map<number, string>(), new Map<number, string>()];
    let loading = true;
    const load = (async () => {
      for (let i = 0; loading; i++) await (await fetch(`${(i % 2 === 0 ? a : b).url}/pets?limit=${(i % 50) + 1}`, { headers: AUTH })).arrayBuffer();
    })();
    const poll = async (mock: RunningMock, into: Map<number, string>) => {
      let since = 0;
      for (let round = 0; round < 40; round++) {
        const page = await journal(mock, `?since=${since}`);
        for (const entry of page.entries) {
          expect(into.has(entry.id)).toBe(false);
          into.set(entry.id, `${entry.query}`);
        }
        since = page.last;
      }
      return since;
    };
    const lasts = await Promise.all([poll(a, seen[0] as Map<number, string>), poll(b, seen[1] as Map<number, string>)]);
    loading = false;
    await load;
    // Everything numbered up to each poller's last read (the journal is larger than the load's requests).
    const whole = new Map((await journal(a)).entries.map((entry) => [entry.id, entry.query]));
    for (const [i, last] of lasts.entries()) {
      const expected = [...whole].filter(([id]) => id <= last);
      expect([...(seen[i] as Map<number, string>)].sort(([x], [y]) => x - y)).toEqual(expected);
    }
  });
});

describe('a replica stopped with its connection open (SIGSTOP)', () => {
  let mocks: RunningMock[];
  beforeAll(async () => {
    const namespace = `frozen${++namespaces}`;
    mocks = await Promise.all([0, 1].map(() => startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--namespace', namespace])));
  });
  afterAll(() => Promise.all(mocks.map((mock) => mock.stop())));

  it('makes a read a 503 that says so, never a page that a poller would miss its entries by, and reads list them once it goes on', async () => {
    const [a, b] = mocks as [RunningMock, RunningMock];
    await fetch(`${b.url}/pets/4`, { headers: AUTH });
    await fetch(`${a.url}/pets/5`, { headers: AUTH });
    b.child.kill('SIGSTOP');
    try {
      const response = await fetch(new URL('/__mock/requests', a.url));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'service_unavailable', message: expect.stringMatching(/1 of the 2 replicas heard the read/) });
    } finally {
      b.child.kill('SIGCONT');
    }
    expect((await journal(a)).entries.map((entry) => entry.path).sort()).toEqual(['/v1/pets/4', '/v1/pets/5']);
  });

  it("lets expectRequests with `within` read through it over HTTP, and list the stopped replica's request once it goes on", async () => {
    const [a, b] = mocks as [RunningMock, RunningMock];
    await fetch(`${b.url}/pets/6`, { headers: AUTH });
    b.child.kill('SIGSTOP');
    const goesOn = setTimeout(() => b.child.kill('SIGCONT'), 1_500);
    try {
      const found = await expectRequests(a.url, { within: 10_000 }).toInclude({ path: '/v1/pets/6' });
      expect(found).toHaveLength(1);
    } finally {
      clearTimeout(goesOn);
      b.child.kill('SIGCONT');
    }
  });
});

describe('--workers 2 on Redis, a journal at its bound read by 10 clients at once', () => {
  let cluster: RunningMock;
  beforeAll(async () => {
    cluster = await startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--namespace', `full${++namespaces}`, '--workers', '2']);
  });
  afterAll(() => cluster.stop());

  it('answers each read 200 with the journal: a replica busy making other reads is not one stopped (fifth attack, #11: half were a 503)', async () => {
    // 1,000 requests with targets of 8 KB (16 KB as a ring counts them), over fresh connections so that both workers
    // answer some: each worker's ring at its 4 MiB.
    const filler = 'a'.repeat(8_000);
    let sent = 0;
    const send = async () => {
      while (sent < 1_000) await (await fetch(`${cluster.url}/pets?limit=1&x=${filler}${sent++}`, { headers: { ...AUTH, connection: 'close' } })).arrayBuffer();
    };
    await Promise.all(Array.from({ length: 4 }, send));
    const reads = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const response = await fetch(new URL('/__mock/requests', cluster.url));
        const text = await response.text();
        return {
          status: response.status,
          text: response.status === 200 ? '' : text,
          entries: response.status === 200 ? (JSON.parse(text) as JournalPage).entries.length : 0,
        };
      }),
    );
    expect(reads.filter((read) => read.status !== 200)).toEqual([]);
    for (const read of reads) expect(read.entries).toBeGreaterThan(100);
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
    // `within` bounds a hang, not a speed: on a busy machine a read of every worker may be a 503 for a while.
    const entries = await expectRequests(cluster.url, { within: 15_000 }).toInclude({ method: 'POST', path: '/v1/pets', status: 201 }).times(20);
    expect(new Set(entries.map((entry: JournalEntry) => entry.body)).size).toBe(20);
    await expectRequests(cluster.url)
      .toInclude({ body: { name: 'Pet 7' } })
      .times(1);
  });

  it('costs Redis nothing as requests are answered, and sends no key through Redis when it is read', async () => {
    const namespace = `workers${namespaces}`;
    const answering = await monitored(redis, async () => {
      for (let i = 0; i < 20; i++) await (await fetch(`${cluster.url}/pets/7`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer();
    });
    expect(answering.filter((line) => line.includes(`${namespace}:journal`))).toEqual([]);
    const reading = await monitored(redis, async () => {
      await fetch(`${cluster.url}/pets?token=${encodeURIComponent(key)}`, { headers: { authorization: `Bearer ${key}`, prefer: `code=${key}` } });
      await expectRequests(cluster.url, { within: 15_000 }).toInclude({ query: { token: '***' } });
    });
    const sent = reading.filter((line) => line.includes(`${namespace}:journal`));
    // The question and every worker's answer went through Redis: what would have carried a key.
    expect(sent.filter((line) => line.includes('"publish"')).length).toBeGreaterThanOrEqual(3);
    expect(sent.join('\n')).toContain('token=***');
    const all = reading.join('\n');
    for (const form of [key, encodeURIComponent(key), btoa(key), JSON.stringify(key).slice(1, -1)]) expect(all).not.toContain(form);
  });
});
