import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../json/lossless.js';
import type { PetJson } from '../pets.js';
import type { BodyInput, ListInput, ReadInput } from './fuzz-inputs.js';
import { emptyModel, type FuzzModel, idToRead, judgeCreate, judgeDelete, judgeList, judgeRead, petToRemove } from './model.js';

const FIELDS = ['name', 'categoryId', 'status', 'id'];
const BOUNDS = { default: 20, maximum: 100 };
const listed: PetJson[] = [
  { id: 1, name: 'Gus', categoryId: 1, status: 'available' },
  { id: 2, name: 'Daisy', categoryId: 2, status: 'sold' },
];

/** The bundled spec's operations, which the messages below name. */
const NAMED = { list: 'listPets', create: 'createPet', read: 'getPet', idParameter: 'petId', filter: { parameter: 'status', field: 'status' } };

function model(): FuzzModel {
  return emptyModel(NAMED, FIELDS, listed);
}

const valid = (fields: Record<string, string>): BodyInput => ({ text: '', valid: true, what: 'a valid body', fields });
const invalid: BodyInput = { text: '{}', valid: false, what: 'name missing', fields: {} };
const body = valid({ name: '"Rex"', categoryId: '3', status: '"pending"' });

function list(query: Partial<ListInput>): ListInput {
  return { query: '', limit: { kind: 'absent' }, status: { kind: 'absent' }, ...query };
}

/** A model after one create of `pet`, accepted. */
function withCreated(pet: PetJson = { id: 7, name: 'Rex', categoryId: 3, status: 'pending' }): FuzzModel {
  const m = model();
  expect(judgeCreate(m, body, 201, pet)).toBeUndefined();
  return m;
}

describe('the fuzz model: createPet', () => {
  it('takes a 201 that echoes the body with a new id, and remembers the pet', () => {
    expect(withCreated().created.map((pet) => pet.id)).toEqual([7]);
  });

  it('fails a field changed, an id reused (listed at the start or created before), and a 5xx', () => {
    expect(judgeCreate(model(), body, 201, { id: 7, name: 'Rex', categoryId: 3, status: 'available' })?.message).toMatch(/changed status/);
    expect(judgeCreate(model(), body, 201, { id: 1, name: 'Rex', categoryId: 3, status: 'pending' })?.message).toMatch(/id 1 of a pet listed at the start/);
    expect(judgeCreate(withCreated(), body, 201, { id: 7, name: 'Rex', categoryId: 3, status: 'pending' })?.message).toMatch(/created in this sequence/);
    expect(judgeCreate(model(), body, 500, undefined)?.expected).toMatch(/201/);
  });

  it('keeps ids beyond 2^53 exact', () => {
    const big = valid({ name: '"Rex"', categoryId: '9007199254740993' });
    expect(judgeCreate(model(), big, 201, { id: 9, name: 'Rex', categoryId: 9007199254740993n })).toBeUndefined();
    expect(judgeCreate(model(), big, 201, { id: 9, name: 'Rex', categoryId: 9007199254740992 })?.message).toMatch(/changed categoryId/);
  });

  it('lets a deployment refuse a category it does not know, but not one it took earlier in the sequence', () => {
    expect(judgeCreate(model(), body, 400, undefined)).toBeUndefined();
    expect(judgeCreate(withCreated(), body, 400, undefined)?.message).toMatch(/categoryId=3, which it accepted earlier/);
  });

  it('wants 400, and only 400, for an invalid body', () => {
    expect(judgeCreate(model(), invalid, 400, undefined)).toBeUndefined();
    expect(judgeCreate(model(), invalid, 201, { id: 8, name: '' })?.message).toBe('createPet answered 201 to a body with name missing');
  });
});

