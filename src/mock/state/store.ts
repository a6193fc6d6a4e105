import { stringifyJson } from '../../json/lossless.js';
import { PET_STATUSES } from '../../openapi/facts.js';
import { compareNames, type ListOrder } from '../../profile/profile.js';
import type { PetStatus } from '../../types.js';
import type { Pending } from '../core/pending.js';
import { numberOfRandomId, randomIdOf } from './random-ids.js';

/**
 * Pets created over pets with ids of their own are numbered after the largest id below this one: ids
 * from here to the int64 maximum are far beyond any count of creates, so they are left to your data.
 * @example
 * idsAfter([{ id: 41 }, { id: 2n ** 63n - 1n }]); // 41n: the first pet created gets 42
 */
const CREATED_IDS_BELOW = 2n ** 62n;

/** The id created pets are numbered after: the largest below `CREATED_IDS_BELOW`, 0 when there is none. */
export function idsAfter(pets: readonly { readonly id: number | bigint }[]): bigint {
  let largest = 0n;
  for (const { id } of pets) if (BigInt(id) > largest && BigInt(id) < CREATED_IDS_BELOW) largest = BigInt(id);
  return largest;
}

/** An id as a map of pets keys it: a number while it is exact as one, a bigint beyond (Map compares bigints by value). */
function keyOf(id: number | bigint): number | bigint {
  return typeof id === 'bigint' && id <= BigInt(Number.MAX_SAFE_INTEGER) && id >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(id) : id;
}

/** A pet as the store keeps it: `categoryId` beyond 2^53 stays exact as a `bigint`, and so does the `id` of a store with an id offset. */
export interface StoredPet {
  readonly id: number | bigint;
  readonly name: string;
  readonly categoryId: number | bigint;
  /** Absent only under a profile whose deployment leaves a pet added without one without a status. */
  readonly status?: PetStatus | undefined;
}

/** What `create` needs: everything but the id, which the store assigns. */
export type PetDraft = Omit<StoredPet, 'id'>;

interface Entry {
  readonly pet: StoredPet;
  /** The pet's JSON, made once on first use: pets never change, so neither does their JSON. */
  json: string | undefined;
}

/**
 * The same text in one piece. V8 keeps a string built by `+` as a tree of its parts, and every write
 * of a cached answer would walk that tree again to copy it out; joining two parts copies it once.
 */
function contiguous(text: string): string {
  return text.length < 2 ? text : [text.slice(0, 1), text.slice(1)].join('');
}

function jsonOf(entry: Entry): string {
  entry.json ??= contiguous(stringifyJson(entry.pet));
  return entry.json;
}

/** A page's status and limit as one small integer: a map keyed by it hashes no string per request. */
function pageKey(limit: number, status: PetStatus | undefined): number {
  return limit * (PET_STATUSES.length + 1) + (status === undefined ? 0 : PET_STATUSES.indexOf(status) + 1);
}

/**
 * How a store numbers its pets.
 * @example
 * new MemoryPetStore([], { idOffset: 2n ** 53n } satisfies PetStoreOptions);
 */
export interface PetStoreOptions {
  /** Added to every id, so that ids run from `idOffset + 1`: the `--big-ids` canary. Default: none, ids from 1. */
  readonly idOffset?: bigint;
  /** The order of a page (a profile's `listOrder`). Default: `id-asc`. */
  readonly order?: ListOrder;
  /** Ids that look drawn at random (`randomIdOf`), for a profile's `idScheme: random`; `idOffset` is then unused. Default: false. */
  readonly randomIds?: boolean;
  /** The seed's pets keep the ids they have (your own data, `--data`), in any order; pets created later are numbered after the largest. Default: false. */
  readonly givenIds?: boolean;
}

/** How two pets compare under each order but id order: ties go by id, so the order is total. */
const COMPARE: { readonly [O in ListOrder]: (a: Entry, b: Entry) => number } = {
  'id-asc': (a, b) => (a.pet.id < b.pet.id ? -1 : a.pet.id > b.pet.id ? 1 : 0),
  'id-desc': (a, b) => (a.pet.id > b.pet.id ? -1 : a.pet.id < b.pet.id ? 1 : 0),
  name: (a, b) => compareNames(a.pet.name, b.pet.name),
  status: (a, b) => compareNames(a.pet.status ?? '', b.pet.status ?? ''),
};

