import { describe, expect, it } from 'vitest';
import { savedChanges } from './saved-changes.js';
import { MemoryPetStore, type StoredPet } from './store.js';

const seed: StoredPet[] = [{ id: 1, name: 'Seed', categoryId: 1, status: 'available' }];
const draft = (name: string) => ({ name, categoryId: 1, status: 'sold' as const });

describe('savedChanges', () => {
  it('makes the change and answers only once it is saved', async () => {
    const store = new MemoryPetStore(seed);
    const saved: number[] = [];
    const change = savedChanges(store, async ({ created }) => {
      saved.push(created.length);
    });
    expect(await change(() => store.create(draft('Rex')).id)).toEqual({ value: 2 });
    expect(saved).toEqual([1]);
  });

  it('undoes a change whose save fails, and keeps the changes saved before and after it, even when they run at once', async () => {
    const store = new MemoryPetStore(seed);
    const change = savedChanges(store, async ({ created }) => {
      if (created.some((pet) => pet.name === 'Lost')) throw new Error('disk full');
    });
    const create = (name: string) => change(() => store.create(draft(name)));
    const [before, failed, after] = await Promise.all([create('Before'), create('Lost'), create('After')]);
    expect(before).toMatchObject({ value: { id: 2 } });
    expect('error' in failed && failed.error.status).toBe(500);
    expect('error' in failed && failed.error.body).toContain('disk full');
    expect(after).toMatchObject({ value: { id: 3, name: 'After' } });
    expect(store.list(10).map((pet) => [pet.id, pet.name])).toEqual([
      [1, 'Seed'],
      [2, 'Before'],
      [3, 'After'],
    ]);
  });

  it('without a save, only makes the change', async () => {
    const store = new MemoryPetStore(seed);
    expect(await savedChanges(store, undefined)(() => store.create(draft('Rex')).name)).toEqual({ value: 'Rex' });
  });
});
