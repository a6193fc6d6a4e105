import { describe, expect, it } from 'vitest';
import { parseJson } from '../../json/lossless.js';
import { MemoryPetStore, type StoredPet } from './store.js';

const seed: StoredPet[] = [
  { id: 1, name: 'Gus', categoryId: 1, status: 'available' },
  { id: 2, name: 'Daisy', categoryId: 2, status: 'sold' },
  { id: 3, name: 'Buddy', categoryId: 3, status: 'available' },
];

describe('MemoryPetStore', () => {
  it('lists pets in id order, at most limit of them', () => {
    const store = new MemoryPetStore(seed);
    expect(store.list(2).map((pet) => pet.id)).toEqual([1, 2]);
    expect(store.list(100).map((pet) => pet.id)).toEqual([1, 2, 3]);
  });

  it('filters by status through its index, in id order', () => {
    const store = new MemoryPetStore(seed);
    store.create({ name: 'Rex', categoryId: 4, status: 'available' });
    expect(store.list(10, 'available').map((pet) => pet.id)).toEqual([1, 3, 4]);
    expect(store.list(1, 'available').map((pet) => pet.id)).toEqual([1]);
    expect(store.list(10, 'pending')).toEqual([]);
  });

  it('keeps each page of each status apart in its cache of serialized pages', () => {
    const store = new MemoryPetStore(seed);
    for (const round of [1, 2]) {
      for (const status of [undefined, 'available', 'pending', 'sold'] as const) {
        for (let limit = 0; limit <= 4; limit++) expect(parseJson(store.listJson(limit, status)), `round ${round}`).toEqual(store.list(limit, status));
      }
    }
  });

  it('assigns the next id on create and finds pets by id', () => {
    const store = new MemoryPetStore(seed);
    const pet = store.create({ name: 'Rex', categoryId: 2n ** 60n, status: 'pending' });
    expect(pet.id).toBe(4);
    expect(store.get(4)).toBe(pet);
    expect(store.get(4n)).toBe(pet);
    for (const absent of [0, -1, 5, 2n ** 63n - 1n]) expect(store.get(absent)).toBeUndefined();
  });

  it('serializes pets exactly, bigint categoryIds included', () => {
    const store = new MemoryPetStore(seed);
    store.create({ name: 'Big', categoryId: 2n ** 62n, status: 'sold' });
    expect(store.petJson(4)).toBe('{"id":4,"name":"Big","categoryId":4611686018427387904,"status":"sold"}');
    expect(parseJson(store.listJson(2, 'sold'))).toEqual([seed[1], { id: 4, name: 'Big', categoryId: 2n ** 62n, status: 'sold' }]);
    expect(store.listJson(5, 'pending')).toBe('[]');
  });

  it('lists a new pet, and no longer lists it after reset, in a page it served before', () => {
    const store = new MemoryPetStore(seed);
    expect(store.listJson(10, 'sold')).toBe('[{"id":2,"name":"Daisy","categoryId":2,"status":"sold"}]');
    store.create({ name: 'Rex', categoryId: 4, status: 'sold' });
    expect(store.listJson(10, 'sold')).toBe('[{"id":2,"name":"Daisy","categoryId":2,"status":"sold"},{"id":4,"name":"Rex","categoryId":4,"status":"sold"}]');
    store.reset();
    expect(store.listJson(10, 'sold')).toBe('[{"id":2,"name":"Daisy","categoryId":2,"status":"sold"}]');
  });

  it('goes back to the seeded pets on reset', () => {
    const store = new MemoryPetStore(seed);
    store.create({ name: 'Rex', categoryId: 4, status: 'sold' });
    store.reset();
    expect(store.size).toBe(3);
    expect(store.list(10, 'sold').map((pet) => pet.id)).toEqual([2]);
    expect(store.create({ name: 'Rex', categoryId: 4, status: 'sold' }).id).toBe(4);
  });

  it('refuses seed pets whose ids are not 1..n in order', () => {
    expect(() => new MemoryPetStore([{ id: 2, name: 'Gus', categoryId: 1, status: 'sold' }])).toThrow(/ids in order from 1/);
  });

  it('numbers pets from idOffset + 1 with an offset, finding them by exact bigint ids', () => {
    const offset = 2n ** 53n;
    const store = new MemoryPetStore(
      seed.map((pet) => ({ ...pet, id: offset + BigInt(pet.id) })),
      { idOffset: offset },
    );
    const pet = store.create({ name: 'Rex', categoryId: 4, status: 'pending' });
    expect(pet.id).toBe(offset + 4n);
    expect(store.get(offset + 4n)).toBe(pet);
    expect(store.petJson(offset + 1n)).toBe('{"id":9007199254740993,"name":"Gus","categoryId":1,"status":"available"}');
    expect(store.listJson(1, 'pending')).toBe('[{"id":9007199254740996,"name":"Rex","categoryId":4,"status":"pending"}]');
    // What a client that parsed the id into a double would ask for: never the pet it meant.
    for (const absent of [Number(offset + 1n), 1, 4, offset, offset + 5n, 2n ** 63n - 1n]) expect(store.get(absent)).toBeUndefined();
    expect(() => new MemoryPetStore(seed, { idOffset: offset })).toThrow(/ids in order from 9007199254740993/);
  });
});

