/**
 * The pets a mock starts with, indexed once and never changed: every session of the mock reads them
 * through its own overlay (store.ts), so that opening a session copies nothing. What the seed can
 * answer alone (a pet's JSON, a page of an untouched session) is made once and shared by every session.
 */
import { stringifyJson } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { operationOfKind, type ResourceModel } from '../../openapi/resource-model.js';
import { compareNames, type ListOrder } from '../../profile/profile.js';
import { cachedIn } from '../core/memo.js';
import { numberOfRandomId, randomIdOf } from './random-ids.js';

/**
 * Pets created over pets with ids of their own are numbered after the largest id below this one: ids
 * from here to the int64 maximum are far beyond any count of creates, so they are left to your data.
 * @example
 * idsAfter([{ id: 41 }, { id: 2n ** 63n - 1n }]); // 41n: the first pet created gets 42
 */
export const CREATED_IDS_BELOW = 2n ** 62n;

/** The id created pets are numbered after: the largest below `CREATED_IDS_BELOW`, 0 when there is none. */
export function idsAfter(pets: readonly { readonly id: number | bigint }[]): bigint {
  let largest = 0n;
  for (const { id } of pets) if (id > largest && id < CREATED_IDS_BELOW) largest = BigInt(id);
  return largest;
}

/** An id as a map of pets keys it: a number while it is exact as one, a bigint beyond (Map compares bigints by value). */
export function keyOf(id: number | bigint): number | bigint {
  return typeof id === 'bigint' && id <= BigInt(Number.MAX_SAFE_INTEGER) && id >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(id) : id;
}

/** The key of the sorted list of every pet, whatever its filter value. */
export const ALL = Symbol('all');

import type { StoredPet } from './store.js';

/** A pet as a store holds it, with its JSON made once on first use: a stored pet never changes, so neither does its JSON. */
export interface Entry {
  readonly pet: StoredPet;
  json: string | undefined;
  /** What a state file saves it as: a pet a create made, or a seeded pet a replace changed; neither for the seed's own or a put's. */
  readonly saved?: 'created' | 'replaced' | undefined;
}

/**
 * The same text in one piece. V8 keeps a string built by `+` as a tree of its parts, and every write
 * of a cached answer would walk that tree again to copy it out; joining two parts copies it once.
 */
export function contiguous(text: string): string {
  return text.length < 2 ? text : [text.slice(0, 1), text.slice(1)].join('');
}

/**
 * A pet's JSON in one piece. The engine's serializer writes it so (a create's, on every create, was
 * copied for nothing); lossless-json, which writes a pet holding a `bigint`, builds it by `+`.
 */
function petJson(pet: StoredPet): string {
  try {
    return JSON.stringify(pet);
  } catch {
    return contiguous(stringifyJson(pet));
  }
}

/** The pet whose JSON `jsonOf` made last, and that JSON: see `lastJsonOf`. */
let lastPet: StoredPet | undefined;
let lastJson = '';

export function jsonOf(entry: Entry): string {
  if (entry.json === undefined) {
    entry.json = petJson(entry.pet);
    lastPet = entry.pet;
    lastJson = entry.json;
  }
  return entry.json;
}

/**
 * The JSON of `pet` if it is the pet `jsonOf` made JSON for last: a create's 201 then writes the text its
 * store made to count the pet's bytes, in the same turn, instead of serializing the pet a second time.
 * Only the last one is kept: a map of every pet would hold them all, and cost each collection.
 */
export function lastJsonOf(pet: StoredPet): string | undefined {
  return lastPet === pet ? lastJson : undefined;
}

/** A field of a pet, by name. */
export function fieldOf(pet: object, field: string): unknown {
  return Reflect.get(pet, field);
}

