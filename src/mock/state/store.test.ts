import { describe, expect, it } from 'vitest';
import { Budget } from '../../bounds/budget.js';
import { SessionFullError } from '../../errors.js';
import { parseJson } from '../../json/lossless.js';
import { compareNames, type ListOrder } from '../../profile/profile.js';
import { SeedIndex } from './seed-index.js';
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

describe('MemoryPetStore as an overlay over a shared seed', () => {
  const many = Array.from({ length: 100_000 }, (_, index) => ({ id: index + 1, name: `Pet ${index + 1}`, categoryId: 1, status: 'sold' as const }));

  it('opens a session without copying the seed: a thousand stores over 100,000 pets take less memory than one copy of it', () => {
    const seed = new SeedIndex(many);
    const before = process.memoryUsage().heapUsed;
    const stores = Array.from({ length: 1_000 }, () => new MemoryPetStore(seed));
    const grown = process.memoryUsage().heapUsed - before;
    // One copy of the seed is its entries and their indexes, about 5 MB for 100,000 pets: a thousand copies, 5 GB.
    expect(grown).toBeLessThan(4_000_000);
    expect(stores.every((store) => store.size === many.length)).toBe(true);
  });

  it("keeps a session's changes to itself, shares the seed's JSON, and drops its changes on reset", () => {
    const seed = new SeedIndex(seed3());
    const [a, b] = [new MemoryPetStore(seed), new MemoryPetStore(seed)];
    a.create({ name: 'Rex', categoryId: 4, status: 'sold' });
    a.put([{ id: 2, name: 'Daisy again', categoryId: 2, status: 'pending' }]);
    expect(a.list(10).map((pet) => pet.name)).toEqual(['Gus', 'Daisy again', 'Buddy', 'Rex']);
    expect(a.list(10, 'sold').map((pet) => pet.name)).toEqual(['Rex']);
    expect(b.list(10).map((pet) => pet.name)).toEqual(['Gus', 'Daisy', 'Buddy']);
    expect(b.listJson(10, 'sold')).toBe('[{"id":2,"name":"Daisy","categoryId":2,"status":"sold"}]');
    // A seeded pet's JSON is made once, for every session.
    expect(a.petJson(1)).toBe(b.petJson(1));
    a.reset();
    expect(a.listJson(10)).toBe(b.listJson(10));
    expect(a.create({ name: 'Rex', categoryId: 4 }).id).toBe(4);
  });
});

function seed3(): StoredPet[] {
  return seed.map((pet) => ({ ...pet }));
}

/** A store as plainly as it can be written: every pet in a map, a page sorted and filtered from scratch. */
class Reference {
  readonly pets = new Map<string, StoredPet>();
  readonly given = new Set<string>();
  constructor(pets: readonly StoredPet[]) {
    for (const pet of pets) this.set(pet);
  }
  set(pet: StoredPet): void {
    this.pets.set(String(pet.id), pet);
    this.given.add(String(pet.id));
  }
  page(limit: number, status: string | undefined, order: ListOrder): StoredPet[] {
    const byId = (a: StoredPet, b: StoredPet) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const by = (field: 'name' | 'status') => (a: StoredPet, b: StoredPet) => compareNames(String(a[field] ?? ''), String(b[field] ?? '')) || byId(a, b);
    const compare = order === 'id-asc' ? byId : order === 'id-desc' ? (a: StoredPet, b: StoredPet) => byId(b, a) : by(order);
    return [...this.pets.values()]
      .filter((pet) => status === undefined || pet.status === status)
      .sort(compare)
      .slice(0, limit);
  }
}

