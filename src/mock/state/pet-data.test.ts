import { describe, expect, it } from 'vitest';
import { checkPets } from './pet-data.js';
import { petDataHash, readPetData } from './pet-data-file.js';
import { MemoryPetStore } from './store.js';

const MAX = 2n ** 63n - 1n;

describe('checkPets and readPetData', () => {
  it('reads JSON and YAML to the same pets, in id order, with the same hash', async () => {
    const json = await readPetData(`[{"id": ${MAX}, "name": "Max", "categoryId": 1}, {"id": 2, "name": "Rex", "categoryId": 1, "status": "sold"}]`, 'a.json');
    const yaml = await readPetData(`- {id: 2, name: Rex, categoryId: 1, status: sold}\n- {id: ${MAX}, name: Max, categoryId: 1}\n`, 'a.yaml');
    expect(json.pets).toEqual([
      { id: 2, name: 'Rex', categoryId: 1, status: 'sold' },
      { id: MAX, name: 'Max', categoryId: 1 },
    ]);
    expect(yaml).toEqual(json);
    expect(petDataHash(yaml)).toBe(petDataHash(json));
    expect(petDataHash(yaml)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  // A wide bound for a busy machine: the parser's tokens of 20,000 levels take a second or two.
  it('refuses recursive, bombed or too deep YAML and too deep JSON with a sentence, never a stack overflow', { timeout: 30_000 }, async () => {
    await expect(readPetData('- &a {id: 1, name: Rex, categoryId: 1, more: [*a]}\n', 'a.yaml')).rejects.toThrow(
      /it is not YAML: an alias \(\*name\) stands inside/,
    );
    await expect(readPetData(`${'['.repeat(20_000)}${']'.repeat(20_000)}`, 'a.yaml')).rejects.toThrow(/it is not YAML: it nests deeper than 128 levels/);
    await expect(readPetData(`${'['.repeat(20_000)}${']'.repeat(20_000)}`, 'a.json')).rejects.toThrow(
      /it is not JSON: its arrays and objects nest deeper than 128 levels/,
    );
  });

  it('names every fault, and drops fields the spec does not name', () => {
    expect(() => checkPets([{ id: 1, name: 'Rex', categoryId: 1, status: 'lost' }, { id: 1 }])).toThrow(
      'pets[0].status must be one of available, pending, sold; pets[1].name is required; pets[1].categoryId is required; pets[1].id 1 is the id of pets[0] too: ids are unique',
    );
    expect(checkPets([{ id: 1, name: 'Rex', categoryId: 1, owner: 'x' }]).pets).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
  });

  it("refuses a pet no create could send, by the create's body limit (red team 11 #5: a 200 MB name served whole)", () => {
    const long = 'x'.repeat(1024 * 1024 + 1);
    expect(() =>
      checkPets([
        { id: 1, name: 'Rex', categoryId: 1 },
        { id: 2, name: long, categoryId: 1 },
      ]),
    ).toThrow(`pets[1] takes ${long.length + 2 + '"id""name""categoryId"'.length} bytes of JSON text, more than the 1048576 bytes a create accepts`);
    expect(checkPets([{ id: 1, name: 'x'.repeat(1000), categoryId: 1 }]).pets).toHaveLength(1);
    // Bytes as answered, not characters: a million U+0001 are six million bytes of JSON (red team 12 #2).
    expect(() => checkPets([{ id: 1, name: '\u0001'.repeat(200_000), categoryId: 1 }])).toThrow(/pets\[0\] takes 1200\d{3} bytes of JSON text/);
  });
});

describe('MemoryPetStore with ids of their own', () => {
  it('lists by id and by status after puts that replace and add, and numbers creates after the largest id below 2^62', () => {
    const store = new MemoryPetStore(
      checkPets([
        { id: MAX, name: 'Max', categoryId: 1, status: 'sold' },
        { id: 5, name: 'Rex', categoryId: 1, status: 'sold' },
      ]).pets,
      {
        givenIds: true,
      },
    );
    store.put([
      { id: 5, name: 'Rex', categoryId: 1, status: 'pending' },
      { id: 3, name: 'Gus', categoryId: 2, status: 'sold' },
    ]);
    expect(store.list(10).map((pet) => pet.id)).toEqual([3, 5, MAX]);
    expect(store.list(10, 'sold').map((pet) => pet.id)).toEqual([3, MAX]);
    expect(store.list(10, 'pending').map((pet) => pet.name)).toEqual(['Rex']);
    expect(store.create({ name: 'New', categoryId: 1, status: 'sold' }).id).toBe(6);
    expect(store.listJson(10, 'sold')).toBe(
      `[{"id":3,"name":"Gus","categoryId":2,"status":"sold"},{"id":6,"name":"New","categoryId":1,"status":"sold"},{"id":${MAX},"name":"Max","categoryId":1,"status":"sold"}]`,
    );
    expect(store.saved().created.map((pet) => pet.id)).toEqual([6]);
    store.reset();
    expect(store.list(10).map((pet) => pet.id)).toEqual([5, MAX]);
  });

  it('switches a seeded store to ids of their own on a put, and back on reset', () => {
    const store = new MemoryPetStore([{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }]);
    store.put([{ id: 10, name: 'Ten', categoryId: 1, status: 'sold' }]);
    expect(store.get(10)?.name).toBe('Ten');
    expect(store.create({ name: 'Next', categoryId: 1, status: 'sold' }).id).toBe(11);
    store.reset();
    expect([store.get(10), store.create({ name: 'Again', categoryId: 1, status: 'sold' }).id]).toEqual([undefined, 2]);
  });
});

describe('checkPets, on a list of many faulty pets', () => {
  it('names the first faults and counts the other faulty pets, describing no more of them (red team 14 #9)', () => {
    const list = Array.from({ length: 100_000 }, () => ({}));
    // A thousand described, three faults each: 10 named and 2,990 counted; the other 99,000 pets counted.
    expect(() => checkPets(list)).toThrow(/^pets\[0\]\.\w+ is required; .*; and 2990 more; and faults in 99000 other pets$/);
  });
});
