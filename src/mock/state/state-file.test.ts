import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededPets } from '../../fixtures/seed.js';
import { openStateFile, type StateOrigin } from './state-file.js';
import { MemoryPetStore } from './store.js';

const origin: StateOrigin = { seed: 1, count: 5, idOffset: undefined };
let dir: string;
let path: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-state-'));
  path = join(dir, 'state.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A store of the seed that a change, then `save`s it, as the mock does before it answers. */
async function saveAfter(change: (store: MemoryPetStore) => void): Promise<MemoryPetStore> {
  const store = new MemoryPetStore(seededPets(1, 5));
  change(store);
  const file = await openStateFile(path, origin);
  await file.writer.save(store.saved());
  await file.close();
  return store;
}

describe('the state file', () => {
  it('keeps removals across a restart: a removed seeded pet stays gone, and no id is given twice', async () => {
    const before = await saveAfter((store) => {
      store.create({ name: 'Six', categoryId: 1, status: 'sold' });
      const seven = store.create({ name: 'Seven', categoryId: 1, status: 'sold' });
      store.create({ name: 'Eight', categoryId: 1, status: 'sold' });
      store.remove(seven.id);
      store.remove(2);
    });
    const file = await openStateFile(path, origin);
    await file.close();
    const after = new MemoryPetStore(seededPets(1, 5));
    after.restore(file.saved);
    expect(after.list(20)).toEqual(before.list(20));
    expect(after.list(20).map((pet) => pet.id)).toEqual([1, 3, 4, 5, 6, 8]);
    expect(after.create({ name: 'Nine', categoryId: 1, status: 'sold' }).id).toBe(9);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ version: 2, removed: [2], creates: 3 });
  });

  it('keeps replacements across a restart, of seeded and created pets alike, in version 3', async () => {
    const before = await saveAfter((store) => {
      const six = store.create({ name: 'Six', categoryId: 1, status: 'sold' });
      store.replace(six.id, { name: 'Six again', categoryId: 2 });
      store.replace(3, { name: 'Three again', categoryId: 4, status: 'pending' });
      store.replace(4, { name: 'Four, then gone', categoryId: 4, status: 'pending' });
      store.remove(4);
    });
    const file = await openStateFile(path, origin);
    await file.close();
    const after = new MemoryPetStore(seededPets(1, 5));
    after.restore(file.saved);
    for (const status of [undefined, 'available', 'pending', 'sold'] as const) expect(after.list(20, status)).toEqual(before.list(20, status));
    expect(after.get(3)).toEqual({ id: 3, name: 'Three again', categoryId: 4, status: 'pending' });
    expect(after.get(4)).toBeUndefined();
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({
      version: 3,
      created: [{ id: 6, name: 'Six again', categoryId: 2 }],
      removed: [4],
      replaced: [{ id: 3, name: 'Three again' }],
    });
  });

  it('writes version 1, as earlier releases read it, while nothing was removed', async () => {
    await saveAfter((store) => store.create({ name: 'Six', categoryId: 1, status: 'sold' }));
    const saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved).toEqual({ format: 'petstore-mock-state', version: 1, seed: 1, count: 5, created: [{ id: 6, name: 'Six', categoryId: 1, status: 'sold' }] });
  });

  it.each([
    ['a removed id that is not seeded', { removed: [9], creates: 0 }, /removed\[0\] is not the id of a seeded pet/],
    [
      'a created id no create gave',
      { created: [{ id: 9, name: 'Nine', categoryId: 1, status: 'sold' }], creates: 2 },
      /created\[0\] has id 9, not 6 or a later created id/,
    ],
    [
      'fewer creates than created pets',
      { created: [{ id: 6, name: 'Six', categoryId: 1, status: 'sold' }], creates: 0 },
      /"creates" is not a count of 1 or more/,
    ],
    ['a replaced id that is not seeded', { replaced: [{ id: 9, name: 'Nine', categoryId: 1 }], creates: 0 }, /replaced\[0\] is not a seeded pet still there/],
    [
      'a replaced pet also removed',
      { replaced: [{ id: 2, name: 'Two', categoryId: 1 }], removed: [2], creates: 0 },
      /replaced\[0\] is not a seeded pet still there/,
    ],
    ['a replaced pet that is no Pet', { replaced: [{ id: 2, name: 2, categoryId: 1 }], creates: 0 }, /replaced\[0\] is not a valid Pet/],
  ])('refuses %s, naming it', async (_what, fields, problem) => {
    await writeFile(path, JSON.stringify({ format: 'petstore-mock-state', version: 3, seed: 1, count: 5, created: [], removed: [], ...fields }));
    await expect(openStateFile(path, origin)).rejects.toThrow(problem);
  });
});