describe('the fuzz model: listPets', () => {
  const page = (...pets: PetJson[]): JsonValue => pets;
  const rex = { id: 7, name: 'Rex', categoryId: 3, status: 'pending' };

  it('takes a page in any order that holds every known pet when it is not full', () => {
    expect(judgeList(withCreated(), list({}), 200, page(rex, listed[1] as PetJson, listed[0] as PetJson), BOUNDS)).toBeUndefined();
  });

  it('fails a page shorter than its limit that lacks a created pet, but not a full page', () => {
    expect(judgeList(withCreated(), list({}), 200, page(...listed), BOUNDS)?.message).toMatch(/without the pet 7 created in this sequence/);
    const one = list({ query: 'limit=2', limit: { kind: 'valid', value: 2 } });
    expect(judgeList(withCreated(), one, 200, page(...listed), BOUNDS)).toBeUndefined();
  });

  it('holds the limit, the default limit and the filter', () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ id: i + 1, name: `p${i}`, categoryId: 1, status: 'sold' }));
    expect(judgeList(model(), list({}), 200, many, BOUNDS)?.expected).toBe('at most 20');
    const sold = list({ query: 'status=sold', status: { kind: 'valid', value: 'sold' } });
    expect(judgeList(model(), sold, 200, page(listed[0] as PetJson), BOUNDS)?.message).toMatch(/filtered by status=sold answered the pet 1/);
    expect(judgeList(model(), sold, 200, page(listed[1] as PetJson), BOUNDS)).toBeUndefined();
  });

  it('fails a listed pet that differs from the created one, in the fields both show', () => {
    expect(judgeList(withCreated(), list({}), 200, page({ ...rex, name: 'Max' }, ...listed), BOUNDS)?.message).toMatch(/other name/);
    expect(judgeList(withCreated(), list({}), 200, page({ id: 7, name: 'Rex' }, ...listed), BOUNDS)).toBeUndefined();
  });

  it('takes 400, a clamped page or an ignored limit for what the spec rejects, and 400 or an empty page for a status outside the enum', () => {
    const huge = list({ query: 'limit=1000', limit: { kind: 'outside', value: 1000 } });
    expect(judgeList(model(), huge, 400, undefined, BOUNDS)).toBeUndefined();
    expect(judgeList(model(), huge, 200, page(...listed), BOUNDS)).toBeUndefined();
    const over = Array.from({ length: 101 }, (_, i) => ({ id: i + 1, name: `p${i}`, categoryId: 1 }));
    expect(judgeList(model(), huge, 200, over, BOUNDS)?.expected).toBe('at most 100');
    const upper = list({ query: 'status=AVAILABLE', status: { kind: 'outside', value: 'AVAILABLE' } });
    expect(judgeList(model(), upper, 400, undefined, BOUNDS)).toBeUndefined();
    expect(judgeList(model(), upper, 200, page(), BOUNDS)).toBeUndefined();
    expect(judgeList(model(), upper, 200, page(listed[0] as PetJson), BOUNDS)?.message).toMatch(/outside the enum/);
  });

  it('fails a 400 for a valid query', () => {
    expect(judgeList(model(), list({ query: 'limit=5', limit: { kind: 'valid', value: 5 } }), 400, undefined, BOUNDS)?.message).toMatch(/400 to a valid query/);
  });
});

