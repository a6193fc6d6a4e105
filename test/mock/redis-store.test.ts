import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/errors.js';
import { seededPets } from '../../src/fixtures/seed.js';
import { BIG_ID_OFFSET } from '../../src/fixtures/seeding.js';
import type { Pending } from '../../src/mock/core/pending.js';
import { SharedCoverage } from '../../src/mock/state/redis/redis-coverage.js';
import { connectRedisStore, displayUrl, type RedisStore, type RedisStoreOptions } from '../../src/mock/state/redis/redis-store.js';
import { MemoryPetStore, type PetDraft, type PetStore } from '../../src/mock/state/store.js';
import { PET_STATUSES } from '../../src/openapi/facts.js';
import type { PetStatus } from '../../src/types.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
const opened: RedisStore[] = [];
let namespaces = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());
afterEach(async () => {
  await Promise.all(opened.splice(0).map((state) => state.close()));
});

/** A fresh namespace per test, so tests never see each other's state. */
function options(overrides: Partial<RedisStoreOptions> = {}): RedisStoreOptions {
  return { url: redis.url, namespace: `t${++namespaces}`, seed: 1, count: 5, bigIds: false, sessionTtl: 60_000, maxSessions: 3, ...overrides };
}

/** A replica's view of the namespace: its own connection. */
async function replica(settings: RedisStoreOptions): Promise<RedisStore> {
  const state = await connectRedisStore(settings);
  opened.push(state);
  return state;
}

