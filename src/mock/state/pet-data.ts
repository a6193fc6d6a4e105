/**
 * Your own pets (`--data FILE`, `createMockApi({ data })`, `POST /__mock/pets`): a list of pets read
 * from JSON or YAML without losing an int64 id, held to the spec's Pet schema, every fault named by
 * index and field. The pets replace the seeded ones; their hash names the data set wherever a seed
 * would be named (the state file, the Redis namespace's recipe).
 */
import type { ErrorObject } from 'ajv';
import * as validators from '../../generated/validators.js';
import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import { isJsonObject, type JsonObject, type JsonValue, validationView } from '../../json/lossless.js';
import type { PetStatus } from '../../types.js';
import type { StoredPet } from './store.js';

/**
 * A pet of your own data: a `Pet` whose int64 fields may be `bigint`, to stay exact beyond 2^53.
 * @example
 * const rex: DataPet = { id: 9223372036854775807n, name: 'Rex', categoryId: 1, status: 'available' };
 */
export interface DataPet {
  readonly id: number | bigint;
  readonly name: string;
  readonly categoryId: number | bigint;
  readonly status?: PetStatus | undefined;
}

/** Pets checked by `checkPets`: in id order, their ids unique (`petDataHash` names the set, where a state file or Redis keeps it). */
export interface PetData {
  readonly pets: readonly StoredPet[];
}

/** How many faults a refusal names before it says how many more there are. */
const MAX_NAMED_FAULTS = 10;

/** A refusal of a data set, one fault per entry, ready to be joined into one message. */
export class PetDataError extends TypeError {
  override readonly name = 'PetDataError';
  constructor(readonly faults: readonly string[]) {
    const shown = faults.slice(0, MAX_NAMED_FAULTS);
    const more = faults.length - shown.length;
    super(`${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`);
  }
}

/** An int64 as the store keeps it: a number while it is exact as one, a bigint beyond. */
function exactInteger(value: number | bigint): number | bigint {
  return typeof value === 'bigint' && value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** The words of one ajv fault: what the field must be. */
function phrase(error: ErrorObject, value: unknown): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'enum': {
      const allowed: unknown = error.params.allowedValues;
      return `must be one of ${Array.isArray(allowed) ? allowed.join(', ') : String(allowed)}`;
    }
    case 'format':
    case 'type':
      if (error.params.format === 'int64' || error.params.type === 'integer') return `must be an integer from ${INT64_MIN} to ${INT64_MAX}`;
      return `must be ${error.params.type === 'object' ? 'an object' : `a ${String(error.params.type)}`}${typeof value === 'bigint' ? `, not ${value}` : ''}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Each fault of one pet, as `pets[3].status must be one of ...`, the first per field. */
function petFaults(pet: JsonValue, where: string): string[] {
  // A copy: the validators fill in the spec's defaults, and your pets are kept as given.
  if (validators.Pet(structuredClone(validationView(pet)))) return [];
  const byField = new Map<string, string>();
  for (const error of validators.Pet.errors ?? []) {
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
 * True when `value` has the fields of a stored pet, typed as the store keeps them: what a pet the Pet
 * schema held has (its int64 fields a number or, beyond 2^53, a bigint), told to the type checker.
 */
export function isStoredPet(value: JsonValue): value is JsonObject & StoredPet {
  if (!isJsonObject(value)) return false;
  const { id, name, categoryId, status } = value;
  const integer = (field: JsonValue | undefined) => typeof field === 'number' || typeof field === 'bigint';
  return integer(id) && typeof name === 'string' && integer(categoryId) && (status === undefined || validators.PetStatus(status));
}

/** A pet that passed the schema, as the store keeps it: only the fields the spec names, ids exact. */
function storedPet(pet: JsonValue): StoredPet {
  if (!isStoredPet(pet)) throw new TypeError("bug in petstore-mock: a pet the schema held has not a stored pet's fields");
  const { id, name, categoryId, status } = pet;
  return { id: exactInteger(id), name, categoryId: exactInteger(categoryId), ...(status === undefined ? {} : { status }) };
}

/**
 * The pets of a list, checked against the spec's Pet schema; throws a `PetDataError` naming every
 * fault (`pets[3].status must be one of available, pending, sold`) and every repeated id. `where`
 * names the list in the faults.
 * @example
 * checkPets([{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }]).pets; // one stored pet
 */
export function checkPets(list: unknown, where = 'pets'): PetData {
  if (!Array.isArray(list)) throw new PetDataError([`${where} must be a list of pets (a JSON or YAML array)`]);
  // JSON from the lossless parser, or YAML of the core schema with its integers as bigints: JSON values only.
  const values = list as JsonValue[];
  const faults = values.flatMap((pet, index) => petFaults(pet, `${where}[${index}]`));
  const seen = new Map<string, number>();
  values.forEach((pet, index) => {
    const id = isJsonObject(pet) ? pet.id : undefined;
    if (typeof id !== 'number' && typeof id !== 'bigint') return;
    const first = seen.get(String(id));
    if (first !== undefined) faults.push(`${where}[${index}].id ${id} is the id of ${where}[${first}] too: ids are unique`);
    else seen.set(String(id), index);
  });
  if (faults.length > 0) throw new PetDataError(faults);
  const pets = values.map(storedPet);
  const sorted = [...pets].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  return { pets: sorted };
}
