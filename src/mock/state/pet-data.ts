/**
 * Your own pets (`--data FILE`, `createMockApi({ data })`, `POST /__mock/pets`): a list of pets read
 * from JSON or YAML without losing an int64 id, held to the spec's Pet schema, every fault named by
 * index and field. The pets replace the seeded ones; their hash names the data set wherever a seed
 * would be named (the state file, the Redis namespace's recipe).
 */
import type { ErrorObject } from 'ajv';
import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import { jsonTextBytes } from '../../json/json-bytes.js';
import { isJsonObject, type JsonObject, type JsonValue, validationView } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import type { ResourceModel } from '../../openapi/resource-model.js';
import { namedValues } from '../../terminal/excerpt-text.js';
import { cachedIn } from '../core/memo.js';
import { ascendingById, compareIds, keyOf } from './seed-index.js';
import type { StoredPet } from './store.js';

/**
 * A pet of your own data: a `Pet` whose int64 fields may be `bigint`, to stay exact beyond 2^53.
 * @example
 * const rex: DataPet = { id: 9223372036854775807n, name: 'Rex', categoryId: 1, status: 'available' };
 */
export type DataPet = StoredPet;

/** Pets checked by `checkPets`: in id order, their ids unique (`petDataHash` names the set, where a state file or Redis keeps it). */
export interface PetData {
  readonly pets: readonly StoredPet[];
}

/** How many faults a refusal names before it says how many more there are. */
const MAX_NAMED_FAULTS = 10;

/** The faulty pets of a list whose faults are counted one by one; past them, only the pets are. */
const MAX_DESCRIBED_PETS = 1_000;

/** A refusal of a data set, one fault per entry, ready to be joined into one message. */
export class PetDataError extends TypeError {
  override readonly name = 'PetDataError';
  /** `faults` named, and `otherPets`, beyond them, that hold faults not described. */
  constructor(faults: readonly string[], otherPets = 0) {
    const shown = faults.slice(0, MAX_NAMED_FAULTS);
    const more = faults.length - shown.length;
    const others = otherPets > 0 ? `; and faults in ${otherPets} other pet${otherPets === 1 ? '' : 's'}` : '';
    super(`${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}${others}`);
  }
}

