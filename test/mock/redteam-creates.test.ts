/**
 * Creates attacked from the outside: real servers on port 0, real HTTP, a redis-server of the test's
 * own. Each test is a defect found by a red-team pass over grouped creates (create-batch.ts).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/lossless.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { FULL_PAGE } from '../support/page-size.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

const KEY = 'Bearer petstore-dev-key';
const EDGE = 2n ** 62n;

/** A response's JSON with its ids exact (they pass 2^53 here). */
async function jsonOf(response: Response): Promise<unknown> {
  return parseJson(await response.text());
}

describe.each([
  ['in memory', () => ({})],
  ['on Redis', () => ({ store: redis.url, namespace: 'edge' })],
])('creates after pets put on both sides of 2^62 (%s)', (_, store) => {
  it('never give a created pet an id a pet of the session holds, nor one twice', async () => {
    const server = await startMockServer({ port: 0, count: 5, ...store() });
    try {
      const session = { 'x-mock-session': 'edge' };
      const put = await fetch(new URL('/__mock/pets', server.url), {
        method: 'POST',
        headers: { ...session, 'x-mock-admin': '1', 'content-type': 'application/json' },
        body: `[{"id":${EDGE - 3n},"name":"below","categoryId":1,"status":"sold"},{"id":${EDGE + 1n},"name":"above","categoryId":1,"status":"sold"}]`,
      });
      expect(put.status).toBe(200);
      const headers = { ...session, authorization: KEY, 'content-type': 'application/json' };
      // Sent together: on Redis, one batch (one script) makes them all.
      const created = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          fetch(`${server.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `made ${i}`, categoryId: 2, status: 'pending' }) }).then(
            async (response) => {
              expect(response.status).toBe(201);
              return (await jsonOf(response)) as { id: bigint | number; name: string };
            },
          ),
        ),
      );
      const ids = created.map((pet) => BigInt(pet.id));
      expect(new Set(ids).size).toBe(6);
      expect(ids).not.toContain(EDGE + 1n);
      expect(ids).not.toContain(EDGE - 3n);
      // The same ids in memory and on Redis: the next after the largest below 2^62, each pet put skipped.
      expect(ids.sort((a, b) => (a < b ? -1 : 1))).toEqual([EDGE - 2n, EDGE - 1n, EDGE, EDGE + 2n, EDGE + 3n, EDGE + 4n]);
      const above = await fetch(`${server.url}/pets/${EDGE + 1n}`, { headers });
      expect(await jsonOf(above)).toEqual({ id: EDGE + 1n, name: 'above', categoryId: 1, status: 'sold' });
      for (const pet of created) {
        const read = await fetch(`${server.url}/pets/${pet.id}`, { headers });
        expect(((await jsonOf(read)) as { name: string }).name).toBe(pet.name);
      }
      const list = (await jsonOf(await fetch(`${server.url}/pets?${FULL_PAGE}`, { headers }))) as { id: bigint | number }[];
      const listed = list.map((pet) => BigInt(pet.id));
      expect(new Set(listed).size).toBe(listed.length);
      expect(listed).toHaveLength(5 + 2 + 6);
    } finally {
      await server.close();
    }
  });
});

/** Creates into `--data` pets whose ids pass 2^62: each created pet's id, and the page of every pet. */
async function createdPastData(store: object): Promise<{ ids: bigint[]; listed: bigint[] }> {
  const data = [
    { id: EDGE - 1n, name: 'below', categoryId: 1, status: 'sold' as const },
    { id: EDGE + 1n, name: 'above', categoryId: 1, status: 'sold' as const },
  ];
  const server = await startMockServer({ port: 0, data, ...store });
  try {
    const headers = { authorization: KEY, 'content-type': 'application/json' };
    const created = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        fetch(`${server.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `made ${i}`, categoryId: 2 }) }).then(
          async (response) => (await jsonOf(response)) as { id: bigint | number },
        ),
      ),
    );
    const list = (await jsonOf(await fetch(`${server.url}/pets?${FULL_PAGE}`, { headers }))) as { id: bigint | number }[];
    return { ids: created.map((pet) => BigInt(pet.id)), listed: list.map((pet) => BigInt(pet.id)) };
  } finally {
    await server.close();
  }
}

const skipsData = ({ ids, listed }: { ids: bigint[]; listed: bigint[] }) => {
  expect(ids).not.toContain(EDGE + 1n);
  expect(listed).toEqual([EDGE - 1n, EDGE, EDGE + 1n, EDGE + 2n, EDGE + 3n, EDGE + 4n]);
};

describe('creates after --data pets on both sides of 2^62', () => {
  it('skip the ids of the data in memory', async () => {
    skipsData(await createdPastData({}));
  });

  // Not fixed: on Redis a created pet's id is the data's largest below 2^62 plus its number, so the
  // second create gets the id of the data's pet past 2^62, which is then listed twice (and out of order).
  it.fails('skip the ids of the data on Redis (known defect)', async () => {
    skipsData(await createdPastData({ store: redis.url, namespace: 'data-edge' }));
  });
});