describe('the Redis store', () => {
  it('answers every page and pet as the in-memory store does, after the same creates', async () => {
    const settings = options({ count: 7 });
    const [a, b] = [await replica(settings), await replica(settings)];
    const memory = new MemoryPetStore(seededPets(1, 7));
    const statuses: PetStatus[] = ['sold', 'available', 'pending', 'sold', 'sold', 'available'];
    for (const [i, status] of statuses.entries()) {
      const draft = { name: `pet ${i} "quoted" é`, categoryId: i + 1, status };
      const stored = await (i % 2 === 0 ? a : b).store('default').create(draft);
      expect(stored).toEqual(memory.create(draft));
    }
    for (const limit of [1, 3, 7, 8, 13, 100]) {
      for (const status of [undefined, ...PET_STATUSES]) {
        expect(await b.store('default').listJson(limit, status), `limit ${limit} status ${status}`).toBe(memory.listJson(limit, status));
      }
    }
    for (const id of [0, 1, 7, 8, 13, 14, -1]) {
      expect(await a.store('default').petJson(id), `id ${id}`).toBe(memory.petJson(id));
      expect(await b.store('default').get(id)).toEqual(memory.get(id));
    }
    expect(await a.store('default').saved()).toEqual(memory.saved());
    expect(await b.store('default').list(9, 'sold')).toEqual(memory.list(9, 'sold'));
    expect(await b.store('default').size).toBe(13);
  });

  it('removes and replaces pets as the in-memory store does, every change read at once on the other replica, no id given twice', async () => {
    const settings = options({ count: 7 });
    const [a, b] = [await replica(settings), await replica(settings)];
    for (const session of ['default', 'alice']) {
      const memory = new MemoryPetStore(seededPets(1, 7));
      const stores = [a.store(session), b.store(session)] as const;
      const draft = (i: number): PetDraft => ({ name: `pet ${i}`, categoryId: i, status: PET_STATUSES[i % 3] as PetStatus });
      const steps: [string, (store: PetStore) => Pending<unknown>][] = [
        ['create', (store) => store.create(draft(1))],
        ['create', (store) => store.create(draft(2))],
        ['remove a seeded pet', (store) => store.remove(3)],
        ['remove a created pet', (store) => store.remove(9)],
        ['remove it again', (store) => store.remove(9)],
        ['remove an absent id', (store) => store.remove(42)],
        ['replace a seeded pet', (store) => store.replace(2, draft(3))],
        ['replace a created pet', (store) => store.replace(8, { name: 'no status', categoryId: 4 })],
        ['replace a removed pet', (store) => store.replace(3, draft(5))],
        ['replace an absent id', (store) => store.replace(40, draft(5))],
        ['create after removes', (store) => store.create(draft(6))],
        ['put over a removed pet', (store) => store.put([{ id: 3, ...draft(7) }])],
        ['remove the last created pet', (store) => store.remove(10)],
        ['create after it', (store) => store.create(draft(8))],
        ['remove a pet put', (store) => store.remove(3)],
      ];
      for (const [i, [step, change]] of steps.entries()) {
        const [writer, reader] = i % 2 === 0 ? stores : [stores[1], stores[0]];
        expect(await change(writer), `${session}: ${step}`).toEqual(await change(memory));
        for (const limit of [1, 3, 7, 20])
          for (const status of [undefined, ...PET_STATUSES])
            expect(await reader.listJson(limit, status), `${session}: ${step}, limit ${limit} status ${status}`).toBe(memory.listJson(limit, status));
        for (let id = 0; id <= 13; id++) expect(await reader.petJson(id), `${session}: ${step}, id ${id}`).toBe(memory.petJson(id));
        expect(await reader.size, `${session}: ${step}`).toBe(memory.size);
      }
      expect(await stores[1].saved()).toEqual(memory.saved());
      await stores[0].reset();
      expect(await stores[1].listJson(20)).toBe(new MemoryPetStore(seededPets(1, 7)).listJson(20));
    }
  });

  it('gives unique ids to creates racing on two replicas, each pet readable on both', async () => {
    const settings = options();
    const [a, b] = [await replica(settings), await replica(settings)];
    const made = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).store('default').create({ name: `n${i}`, categoryId: i, status: PET_STATUSES[i % 3] as PetStatus }),
      ),
    );
    const ids = made.map((pet) => Number(pet.id)).sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 200 }, (_, i) => 6 + i));
    for (const pet of made) {
      expect(await a.store('default').get(pet.id)).toEqual(pet);
      expect(await b.store('default').get(pet.id)).toEqual(pet);
    }
  });

  it('keeps ids and categoryIds beyond 2^53 exact with big ids', async () => {
    const state = await replica(options({ bigIds: true, count: 2 }));
    const categoryId = 2n ** 62n + 1n;
    const pet = await state.store('default').create({ name: 'Big', categoryId, status: 'sold' });
    expect(pet.id).toBe(BIG_ID_OFFSET + 3n);
    expect(await state.store('default').petJson(BIG_ID_OFFSET + 3n)).toBe(
      `{"id":9007199254740995,"name":"Big","categoryId":4611686018427387905,"status":"sold"}`,
    );
    expect(await state.store('default').get(BIG_ID_OFFSET + 1n)).toEqual(seededPets(1, 2, { bigIds: true })[0]);
    expect(await state.store('default').petJson(3)).toBeUndefined();
  });

  it('seeds an empty namespace exactly once when replicas start at the same moment, whatever each was told', async () => {
    // Seeding 12,000 pets while four more replicas wait may take a busy machine past the 3 s a command
    // gets by default, which is not what this tests: a minute, a hang's bound.
    const settings = options({ count: 12_000, commandTimeoutMs: 60_000 });
    const states = await Promise.all([1, 2, 3, 4, 5].map((seed) => replica({ ...settings, seed })));
    const recipes = states.map((state) => state.recipe);
    expect(new Set(recipes.map((recipe) => JSON.stringify(recipe))).size).toBe(1);
    const [first] = states as [RedisStore];
    const expected = new MemoryPetStore(seededPets(first.recipe.seed, 12_000));
    for (const state of states) expect(await state.store('default').listJson(100)).toBe(expected.listJson(100));
    expect(await first.store('default').petJson(12_000)).toBe(expected.petJson(12_000));
  });

  it('keeps namespaces apart on one Redis', async () => {
    const a = await replica(options());
    const b = await replica(options());
    await a.store('default').create({ name: 'Only in a', categoryId: 1, status: 'sold' });
    expect(await a.store('default').size).toBe(6);
    expect(await b.store('default').size).toBe(5);
  });

  it('gives each session its own pets, and a reset or a drop on one replica is seen by the other', async () => {
    const settings = options();
    const [a, b] = [await replica(settings), await replica(settings)];
    expect(await a.open('alice')).toBe(0);
    await a.store('alice').create({ name: 'Alice pet', categoryId: 1, status: 'sold' });
    // Opened first, as the mock opens every session before it writes: Redis keeps its name (as shown) only then, beside its digest.
    await b.open('bob');
    await b.store('bob').create({ name: 'Bob pet', categoryId: 1, status: 'sold' });
    expect(await b.store('alice').petJson(6)).toContain('Alice pet');
    expect(await a.store('default').size).toBe(5);
    await b.store('alice').reset();
    expect(await a.store('alice').size).toBe(5);
    expect((await a.sessions()).map((session) => session.name)).toEqual(['alice', 'bob']);
    expect(await a.drop('bob')).toBe(true);
    expect(await b.store('bob').size).toBe(5);
    expect((await b.sessions()).map((session) => session.name)).toEqual(['alice']);
    await b.store('default').create({ name: 'x', categoryId: 1, status: 'sold' });
    await a.resetAll();
    expect(await b.sessions()).toEqual([]);
    expect(await b.store('default').size).toBe(5);
  });

  it('caps the named sessions across replicas, and frees the cap when one expires', async () => {
    const settings = options({ maxSessions: 2, sessionTtl: 300 });
    const [a, b] = [await replica(settings), await replica(settings)];
    const racing = await Promise.all(['s1', 's2', 's3', 's4'].map((name, i) => (i % 2 ? a : b).open(name)));
    expect(racing.filter((offset) => offset === undefined)).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await a.open('s5')).toBe(0);
    expect((await b.sessions()).map((session) => session.name)).toEqual(['s5']);
  });

  it('shares each session clock between replicas', async () => {
    const settings = options();
    const [a, b] = [await replica(settings), await replica(settings)];
    expect(await a.setClock('default', 86_400_000)).toBe(true);
    expect(await b.open('default')).toBe(86_400_000);
    expect(await a.setClock('carol', -5)).toBe(true);
    expect(await b.open('carol')).toBe(-5);
    await b.setClock('carol', null);
    expect(await a.open('carol')).toBe(0);
  });

  it("sums the coverage of every replica, each report holding the asking replica's own counts at once", async () => {
    const settings = options();
    const [a, b] = [await replica(settings), await replica(settings)];
    const [onA, onB] = [new SharedCoverage('/v1', a, 60_000), new SharedCoverage('/v1', b, 60_000)];
    onA.record('listPets', 200, onA.enumValuesOf('listPets', 'status=sold'));
    onB.record('listPets', 200, []);
    onB.recordBody('createPet', { status: 'pending' });
    await onB.flush();
    const report = await onA.report();
    const listPets = report.operations.find((operation) => operation.operationId === 'listPets');
    expect(listPets?.statuses['200']).toBe(2);
    expect(listPets?.enums['query.status']?.sold).toBe(1);
    expect(report.operations.find((operation) => operation.operationId === 'createPet')?.enums['body.status']?.pending).toBe(1);
    await onB.clear();
    expect((await onA.report()).covered).toBe(0);
    await Promise.all([onA.close(), onB.close()]);
  });
});