/** The words of one ajv fault: what the field must be. */
function phrase(error: ErrorObject, value: unknown): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'enum': {
      const allowed: unknown = error.params.allowedValues;
      return `must be one of ${namedValues([allowed].flat())}`;
    }
    case 'format':
    case 'type':
      if (error.params.format === 'int64' || error.params.type === 'integer') return `must be an integer from ${INT64_MIN} to ${INT64_MAX}`;
      return `must be ${error.params.type === 'object' ? 'an object' : `a ${String(error.params.type)}`}${typeof value === 'bigint' ? `, not ${value}` : ''}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** What checking and keeping a pet reads of a model: its fields in a stored pet's order, whether all are scalars, its validator. */
interface Shape {
  readonly fields: readonly { readonly name: string }[];
  readonly flat: boolean;
  readonly validate: ResourceModel['validateRecord'];
}

const shapes = new WeakMap<ResourceModel, Shape>();

/** The shape of a model's records, worked out once per model. */
function shapeOf(model: ResourceModel): Shape {
  return cachedIn(shapes, model, () => {
    const fields = [...model.fields].sort((a, b) => Number(b.name === model.id.field) - Number(a.name === model.id.field));
    // Every field a scalar: the validator then fills defaults in at the top alone, and a shallow copy keeps the pet as given.
    const flat = fields.every(({ schema }) => ['string', 'integer', 'number', 'boolean'].includes(String(schema.type)));
    return { fields, flat, validate: model.validateRecord };
  });
}

/** Whether an object holds only strings, numbers, booleans and null: then ajv may read it as it is, and a shallow copy is a whole one. */
function isFlatPlain(value: JsonValue): value is JsonObject {
  if (!isJsonObject(value)) return false;
  for (const key in value) {
    const field = value[key];
    if (typeof field === 'bigint' || (typeof field === 'object' && field !== null)) return false;
  }
  return true;
}

/** Whether a pet passes the Pet schema; checked on a copy, since the validator fills in the spec's defaults and your pets are kept as given. */
function petValid(shape: Shape, pet: JsonValue): boolean {
  if (shape.flat && isFlatPlain(pet)) return shape.validate({ ...pet });
  return shape.validate(structuredClone(validationView(pet)));
}

/** Each fault of one pet, as `pets[3].status must be one of ...`, the first per field. */
function petFaults({ validate }: Shape, pet: JsonValue, where: string): string[] {
  if (validate(structuredClone(validationView(pet)))) return [];
  const byField = new Map<string, string>();
  for (const error of validate.errors ?? []) {
    const path = error.instancePath.split('/').slice(1);
    if (error.keyword === 'required') path.push(String(error.params.missingProperty));
    const field = [where, ...path].join('.');
    const value = isJsonObject(pet) && path.length === 1 ? pet[path[0] ?? ''] : pet;
    // allOf reports the same fault of a field twice (NewPet's and Pet's branch): one line per field.
    if (!byField.has(field)) byField.set(field, `${field} ${phrase(error, value)}`);
  }
  return [...byField.values()];
}

/**
 * True when a value the Pet schema held is an object with an id, which is what the type checker needs
 * to be told to take it as a stored pet: every other field is the schema's to check.
 */
export function isStoredPet(value: JsonValue): value is JsonObject & StoredPet {
  return isJsonObject(value) && (typeof value.id === 'number' || typeof value.id === 'bigint');
}

/**
 * A pet that passed the schema, as the store keeps it: only the fields the spec names, integers exact
 * (a `bigint` within 2^53 becomes a number). A pet just parsed from a file that is already so is kept
 * as it is (`own`), since nothing else holds it; pets given in code are always copied, never changed.
 */
function storedPet(shape: Shape, pet: JsonValue, own: boolean): StoredPet {
  if (!isStoredPet(pet)) throw new TypeError("bug in petstore-mock: a pet the schema held has not a stored pet's fields");
  if (own && isStoredAlready(shape, pet)) return pet;
  const stored: Record<string, JsonValue> = {};
  for (const { name } of shape.fields) {
    const value = pet[name];
    if (value !== undefined) stored[name] = typeof value === 'bigint' ? keyOf(value) : value;
  }
  return stored as JsonObject & StoredPet;
}

/** A pet the model's record schema held, as the store keeps it: its fields the spec names, no others (a state file's pet, red team 13 #1). */
export function keptPet(pet: JsonValue, model: ResourceModel): StoredPet {
  return storedPet(shapeOf(model), pet, true);
}

/** Whether a pet has only the spec's fields, in a stored pet's order, its integers exact as a store keeps them. */
function isStoredAlready({ fields }: Shape, pet: JsonObject): boolean {
  let field = 0;
  for (const key in pet) {
    while (field < fields.length && fields[field]?.name !== key) field++;
    if (field === fields.length) return false;
    const value = pet[key];
    if (value === undefined || (typeof value === 'bigint' && keyOf(value) !== value)) return false;
  }
  return true;
}

/** Each repeated id, as a fault naming both places. */
function duplicateFaults(values: readonly JsonValue[], where: string): string[] {
  const faults: string[] = [];
  const seen = new Map<string, number>();
  values.forEach((pet, index) => {
    const id = isJsonObject(pet) ? pet.id : undefined;
    if (typeof id !== 'number' && typeof id !== 'bigint') return;
    const first = seen.get(String(id));
    if (first !== undefined) faults.push(`${where}[${index}].id ${id} is the id of ${where}[${first}] too: ids are unique`);
    else seen.set(String(id), index);
  });
  return faults;
}

const byId = (a: StoredPet, b: StoredPet) => compareIds(a.id, b.id);
const idOfPet = (pet: StoredPet) => pet.id;

/**
 * Why a pet is too large to keep, if it is: a pet is answered whole, as a create's record is, so one no
 * create could send (more bytes of JSON than `limit`, what a create accepts) would make answers past every bound.
 */
export function oversizedFault(pet: JsonValue, at: string, limit: number): string | undefined {
  const bytes = jsonTextBytes(pet);
  return bytes > limit ? `${at} takes ${bytes} bytes of JSON text, more than the ${limit} bytes a create accepts` : undefined;
}

/** The lists `checkPets` made, with what it made of them: checking one again costs nothing. */
const checkedLists = new WeakMap<readonly unknown[], PetData>();

/**
 * The pets of a list, checked against the spec's Pet schema; throws a `PetDataError` naming every
 * fault (`pets[3].status must be one of available, pending, sold`) and every repeated id. `where`
 * names the list in the faults. A list this function made (`PetData.pets`) is not checked twice.
 * @example
 * checkPets([{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }]).pets; // one stored pet
 */
export function checkPets(list: unknown, where = 'pets', own = false, model: ResourceModel = BUNDLED_MODEL): PetData {
  if (!Array.isArray(list)) throw new PetDataError([`${where} must be a list of pets (a JSON or YAML array)`]);
  const known = checkedLists.get(list);
  if (known !== undefined) return known;
  // JSON from the lossless parser, or YAML of the core schema with its integers as bigints: JSON values only.
  const values = list as JsonValue[];
  const faults: string[] = [];
  const shape = shapeOf(model);
  const limit = model.createBodyBytes;
  // Past the first MAX_DESCRIBED_PETS faulty pets, a faulty pet is counted, not described: a megabyte of
  // `{}` made a million sentences (red team 14 #9: 4.6 s and 382 MB for one POST /__mock/pets).
  let otherPets = 0;
  let described = 0;
  for (const [index, pet] of values.entries()) {
    const tooLarge = oversizedFault(pet, `${where}[${index}]`, limit);
    if (petValid(shape, pet) && tooLarge === undefined) continue;
    if (described === MAX_DESCRIBED_PETS) otherPets++;
    else {
      described++;
      faults.push(...petFaults(shape, pet, `${where}[${index}]`), ...(tooLarge === undefined ? [] : [tooLarge]));
    }
  }
  if (faults.length === 0) {
    const pets = values.map((pet) => storedPet(shape, pet, own));
    const sorted = ascendingById(pets, idOfPet) ? pets : pets.sort(byId);
    if (ascendingById(sorted, idOfPet)) {
      const data: PetData = { pets: Object.freeze(sorted) };
      checkedLists.set(data.pets, data);
      return data;
    }
  }
  throw new PetDataError([...faults, ...duplicateFaults(values, where)], otherPets);
}