describe('MemoryPetStore against a plain reference', () => {
  const STATUSES = ['available', 'pending', 'sold'] as const;
  /** A small deterministic generator (a linear congruential one), so that a failure replays. */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };

  it.each(['id-asc', 'id-desc', 'name', 'status'] as const)(
    'answers every page, pet and size as the reference does through creates, puts, replaces and removals, in %s order, never giving an id twice',
    (order) => {
      const draw = random(order.length);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(draw() * items.length)] as T;
      const pets = Array.from({ length: 40 }, (_, index) => ({
        id: index + 1,
        name: pick(['Rex', 'Gus', 'Alf', 'Max']),
        categoryId: 1,
        status: pick(STATUSES),
      }));
      const shared = new SeedIndex(pets, { order });
      const [store, other] = [new MemoryPetStore(shared), new MemoryPetStore(shared)];
      const reference = new Reference(pets);
      const given = new Set(pets.map((pet) => String(pet.id)));
      for (let step = 0; step < 400; step++) {
        const roll = draw();
        const existing = [...reference.pets.keys()];
        if (roll < 0.4) {
          const pet = store.create({ name: pick(['Bob', 'Rex', 'Zed']), categoryId: 2, status: pick([...STATUSES, undefined]) });
          expect(given.has(String(pet.id)), `id ${pet.id} given twice`).toBe(false);
          given.add(String(pet.id));
          reference.set(pet);
        } else if (roll < 0.55) {
          const id = draw() < 0.5 && existing.length > 0 ? Number(pick(existing)) : 100 + Math.floor(draw() * 100);
          const pet = { id, name: pick(['Put', 'Alf']), categoryId: 3, status: pick(STATUSES) };
          store.put([pet]);
          given.add(String(id));
          reference.set(pet);
        } else if (roll < 0.8 && existing.length > 0) {
          const id = pick(existing);
          expect(store.remove(Number(id))).toBe(true);
          expect(store.remove(Number(id))).toBe(false);
          reference.pets.delete(id);
        } else if (roll < 0.9 && existing.length > 0) {
          const id = pick(existing);
          const draft = { name: pick(['New', 'Abe']), categoryId: 4, status: pick([...STATUSES, undefined]) };
          const pet = store.replace(Number(id), draft);
          expect(pet).toEqual({ id: Number(id), ...draft });
          expect(store.replace(1000 + step, draft)).toBeUndefined();
          reference.pets.set(id, pet as StoredPet);
        } else if (roll < 0.92) {
          store.reset();
          reference.pets.clear();
          for (const pet of pets) reference.set(pet);
          given.clear();
          for (const pet of pets) given.add(String(pet.id));
        }
        const limit = 1 + Math.floor(draw() * 60);
        const status = pick([...STATUSES, undefined]);
        expect(store.list(limit, status), `step ${step}`).toEqual(reference.page(limit, status, order));
        expect(JSON.parse(store.listJson(limit, status))).toEqual(reference.page(limit, status, order));
        expect(store.size).toBe(reference.pets.size);
        const probe = 1 + Math.floor(draw() * 250);
        expect(store.get(probe)).toEqual(reference.pets.get(String(probe)));
      }
      // The other session over the same seed saw none of it.
      expect(other.list(100, undefined)).toEqual(new Reference(pets).page(100, undefined, order));
    },
  );

  it('saves what it changed and restores it into a fresh store: the same pets, and the next create numbered after every create, those removed too', () => {
    const store = new MemoryPetStore(seed3());
    const [first, second] = [store.create({ name: 'One', categoryId: 1, status: 'sold' }), store.create({ name: 'Two', categoryId: 1, status: 'sold' })];
    store.remove(second.id);
    store.remove(2);
    const saved = store.saved();
    expect(saved).toEqual({ created: [first], removed: [2], creates: 2 });
    const restarted = new MemoryPetStore(seed3());
    restarted.restore(saved);
    expect(restarted.list(10)).toEqual(store.list(10));
    expect(restarted.create({ name: 'Three', categoryId: 1, status: 'sold' }).id).toBe(6);
    expect(restarted.get(2)).toBeUndefined();
  });

  it('saves replaced pets, seeded and created, and restores them exactly: a replace then a removal saved as the removal alone', () => {
    const store = new MemoryPetStore(seed3());
    const created = store.create({ name: 'One', categoryId: 1, status: 'sold' });
    const createdAgain = store.replace(created.id, { name: 'Uno', categoryId: 2 });
    const seededAgain = store.replace(1, { name: 'Gus II', categoryId: 7, status: 'pending' });
    store.replace(3, { name: 'Gone', categoryId: 1, status: 'sold' });
    store.remove(3);
    const saved = store.saved();
    expect(saved).toEqual({ created: [createdAgain], removed: [3], creates: 1, replaced: [seededAgain] });
    const restarted = new MemoryPetStore(seed3());
    restarted.restore(saved);
    for (const status of [undefined, 'available', 'pending', 'sold'] as const) expect(restarted.list(10, status)).toEqual(store.list(10, status));
    expect(restarted.create({ name: 'Two', categoryId: 1 }).id).toBe(5);
    restarted.reset();
    expect(restarted.get(1)).toEqual(seed[0]);
  });

  it('numbers a create after a removed largest id over your own data, also after a restore', () => {
    const store = new MemoryPetStore([{ id: 10, name: 'Ten', categoryId: 1, status: 'sold' }], { givenIds: true });
    const eleven = store.create({ name: 'Eleven', categoryId: 1, status: 'sold' });
    store.remove(eleven.id);
    expect(store.create({ name: 'Twelve', categoryId: 1, status: 'sold' }).id).toBe(12);
    const restarted = new MemoryPetStore([{ id: 10, name: 'Ten', categoryId: 1, status: 'sold' }], { givenIds: true });
    restarted.restore(store.saved());
    expect(restarted.create({ name: 'Thirteen', categoryId: 1, status: 'sold' }).id).toBe(13);
  });
});

describe("a session's removals of seeded pets are in its budget (red team 10 #6)", () => {
  const many: StoredPet[] = Array.from({ length: 200 }, (_, index) => ({ id: index + 1, name: `pet${index}`, categoryId: 1, status: 'available' }));
  // A budget of a few tombstones stands for SESSION_PETS_BYTES: 16 MiB hold about 350,000 of them.
  const small = () => new Budget({ ownerBytes: 1_000, totalBytes: 1_000 }).share();

  it('refuses a delete past the cap with SessionFullError, removing nothing; a reset gives the room back', () => {
    const share = small();
    const store = new MemoryPetStore(new SeedIndex(many), {}, share);
    let removed = 0;
    expect(() => {
      for (const pet of many) if (store.remove(pet.id)) removed++;
    }).toThrow(SessionFullError);
    expect(removed).toBeGreaterThan(0);
    expect(removed).toBeLessThan(many.length);
    expect(share.bytes).toBeLessThanOrEqual(1_000);
    expect(store.size).toBe(many.length - removed);
    expect(store.get(removed + 1)).toBeDefined();
    store.reset();
    expect(share.bytes).toBe(0);
    expect(store.remove(1)).toBe(true);
  });

  it('counts a removal once: a removed pet put back, or a replaced one removed, leaves no tombstone counted twice', () => {
    const share = small();
    const store = new MemoryPetStore(new SeedIndex(many), {}, share);
    store.remove(1);
    const tombstone = share.bytes;
    expect(tombstone).toBeGreaterThan(0);
    store.put([{ id: 1, name: 'back', categoryId: 1, status: 'sold' }]);
    store.remove(1);
    expect(share.bytes).toBe(tombstone);
  });

  it('restores every removal a state file saved, whatever the budget', () => {
    const store = new MemoryPetStore(new SeedIndex(many), {}, small());
    store.restore({ created: [], removed: many.map((pet) => pet.id), creates: 0 });
    expect(store.size).toBe(0);
  });
});