describe('the Redis store when Redis is away', () => {
  it('refuses to start with an error naming the URL, never its password', async () => {
    const refused = connectRedisStore({ ...options({ connectTimeoutMs: 1_000 }), url: 'redis://user:s3cret-pw@127.0.0.1:1/2' });
    await expect(refused).rejects.toThrow(StoreUnavailableError);
    await expect(refused).rejects.toThrow(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1\/2: /);
    const message = await refused.catch((error: Error) => `${error.message} ${String(error.cause)}`);
    expect(message).not.toMatch(/s3cret|user/);
  });

  it('refuses URLs that are not Redis URLs', () => {
    expect(() => displayUrl('http://localhost:6379')).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(() => displayUrl('localhost')).toThrow(/not a URL/);
  });

  it('fails each call while Redis is down, recovers by itself, and keeps every acknowledged create (appendonly)', async () => {
    const durable = await startRedis({ appendonly: true });
    try {
      const state = await replica({ ...options(), url: durable.url });
      const store = state.store('default');
      const acknowledged = [];
      for (let i = 0; i < 20; i++) acknowledged.push(await store.create({ name: `before ${i}`, categoryId: i, status: 'available' }));
      await durable.kill();
      await expect(store.create({ name: 'lost?', categoryId: 1, status: 'sold' })).rejects.toThrow(StoreUnavailableError);
      await expect(store.listJson(100)).rejects.toThrow(/Redis at redis:\/\/127\.0\.0\.1:\d+, which does not answer/);
      await durable.restart();
      await expect.poll(() => store.size.catch(() => -1), { timeout: 5_000 }).toBeGreaterThanOrEqual(25);
      for (const pet of acknowledged) expect(await store.get(pet.id)).toEqual(pet);
      const after = await store.create({ name: 'after', categoryId: 1, status: 'sold' });
      expect(Number(after.id)).toBeGreaterThan(25);
    } finally {
      await durable.stop();
    }
  });
});