/**
 * The pets of one session, without HTTP: the one interface every store keeps, in memory (the default,
 * and the fast path) or elsewhere (Redis). A method may answer at once or in a promise; the mock
 * waits only for the promises, so a store that answers at once costs no microtask.
 * @example
 * const store: PetStore = new MemoryPetStore(seededPets(1, 50));
 * const page = await store.listJson(20, 'sold');
 */
/** Where `id` is, or would go, in `entries` sorted by id: a binary search. */
function indexInIdOrder(entries: readonly Entry[], id: number | bigint): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle] as Entry).pet.id < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `entry` added to `entries` sorted by id, in its place: at the end (the usual case) without moving any other. */
function insertInIdOrder(entries: Entry[], entry: Entry): void {
  const last = entries.at(-1);
  if (last === undefined || last.pet.id < entry.pet.id) entries.push(entry);
  else entries.splice(indexInIdOrder(entries, entry.pet.id), 0, entry);
}

export interface PetStore {
  /** How many pets the store holds. */
  readonly size: Pending<number>;
  /** Adds a pet and returns it with its new id. */
  create(draft: PetDraft): Pending<StoredPet>;
  /** The pet with this id, if there is one. */
  get(id: number | bigint): Pending<StoredPet | undefined>;
  /** The first `limit` pets in the store's order (id order unless a profile says otherwise), only those with `status` when given. */
  list(limit: number, status?: PetStatus): Pending<StoredPet[]>;
  /** `list` as the JSON text of a Pets body; `limit` is a whole number. */
  listJson(limit: number, status?: PetStatus): Pending<string>;
  /** One pet's JSON text, if there is such a pet. */
  petJson(id: number | bigint): Pending<string | undefined>;
  /** The pets created since the seed, in id order: what a state file saves. */
  created(): Pending<StoredPet[]>;
  /** Back to the seeded pets. */
  reset(): Pending<void>;
  /** Adds these pets with the ids they have, each replacing the pet of its id if there is one (`POST /__mock/pets`). */
  put(pets: readonly StoredPet[]): Pending<void>;
}

/**
 * The mock's state, without HTTP. Pets are numbered densely from 1 and never removed, so the list in
 * id order is an array and pet number n sits at index n - 1; its id is n, or `idOffset + n` as a
 * bigint. An index per status keeps a filtered page at O(limit).
 */
/**
 * The mock's state in memory. Pets are numbered densely from 1 and never removed, so the list in
 * id order is an array and pet number n sits at index n - 1; its id is n, or `idOffset + n` as a
 * bigint. An index per status keeps a filtered page at O(limit).
 */
export class MemoryPetStore implements PetStore {
  readonly #seed: readonly Entry[];
  readonly #idOffset: bigint | undefined;
  readonly #randomIds: boolean;
  #all: Entry[] = [];
  #byStatus = new Map<PetStatus, Entry[]>();
  readonly #order: ListOrder;
  /** The pets of each status (`all` for every one) sorted by `#order`, when it is by name or status; cleared on every change. */
  #sorted = new Map<PetStatus | 'all', Entry[]>();
  /** Pages already serialized, by `pageKey`: every change of the pets must clear it. */
  #pages = new Map<number, string>();
  readonly #givenIds: boolean;
  /** Each pet by its id once ids are not pet numbers (`givenIds`, or after a `put`); `undefined` while pet n sits at index n - 1. */
  #byId: Map<number | bigint, Entry> | undefined;
  /** The pets created since the seed, once ids are not pet numbers. */
  #created: Entry[] = [];
  /** The largest id so far below `CREATED_IDS_BELOW` (or the last created past it), once ids are not pet numbers: a created pet gets the next free one. */
  #largest = 0n;