describe('the fuzz model: getPet', () => {
  const known: ReadInput = { kind: 'known', created: true, index: 0 };

  it('reads a created pet back field for field, and a listed one in the fields both show', () => {
    const m = withCreated();
    expect(idToRead(m, known)).toBe('7');
    expect(judgeRead(m, known, '7', 200, { id: 7, name: 'Rex', categoryId: 3, status: 'pending' })).toBeUndefined();
    expect(judgeRead(m, known, '7', 200, { id: 7, name: 'Rex', categoryId: 3 })?.message).toMatch(/with other status/);
    expect(judgeRead(m, known, '7', 404, undefined)?.message).toBe('getPet answered 404 for the pet 7 created in this sequence');
    expect(judgeRead(model(), known, '1', 200, { id: 1, name: 'Gus', categoryId: 1, status: 'available', extra: true })).toBeUndefined();
  });

  it('takes 404 for an absent id, 400 too at the int64 edges, and 200 only for a pet with that id', () => {
    const beyond: ReadInput = { kind: 'absent', edge: 'beyond', offset: 5n };
    const id = idToRead(model(), beyond) ?? '';
    expect(BigInt(id)).toBeGreaterThan(2n);
    expect(judgeRead(model(), beyond, id, 404, undefined)).toBeUndefined();
    expect(judgeRead(model(), beyond, id, 400, undefined)?.expected).toBe('404');
    expect(judgeRead(model(), beyond, id, 200, { id: BigInt(id), name: 'x', categoryId: 1 })).toBeUndefined();
    expect(judgeRead(model(), beyond, id, 200, { id: 1, name: 'Gus', categoryId: 1 })?.message).toMatch(/200, the pet 1 for the id/);
    const max: ReadInput = { kind: 'absent', edge: 'max', offset: 0n };
    expect(idToRead(model(), max)).toBe('9223372036854775807');
    expect(judgeRead(model(), max, '9223372036854775807', 400, undefined)).toBeUndefined();
  });

  it('takes 400 or 404 for a text no int64 is, and fails the pet its digits name', () => {
    const trailing: ReadInput = { kind: 'malformed', form: 'trailing text', index: 1 };
    expect(idToRead(model(), trailing)).toBe('2abc');
    for (const status of [400, 404]) expect(judgeRead(model(), trailing, '2abc', status, undefined)).toBeUndefined();
    expect(judgeRead(model(), trailing, '2abc', 200, listed[1])?.message).toBe(
      'getPet answered 200, the pet 2 for the id "2abc", which is no int64 (trailing text)',
    );
  });

  it('has no known pet to read when none is listed or created', () => {
    expect(idToRead(emptyModel(NAMED, FIELDS, []), known)).toBeUndefined();
  });
});

describe('the fuzz model: a delete of the resource model', () => {
  const DELETE = { operationId: 'deletePet', success: 204 };

  /** A model after one create and the delete of that pet, acknowledged. */
  function withRemoved(): FuzzModel {
    const m = withCreated();
    const pet = petToRemove(m, 0);
    expect(pet?.id).toBe(7);
    expect(judgeDelete(m, DELETE, pet as PetJson, 204)).toBeUndefined();
    return m;
  }

  it('removes only pets of its own sequence, and holds the removed one gone: not read, not listed, its id never given again', () => {
    const m = withRemoved();
    expect([m.created, m.removed.map((pet) => pet.id)]).toEqual([[], [7]]);
    expect(petToRemove(m, 0)).toBeUndefined();
    const removedRead: ReadInput = { kind: 'known', created: true, index: 3 };
    expect(idToRead(m, removedRead)).toBe('7');
    expect(judgeRead(m, removedRead, '7', 404, undefined)).toBeUndefined();
    expect(judgeRead(m, removedRead, '7', 200, { id: 7, name: 'Rex', categoryId: 3, status: 'pending' })).toMatchObject({
      message: 'getPet answered 200 for the pet 7 removed in this sequence',
      fault: 'deleted:getPet:200',
    });
    expect(judgeList(m, list({}), 200, [...listed, { id: 7, name: 'Rex', categoryId: 3, status: 'pending' }], BOUNDS)?.message).toBe(
      'listPets (no query) lists the pet 7 removed in this sequence',
    );
    expect(judgeList(m, list({}), 200, listed, BOUNDS)).toBeUndefined();
    expect(judgeCreate(m, body, 201, { id: 7, name: 'Rex', categoryId: 3, status: 'pending' })?.message).toBe(
      'createPet gave a new pet the id 7 of a pet removed in this sequence',
    );
  });

  it('fails a delete answered with another status than its documented success, and keeps the pet', () => {
    const m = withCreated();
    expect(judgeDelete(m, DELETE, m.created[0] as PetJson, 405)).toMatchObject({
      message: 'deletePet answered 405 for the pet 7 created in this sequence',
      fault: 'status:deletePet:405',
    });
    expect(m.created.map((pet) => pet.id)).toEqual([7]);
  });
});
