/**
 * The cluster's journal (`--store redis://`) under attack: what an outsider tried, and the defects it
 * found, each pinned by a test. Real servers on port 0, real HTTP, a redis-server of the test's own.
 * Needs `dist/` and Debian's redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import type { JournalEntry, JournalPage } from '../../src/mock/state/journal.js';
import { monitored, published, startRedis, type TestRedis } from '../support/redis.js';

let namespaces = 0;

async function journal(server: MockServer, query = ''): Promise<{ status: number; page: JournalPage }> {
  const response = await fetch(new URL(`/__mock/requests${query}`, server.url));
  const page = (await response.json()) as JournalPage;
  return { status: response.status, page };
}

describe('a filter that holds the key', () => {
  let redis: TestRedis;
  let server: MockServer;
  const key = 'f1lter-k3y+/=';
  beforeAll(async () => {
    redis = await startRedis();
    server = await startMockServer({ port: 0, store: redis.url, namespace: `filters${++namespaces}`, apiKey: key });
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  it('is applied by the replica read, so that no key goes through Redis, and filters as before', async () => {
    const auth = { authorization: `Bearer ${key}` };
    await (await fetch(new URL(`/v1/pets/${encodeURIComponent(key)}`, server.url), { headers: auth })).arrayBuffer();
    await (await fetch(new URL('/v1/pets/1', server.url), { headers: auth })).arrayBuffer();
    await (await fetch(new URL('/v1/pets?limit=1', server.url), { headers: auth })).arrayBuffer();
    const found: (readonly JournalEntry[])[] = [];
    const lines = await monitored(redis, async () => {
      for (const query of [`?path=/v1/pets/${encodeURIComponent(key)}*`, `?method=${encodeURIComponent(btoa(key))}`, `?operation=${encodeURIComponent(key)}`])
        found.push((await journal(server, query)).page.entries);
      found.push(await server.mock.requests({ path: `*${JSON.stringify(key).slice(1, -1)}*` }));
      found.push(await server.mock.requests({ path: '/v1/pets/*', method: 'get', status: '2xx' }));
    });
    // Redis carried the questions and the answers of five reads...
    expect(lines.filter((line) => line.includes('"publish"')).length).toBeGreaterThanOrEqual(10);
    const all = lines.join('\n');
    for (const form of [key, encodeURIComponent(key), btoa(key), JSON.stringify(key).slice(1, -1)]) expect(all).not.toContain(form);
    // ...and each filter matched what it matches in memory: an entry shows the key as ***, so a filter naming it matches none.
    expect(found.slice(0, 4).map((entries) => entries.length)).toEqual([0, 0, 0, 0]);
    expect(found[4]?.map((entry) => entry.path)).toEqual(['/v1/pets/1']);
  });
});

describe('a read while Redis was paused', () => {
  let redis: TestRedis;
  let server: MockServer;
  beforeAll(async () => {
    redis = await startRedis();
    server = await startMockServer({ port: 0, store: redis.url, namespace: `paused${++namespaces}`, storeTimeout: 300 });
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  it('is a 503, and leaves no lock behind to stall the reads once Redis is back', async () => {
    expect((await journal(server)).status).toBe(200);
    redis.pause();
    try {
      const away = await journal(server);
      expect(away.status).toBe(503);
      expect(away.page).toMatchObject({ code: 'service_unavailable', status: 503 });
    } finally {
      redis.resume();
    }
    // The read's SET of the lock, sent while Redis was paused, ran once it was back: it must not hold
    // the journal for LOCK_MS (3 s) for a read that already gave up. A read held up by it tries its SET
    // again every 3 ms; one that is not takes the lock at once: one SET of the lock, or two if the one
    // that gave up reached Redis only now.
    let back: { status: number } = { status: 0 };
    const lines = await monitored(redis, async () => {
      back = await journal(server);
    });
    expect(back.status).toBe(200);
    expect(lines.filter((line) => /"set" "[^"]*journal:lock"/i.test(line)).length).toBeLessThanOrEqual(2);
  });
});

describe('an answer larger than Redis lets a subscriber fall behind', () => {
  const ENTRIES = 64;
  let redis: TestRedis;
  let server: MockServer;
  beforeAll(async () => {
    // Redis closes a subscriber whose unread messages pass this limit (32 MB by default: a --journal-size
    // of 2 000 with bodies of control characters, which JSON writes 6 characters each, passed it). Set to
    // 1 MB here, an answer of 64 such bodies (1.5 MB) passes it, and takes little time to make and read.
    redis = await startRedis({ args: ['--client-output-buffer-limit', 'pubsub 1mb 1mb 0'] });
    server = await startMockServer({ port: 0, store: redis.url, namespace: `large${++namespaces}`, journalSize: ENTRIES });
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  it('still reaches the reader: every entry listed, none skipped by last', async () => {
    const body = '\u0001'.repeat(4096);
    const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' };
    let sent = 0;
    const send = async () => {
      while (sent < ENTRIES) {
        sent++;
        await (await fetch(new URL('/v1/pets', server.url), { method: 'POST', headers, body })).arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 8 }, send));
    const { status, page } = await journal(server);
    expect(status).toBe(200);
    expect(page.entries.length).toBe(ENTRIES);
    expect(page.entries[0]?.body?.length).toBe(4096);
    expect(page.last).toBe(page.entries.at(-1)?.id);
  });
});

describe('a client that watches every channel (PSUBSCRIBE *)', () => {
  let redis: TestRedis;
  let server: MockServer;
  beforeAll(async () => {
    redis = await startRedis();
    server = await startMockServer({ port: 0, store: redis.url, namespace: `watched${++namespaces}` });
  });
  afterAll(async () => {
    await server.close();
    await redis.stop();
  });

  it('is no replica: reads are answered while it listens, and list what was answered', async () => {
    await (await fetch(new URL('/v1/pets/2', server.url), { headers: { authorization: 'Bearer petstore-dev-key' } })).arrayBuffer();
    // PUBLISH counts a pattern subscriber as a receiver: a read that waited for it to answer was a 503 after a second.
    const messages = await published(redis, async () => {
      const { status, page } = await journal(server);
      expect(status).toBe(200);
      expect(page.entries.map((entry) => entry.path)).toEqual(['/v1/pets/2']);
    });
    expect(messages).toContain('journal:ask');
  });
});