  constructor(seed: readonly StoredPet[] = [], options: PetStoreOptions = {}) {
    this.#idOffset = options.idOffset;
    this.#randomIds = options.randomIds === true;
    this.#order = options.order ?? 'id-asc';
    this.#givenIds = options.givenIds === true;
    this.#seed = seed.map((pet, index) => {
      if (this.#givenIds) return { pet, json: undefined };
      if (pet.id !== this.#idOf(index + 1)) throw new RangeError(`seed pets need ids in order from ${this.#idOf(1)}; pet at index ${index} has id ${pet.id}`);
      return { pet, json: undefined };
    });
    this.reset();
  }

  /** How many pets the store holds. */
  get size(): number {
    return this.#all.length;
  }

  /** Adds a pet and returns it with its new id. */
  create(draft: PetDraft): StoredPet {
    const id = this.#byId === undefined ? this.#idOf(this.#all.length + 1) : this.#nextId();
    const pet: StoredPet =
      draft.status === undefined
        ? { id, name: draft.name, categoryId: draft.categoryId }
        : { id, name: draft.name, categoryId: draft.categoryId, status: draft.status };
    const entry: Entry = { pet, json: undefined };
    if (this.#byId === undefined) this.#add(entry);
    else this.#addById(entry);
    this.#pages.clear();
    this.#sorted.clear();
    return pet;
  }

  /** The pet with this id, if there is one. */
  get(id: number | bigint): StoredPet | undefined {
    return this.#entry(id)?.pet;
  }

  /** The first `limit` pets in id order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): StoredPet[] {
    return this.#page(limit, status).map((entry) => entry.pet);
  }

  /** `list` as a JSON array, built from each pet's cached JSON, and kept until the pets change; `limit` is a whole number. */
  listJson(limit: number, status?: PetStatus): string {
    const key = pageKey(limit, status);
    let json = this.#pages.get(key);
    if (json === undefined) {
      json = contiguous(`[${this.#page(limit, status).map(jsonOf).join(',')}]`);
      this.#pages.set(key, json);
    }
    return json;
  }

  /** One pet's JSON. */
  petJson(id: number | bigint): string | undefined {
    const entry = this.#entry(id);
    return entry ? jsonOf(entry) : undefined;
  }

  /** The pets created since the seed, in id order. */
  created(): StoredPet[] {
    if (this.#byId !== undefined) return this.#created.map((entry) => entry.pet);
    return this.#all.slice(this.#seed.length).map((entry) => entry.pet);
  }

  /** Back to the seeded pets. */
  reset(): void {
    this.#all = [];
    this.#byStatus = new Map(PET_STATUSES.map((status) => [status, []]));
    this.#pages.clear();
    this.#sorted.clear();
    for (const entry of this.#seed) this.#add(entry);
    this.#byId = undefined;
    if (this.#givenIds) this.#keyById([...this.#seed].sort(COMPARE['id-asc']), []);
  }

  /**
   * Adds these pets with their own ids, each replacing the pet of its id; from then on pets are found
   * by id. The first put indexes the pets by id once; each later one costs a lookup and a binary
   * search per pet put (O(k log n) comparisons for k pets), never a sort of every pet.
   */
  put(pets: readonly StoredPet[]): void {
    if (this.#byId === undefined) {
      const all = this.#randomIds ? [...this.#all].sort(COMPARE['id-asc']) : this.#all;
      this.#keyById(all, this.#all.slice(this.#seed.length));
    }
    const byId = this.#byId ?? new Map<number | bigint, Entry>();
    // Past 2^62 `#largest` is the last id created there; every id below the bound is then taken, and creates go on from it.
    if (this.#largest >= CREATED_IDS_BELOW) this.#largest = CREATED_IDS_BELOW - 1n;
    for (const pet of pets) {
      const entry: Entry = { pet, json: undefined };
      const old = byId.get(keyOf(pet.id));
      byId.set(keyOf(pet.id), entry);
      if (old === undefined) this.#insert(entry);
      else this.#replace(old, entry);
      const id = BigInt(pet.id);
      if (id > this.#largest && id < CREATED_IDS_BELOW) this.#largest = id;
    }
    this.#pages.clear();
    this.#sorted.clear();
  }

  /** A pet put with a new id, in its place by id in every list it belongs to. */
  #insert(entry: Entry): void {
    insertInIdOrder(this.#all, entry);
    if (entry.pet.status !== undefined) insertInIdOrder(this.#byStatus.get(entry.pet.status) ?? [], entry);
  }

  /** A pet put in place of `old`, which has the same id: same place, its status's list perhaps another. */
  #replace(old: Entry, entry: Entry): void {
    const all = this.#all;
    all[indexInIdOrder(all, old.pet.id)] = entry;
    if (old.pet.status !== undefined) {
      const list = this.#byStatus.get(old.pet.status) ?? [];
      list.splice(indexInIdOrder(list, old.pet.id), 1);
    }
    if (entry.pet.status !== undefined) insertInIdOrder(this.#byStatus.get(entry.pet.status) ?? [], entry);
    const created = this.#created.indexOf(old);
    if (created >= 0) this.#created[created] = entry;
  }

  /** A created pet, once pets are found by id: appended while its id is the largest, else the pets are put in order again. */
  #addById(entry: Entry): void {
    this.#created.push(entry);
    this.#byId?.set(keyOf(entry.pet.id), entry);
    const id = BigInt(entry.pet.id);
    if (id > this.#largest && id < CREATED_IDS_BELOW) this.#largest = id;
    const last = this.#all.at(-1);
    if (last === undefined || id > BigInt(last.pet.id)) {
      this.#add(entry);
      return;
    }
    this.#all.push(entry);
    this.#keyById(this.#all.sort(COMPARE['id-asc']), this.#created);
  }

  /** From now on, pets are found by id: `all` (in id order) indexed, `created` kept apart for a state file. */
  #keyById(all: Entry[], created: Entry[]): void {
    this.#all = [];
    this.#byStatus = new Map(PET_STATUSES.map((status) => [status, []]));
    for (const entry of all) this.#add(entry);
    this.#byId = new Map(all.map((entry) => [keyOf(entry.pet.id), entry]));
    this.#created = created;
    this.#largest = idsAfter(all.map((entry) => entry.pet));
    this.#pages.clear();
    this.#sorted.clear();
  }

  /** The id of a pet created once pets are found by id: the next of a random-looking scheme when free, else the first free one after the largest below `CREATED_IDS_BELOW` (or the last created). */
  #nextId(): number | bigint {
    if (this.#randomIds) {
      const id = randomIdOf(this.#all.length + 1);
      if (!this.#byId?.has(keyOf(id))) return id;
    }
    // Created ids pass 2^62 once the largest below it is taken: each skips the pets put there, and the next follows it.
    let id = this.#largest + 1n;
    while (this.#byId?.has(keyOf(id))) id++;
    this.#largest = id;
    return keyOf(id);
  }

  #idOf(n: number): number | bigint {
    if (this.#randomIds) return randomIdOf(n);
    return this.#idOffset === undefined ? n : this.#idOffset + BigInt(n);
  }

  #entry(id: number | bigint): Entry | undefined {
    if (this.#byId !== undefined) return this.#byId.get(keyOf(id));
    const offset = this.#idOffset;
    const n = this.#randomIds ? numberOfRandomId(id) : offset === undefined ? Number(id) : typeof id === 'bigint' ? Number(id - offset) : id - Number(offset);
    const index = n - 1;
    return Number.isSafeInteger(index) && index >= 0 ? this.#all[index] : undefined;
  }

  #page(limit: number, status: PetStatus | undefined): Entry[] {
    const from = status === undefined ? this.#all : (this.#byStatus.get(status) ?? []);
    // Numbered in a row, the pets are already in id order; random-looking ids, or another order, are sorted once per change.
    const inIdOrder = !this.#randomIds || this.#byId !== undefined;
    if (inIdOrder && this.#order === 'id-asc') return from.slice(0, limit);
    if (inIdOrder && this.#order === 'id-desc') return from.slice(Math.max(0, from.length - limit)).reverse();
    const key = status ?? 'all';
    let sorted = this.#sorted.get(key);
    if (sorted === undefined) {
      sorted = [...from].sort(COMPARE[this.#order]);
      this.#sorted.set(key, sorted);
    }
    return sorted.slice(0, limit);
  }

  #add(entry: Entry): void {
    this.#all.push(entry);
    if (entry.pet.status !== undefined) this.#byStatus.get(entry.pet.status)?.push(entry);
  }
}