/** How two ids compare, number and bigint alike. */
export function compareIds(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Where `id` is, or would go, in `list` in id order: the first index whose id is not below it, by a binary search. */
export function indexById<T>(list: readonly T[], id: number | bigint, idOf: (item: T) => number | bigint): number {
  let [low, high] = [0, list.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareIds(idOf(list[middle] as T), id) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The id of an entry's pet. */
export const idOfEntry = (entry: Entry): number | bigint => entry.pet.id;

/** How two pets compare under each order: by id, or by a field and then by id, so that every order is total. */
function comparatorOf(order: ListOrder): (a: Entry, b: Entry) => number {
  if (order === 'id-asc') return (a, b) => compareIds(a.pet.id, b.pet.id);
  if (order === 'id-desc') return (a, b) => compareIds(b.pet.id, a.pet.id);
  return (a, b) => compareNames(String(fieldOf(a.pet, order) ?? ''), String(fieldOf(b.pet, order) ?? '')) || compareIds(a.pet.id, b.pet.id);
}

/** The field a page may be filtered by, with the values it takes: the spec's list filter (`status`). */
export interface PageFilter {
  readonly field: string;
  readonly values: readonly unknown[];
}

/** The list filter of a model's list (`status` in the bundled spec), when it has one. */
export function pageFilterOf(model: ResourceModel): PageFilter | undefined {
  return operationOfKind(model, 'list')?.filters[0];
}

/** The bundled spec's list filter. */
const BUNDLED_FILTER = pageFilterOf(BUNDLED_MODEL);

/** The value a pet (or a draft) has of `filter`'s field: its status, in the bundled spec. */
export function filterValueOf(filter: PageFilter | undefined, pet: object): unknown {
  return filter === undefined ? undefined : Reflect.get(pet, filter.field);
}

/**
 * How the seed's pets are numbered, ordered and filtered.
 * @example
 * new SeedIndex([], { idOffset: 2n ** 53n } satisfies SeedOptions);
 */
export interface SeedOptions {
  /** Added to every id, so that ids run from `idOffset + 1`: the `--big-ids` canary. Default: none, ids from 1. */
  readonly idOffset?: bigint | undefined;
  /** The order of a page (a profile's `listOrder`). Default: `id-asc`. */
  readonly order?: ListOrder;
  /** Ids that look drawn at random (`randomIdOf`), for a profile's `idScheme: random`; `idOffset` is then unused. Default: false. */
  readonly randomIds?: boolean;
  /** The pets keep the ids they have (your own data, `--data`), in any order; pets created later are numbered after the largest. Default: false. */
  readonly givenIds?: boolean;
  /** The field a page is filtered by. Default: the bundled spec's list filter (`status`). */
  readonly filter?: PageFilter | undefined;
}

/**
 * The seeded pets of a mock, indexed once: in id order, by the filter's value, and (lazily) in the
 * profile's order. Pets numbered by the store sit at their number (pet n at index n - 1, its id n,
 * `idOffset + n` or `randomIdOf(n)`); pets of your own data are found by a binary search over their ids.
 */
export class SeedIndex {
  /** Every pet, in id order. */
  readonly entries: readonly Entry[];
  readonly order: ListOrder;
  readonly compare: (a: Entry, b: Entry) => number;
  readonly filter: PageFilter | undefined;
  readonly idOffset: bigint | undefined;
  readonly randomIds: boolean;
  readonly givenIds: boolean;
  #largest: bigint | undefined;
  /** Pet n at index n - 1, while the store numbers the pets. */
  readonly #byNumber: readonly Entry[] | undefined;
  readonly #byValue = new Map<unknown, Entry[]>();
  /** The pets of each filter value (`all` for every one) in the order, when it is not by id; made on first use. */
  readonly #sorted = new Map<unknown, Entry[]>();
  /** Pages of a session that changed nothing, by `pageKey`: the same for every session. */
  readonly #pages = new Map<number, string>();

  constructor(pets: readonly StoredPet[], options: SeedOptions = {}) {
    this.idOffset = options.idOffset;
    this.randomIds = options.randomIds === true;
    this.givenIds = options.givenIds === true;
    this.order = options.order ?? 'id-asc';
    this.compare = comparatorOf(this.order);
    this.filter = options.filter ?? BUNDLED_FILTER;
    const entries = pets.map((pet): Entry => ({ pet, json: undefined }));
    if (!this.givenIds) {
      entries.forEach(({ pet }, index) => {
        if (pet.id !== this.idOf(index + 1)) throw new RangeError(`seed pets need ids in order from ${this.idOf(1)}; pet at index ${index} has id ${pet.id}`);
      });
      this.#byNumber = entries;
    }
    const inIdOrder = !this.randomIds && !this.givenIds;
    this.entries = inIdOrder || ascendingById(entries, idOfEntry) ? entries : [...entries].sort(comparatorOf('id-asc'));
    this.#index();
  }

  get size(): number {
    return this.entries.length;
  }

  /** The largest id below 2^62: pets created once ids are not pet numbers are numbered after it (`idsAfter`); found once, from the end. */
  get largest(): bigint {
    if (this.#largest === undefined) {
      let last = this.entries.length - 1;
      while (last >= 0 && (this.entries[last] as Entry).pet.id >= CREATED_IDS_BELOW) last--;
      this.#largest = last < 0 ? 0n : BigInt((this.entries[last] as Entry).pet.id);
    }
    return this.#largest;
  }

  /** The id of the store's pet number `n`. */
  idOf(n: number): number | bigint {
    if (this.randomIds) return randomIdOf(n);
    return this.idOffset === undefined ? n : this.idOffset + BigInt(n);
  }

  /** The seeded pet with this id. */
  find(id: number | bigint): Entry | undefined {
    if (this.#byNumber === undefined) return this.#search(id);
    const offset = this.idOffset;
    const n = this.randomIds ? numberOfRandomId(id) : offset === undefined ? Number(id) : typeof id === 'bigint' ? Number(id - offset) : id - Number(offset);
    const index = n - 1;
    const entry = Number.isSafeInteger(index) && index >= 0 ? this.#byNumber[index] : undefined;
    return entry !== undefined && compareIds(entry.pet.id, id) === 0 ? entry : undefined;
  }

  /** The seeded pets of a filter value (every one for `undefined`), in id order. */
  filtered(value: unknown): readonly Entry[] {
    return value === undefined ? this.entries : (this.#byValue.get(value) ?? []);
  }

  /** The seeded pets of a filter value in the seed's order, when it is by a field (name, status); made once. */
  sorted(value: unknown): readonly Entry[] {
    return cachedIn(this.#sorted, value ?? ALL, () => [...this.filtered(value)].sort(this.compare));
  }

  /** A page's filter value and limit as one small integer: a map keyed by it hashes no string per request. */
  pageKey(limit: number, value: unknown): number {
    const values = this.filter?.values ?? [];
    return limit * (values.length + 1) + (value === undefined ? 0 : values.indexOf(value) + 1);
  }

  /** The page of a session that changed nothing, made once for all of them. */
  page(key: number, make: () => string): string {
    return cachedIn(this.#pages, key, make);
  }

  #index(): void {
    const field = this.filter?.field;
    if (field === undefined) return;
    for (const entry of this.entries) {
      const value = fieldOf(entry.pet, field);
      if (value !== undefined) cachedIn(this.#byValue, value, () => []).push(entry);
    }
  }

  #search(id: number | bigint): Entry | undefined {
    const entry = this.entries[indexById(this.entries, id, idOfEntry)];
    return entry !== undefined && compareIds(entry.pet.id, id) === 0 ? entry : undefined;
  }
}

/** Whether a list is in strictly ascending id order: each id after the one before, none twice. */
export function ascendingById<T>(list: readonly T[], idOf: (item: T) => number | bigint): boolean {
  for (let i = 1; i < list.length; i++) if (compareIds(idOf(list[i - 1] as T), idOf(list[i] as T)) >= 0) return false;
  return true;
}