describe('MemoryPetStore under a profile', () => {
  const pets = [
    { id: 1, name: 'Rex', categoryId: 1, status: 'sold' },
    { id: 2, name: 'Alf', categoryId: 1, status: 'available' },
    { id: 3, name: 'Max', categoryId: 1, status: 'pending' },
  ] as const;

  it.each([
    ['id-asc', [1, 2, 3]],
    ['id-desc', [3, 2, 1]],
    ['name', [2, 3, 1]],
    ['status', [2, 3, 1]],
  ] as const)('lists in %s order, and keeps it after a create', (order, ids) => {
    const store = new MemoryPetStore(pets, { order });
    expect(store.list(10).map((pet) => pet.id)).toEqual(ids);
    store.create({ name: 'Bob', categoryId: 1, status: 'sold' });
    expect(store.list(10)).toHaveLength(4);
    expect(store.list(2, 'sold').map((pet) => pet.name)).toEqual(order === 'id-desc' ? ['Bob', 'Rex'] : order === 'name' ? ['Bob', 'Rex'] : ['Rex', 'Bob']);
  });

  it('keeps a pet created without a status without one, out of every filtered page', () => {
    const store = new MemoryPetStore(pets);
    const pet = store.create({ name: 'Nil', categoryId: 1 });
    expect(JSON.parse(store.petJson(pet.id) ?? '')).toEqual({ id: 4, name: 'Nil', categoryId: 1 });
    expect(store.list(10, 'available').map((listed) => listed.id)).toEqual([2]);
  });

  it('puts pets into a large store in O(pets put): order, filters and lookups right, ids read a few times per pet put', () => {
    const statuses = ['available', 'pending', 'sold'] as const;
    // Every read of a pet's id is counted: a sort or re-index of all the pets would read each one's.
    let reads = 0;
    const counted = (id: number, name: string, status: (typeof statuses)[number]): StoredPet => ({
      get id() {
        reads++;
        return id;
      },
      name,
      categoryId: 1,
      status,
    });
    const count = 20_000;
    // Even ids only, so that a put can land between two pets as well as past the last.
    const store = new MemoryPetStore(
      Array.from({ length: count }, (_, i) => counted(2 * (i + 1), `pet ${i}`, statuses[i % 3] as (typeof statuses)[number])),
      { givenIds: true },
    );
    store.put([counted(1, 'first put', 'sold')]); // the first put indexes the pets by id, once
    reads = 0;
    const put = [counted(5, 'between 4 and 6', 'pending'), counted(2 * count + 2, 'past the last', 'available'), counted(8, 'replaces 8', 'sold')];
    store.put(put);
    // A binary search is 15 reads in 20,000 pets; a few searches per pet put, where a sort reads every pet's id many times.
    expect(reads).toBeLessThan(put.length * 8 * Math.ceil(Math.log2(count)));
    expect(store.size).toBe(count + 3);
    expect(store.list(5).map((pet) => [pet.id, pet.name])).toEqual([
      [1, 'first put'],
      [2, 'pet 0'],
      [4, 'pet 1'],
      [5, 'between 4 and 6'],
      [6, 'pet 2'],
    ]);
    expect(store.get(8)?.name).toBe('replaces 8');
    expect(store.get(2 * count + 2)?.name).toBe('past the last');
    // Pet 8 was available; now it is sold, and each status lists its pets in id order.
    expect(store.list(3, 'sold').map((pet) => pet.id)).toEqual([1, 6, 8]);
    expect(store.list(3, 'pending').map((pet) => pet.id)).toEqual([4, 5, 10]);
    const available = store.list(count, 'available').map((pet) => Number(pet.id));
    expect(available.at(-1)).toBe(2 * count + 2);
    expect(available).toEqual([...available].sort((a, b) => a - b));
    // A pet created now is numbered after the largest id.
    expect(store.create({ name: 'new', categoryId: 1, status: 'sold' }).id).toBe(2 * count + 3);
    // Seeding and indexing 20,000 pets whose ids count their reads takes a few seconds on a busy machine.
  }, 60_000);
});
