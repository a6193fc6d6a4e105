import { type Bound, Budget, type Overrun, type Share } from '../../bounds/budget.js';
import { SessionFullError } from '../../errors.js';
import type { Pet, PetStatus } from '../../types.js';
import { cachedIn } from '../core/memo.js';
import type { Pending } from '../core/pending.js';
import { randomIdOf } from './random-ids.js';
import {
  ALL,
  CREATED_IDS_BELOW,
  compareIds,
  contiguous,
  type Entry,
  fieldOf,
  idOfEntry,
  idsAfter,
  indexById,
  jsonOf,
  keyOf,
  SeedIndex,
  type SeedOptions,
} from './seed-index.js';

/** A number of the spec as the store keeps it: an int64 beyond 2^53 stays exact as a `bigint`. */
type Exact<T> = T extends number ? number | bigint : T;

/** A record of the spec as a store keeps it: its integers may be `bigint`s, and an optional field may be `undefined`. */
type Stored<T> = { readonly [K in keyof T]: Exact<T[K]> | (object extends Pick<T, K> ? undefined : never) };

/** A pet as the store keeps it: a `Pet` of the spec whose integers may be `bigint`s, to stay exact beyond 2^53. */
export type StoredPet = Stored<Pet>;

/** What `create` needs: everything but the id, which the store assigns. */
export type PetDraft = Omit<StoredPet, 'id'>;

/**
 * What a store changed since the seed, as the state file saves it: enough to restore the pets, and
 * never to give an id twice.
 * @example
 * const saved: SavedPets = { created: [{ id: 52, name: 'Rex', categoryId: 1, status: 'sold' }], removed: [3], creates: 2 }; // pet 51 was created, then removed
 */
export interface SavedPets {
  /** The pets created since the seed and still there, in id order. */
  readonly created: readonly StoredPet[];
  /** The ids of the seeded pets removed. */
  readonly removed: readonly (number | bigint)[];
  /** How many pets were created since the seed, those removed since too: the next create is numbered after them. */
  readonly creates: number;
  /** The seeded pets replaced since the seed and still there, as they are now, in id order; none when absent. */
  readonly replaced?: readonly StoredPet[];
}

/**
 * The pets of one session, without HTTP: the one interface every store keeps, in memory (the default,
 * and the fast path) or elsewhere (Redis). A method may answer at once or in a promise; the mock
 * waits only for the promises, so a store that answers at once costs no microtask.
 * @example
 * const store: PetStore = new MemoryPetStore(seededPets(1, 50));
 * const page = await store.listJson(20, 'sold');
 */
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
  /** Replaces the pet with this id by one made of draft, keeping its id; undefined when there is none. */
  replace(id: number | bigint, draft: PetDraft): Pending<StoredPet | undefined>;
  /** Removes the pet with this id; whether there was one. Its id is never given to another pet. */
  remove(id: number | bigint): Pending<boolean>;
  /** What the store changed since the seed, as a state file saves it. */
  saved(): Pending<SavedPets>;
  /** Back to the seed, then to what was saved (`saved`), as a restart with a state file does. */
  restore(saved: SavedPets): Pending<void>;
  /** Back to the seeded pets. */
  reset(): Pending<void>;
  /** Adds these pets with the ids they have, each replacing the pet of its id if there is one (`POST /__mock/pets`). */
  put(pets: readonly StoredPet[]): Pending<void>;
}

/** The pet with `id` and the fields of `draft` that have a value, the id first. */
export function petOf(id: number | bigint, draft: PetDraft): StoredPet {
  const pet: Record<string, unknown> = { id };
  // A draft is a plain object of its own fields: `for...in` reads them without the array of pairs `Object.entries` makes.
  for (const field in draft) {
    const value = draft[field as keyof PetDraft];
    if (value !== undefined) pet[field] = value;
  }
  return pet as StoredPet;
}

/** Where `entry` goes in `list`, kept in id order: at the end, as created pets mostly go, or found by a binary search. */
function insertById(list: Entry[], entry: Entry): void {
  const last = list.at(-1);
  if (last === undefined || compareIds(last.pet.id, entry.pet.id) < 0) list.push(entry);
  else list.splice(indexById(list, entry.pet.id, idOfEntry), 0, entry);
}

function removeFrom(list: Entry[] | undefined, entry: Entry): void {
  const at = list?.indexOf(entry) ?? -1;
  if (at >= 0) list?.splice(at, 1);
}

/**
 * Up to `limit` pets of two lists, each already in the page's order, merged in that order: the seed's,
 * less the pets the session replaced or removed (`hidden`), and the session's own. Read from the end
 * when `reversed` (lists in id order, for a page in descending id order).
 */
function merge(
  seeded: readonly Entry[],
  own: readonly Entry[],
  compare: (a: Entry, b: Entry) => number,
  reversed: boolean,
  hidden: ((entry: Entry) => boolean) | undefined,
  limit: number,
): Entry[] {
  const page: Entry[] = [];
  const step = reversed ? -1 : 1;
  let [i, j] = reversed ? [seeded.length - 1, own.length - 1] : [0, 0];
  while (page.length < limit) {
    while (seeded[i] !== undefined && hidden?.(seeded[i] as Entry)) i += step;
    const fromSeed = seeded[i];
    const fromSession = own[j];
    if (fromSeed === undefined && fromSession === undefined) break;
    if (fromSession === undefined || (fromSeed !== undefined && compare(fromSeed, fromSession) <= 0)) {
      page.push(fromSeed as Entry);
      i += step;
    } else {
      page.push(fromSession);
      j += step;
    }
  }
  return page;
}

/**
 * The most a session's own pets (created, put, or replacing seeded ones) are counted as, in bytes:
 * 2 a character of each pet's JSON and 128 for its place in the session's lists. Some 100,000 pets of
 * the usual size; a larger data set is a seed (`--data`), which every session shares at no cost.
 * `POST /__mock/pets` of 1 MiB bodies, again and again, once grew a session without end.
 */
export const SESSION_PETS_BYTES = 16 * 1024 * 1024;

/**
 * The pets of all named sessions together, in memory: four full sessions. `--max-sessions` (100 by
 * default) multiplied the cap of one: 100 sessions of 16 MiB each took a mock to 3.4 GB. The default
 * session has its own `SESSION_PETS_BYTES` besides, so that named sessions never fill it.
 */
export const SESSIONS_PETS_BYTES = 4 * SESSION_PETS_BYTES;

/** The bound of one session's pets alone: a store made on its own, and the default session's. */
const SESSION_PETS_BOUND: Bound = { ownerBytes: SESSION_PETS_BYTES, totalBytes: SESSION_PETS_BYTES };

/** The bound of the named sessions' pets: each within `SESSION_PETS_BYTES`, all within `SESSIONS_PETS_BYTES`. */
export const NAMED_SESSIONS_PETS_BOUND: Bound = { ownerBytes: SESSION_PETS_BYTES, totalBytes: SESSIONS_PETS_BYTES };

/** The 429's message for a put or a create that would pass the pets' bound: which part, and what to do (every store says it). */
export function fullMessage(over: Overrun, bound: Required<Bound>): string {
  const alone = `The session would hold more than ${bound.ownerBytes} bytes of pets of its own, its cap (SESSION_PETS_BYTES, docs/guarantees.md); nothing was changed. Reset the session (POST /__mock/reset with its X-Mock-Session), or seed large data with --data.`;
  if (over !== 'total bytes') return alone;
  return `The named sessions would hold more than ${bound.totalBytes} bytes of pets of their own together, their cap (SESSIONS_PETS_BYTES, docs/guarantees.md); nothing was changed. Reset or drop sessions you are done with (POST /__mock/sessions/<name>/reset, DELETE /__mock/sessions/<name>), or seed large data with --data.`;
}

/** What a pet of a session's own is counted as besides 2 bytes a character of its JSON: its place in the session's lists. */
export const PET_ENTRY_BYTES = 128;

/** What one pet of a session's own is counted as. */
function entryBytes(entry: Entry): number {
  return PET_ENTRY_BYTES + 2 * jsonOf(entry).length;
}

/**
 * What the tombstone of a removed seeded pet is counted as: its id's entry in the overlay's map (a
 * million deletes in one session held 32 MiB that no budget saw, red team 10 #6).
 */
export const TOMBSTONE_BYTES = 48;

/**
 * What restoring `saved` into a session counts against its cap: what the changes that saved it counted.
 * A state file the mock wrote never passes `SESSION_PETS_BYTES`; one written by hand may (40 MB of pets
 * once restored into a session of 16 MiB, red team 13 #1), and is refused where it enters.
 */
export function savedBytes(saved: SavedPets): number {
  let bytes = saved.removed.length * TOMBSTONE_BYTES;
  for (const pet of [...saved.created, ...(saved.replaced ?? [])]) bytes += entryBytes({ pet, json: undefined });
  return bytes;
}

/**
 * One session's pets in memory: an overlay over the seed, which every session shares and none
 * changes. Opening a session copies nothing; the overlay holds what the session changed (the pets
 * created, put or removed), so its memory grows with those changes alone, and a reset drops it. A page
 * merges the seed's pets (through its indexes, at O(limit)) with the overlay's, kept in id order and
 * by filter value.
 * @example
 * const seed = new SeedIndex(seededPets(1, 100_000));
 * const store = new MemoryPetStore(seed); // O(1), however large the seed
 */
export class MemoryPetStore implements PetStore {
  readonly #seed: SeedIndex;
  /** The session's own pets by id (created, put, or a put's replacement of a seeded one); `null` where a seeded pet was removed. */
  readonly #changed = new Map<number | bigint, Entry | null>();
  /** How many seeded pets the overlay hides (replaced or removed). */
  #hidden = 0;
  /** The session's own pets, in id order, and by filter value. */
  #own: Entry[] = [];
  readonly #ownByValue = new Map<unknown, Entry[]>();
  /** The session's own pets of each filter value in the seed's order, when it is by a field; cleared on every change. */
  readonly #ownSorted = new Map<unknown, Entry[]>();
  /** Pages already serialized, by `pageKey`, while the session has changes: every change clears it. */
  readonly #pages = new Map<number, string>();
  /** Pets created since the reset: pet numbers follow the seed's. */
  #creates = 0;
  /** Whether ids are no longer pet numbers: your own data, or a session with pets put into it. */
  #byId = false;
  /** Pets numbered so far (seeded, created, put with a new id): the number behind the next random-looking id. */
  #numbered = 0;
  /** The largest id so far below `CREATED_IDS_BELOW` (or the last created past it), once ids are not pet numbers: a created pet gets the next free one. */
  #largest = 0n;
  /** The bytes the session's own pets are counted as (`entryBytes`), within its share of the sessions' budget. */
  readonly #share: Share;

  /** A store over a seed shared with other sessions, or over pets of its own (a new seed, made with `options`); its own pets within `share`. */
  constructor(seed: SeedIndex | readonly StoredPet[] = [], options: SeedOptions = {}, share: Share = new Budget(SESSION_PETS_BOUND).share()) {
    this.#seed = seed instanceof SeedIndex ? seed : new SeedIndex(seed, options);
    this.#share = share;
    this.reset();
  }

  /** Gives the session's pets back to the budget it shares with other sessions: the session is dropped. */
  release(): void {
    this.#share.release();
  }

  /** How many pets the store holds. */
  get size(): number {
    return this.#seed.size - this.#hidden + this.#own.length;
  }

  /** Adds a pet and returns it with its new id. */
  create(draft: PetDraft): StoredPet {
    // The id a refused create would have had is not given later: ids are never given twice, and may skip.
    const id = this.#byId ? this.#nextId() : this.#seed.idOf(this.#seed.size + this.#creates + 1);
    const entry: Entry = { pet: petOf(id, draft), json: undefined, saved: 'created' };
    this.#makeRoomFor(this.#growthBy(entry));
    this.#creates++;
    this.#numbered++;
    this.#add(entry);
    return entry.pet;
  }

  /** The pet with this id, if there is one. */
  get(id: number | bigint): StoredPet | undefined {
    return this.#entry(id)?.pet;
  }

  /** The first `limit` pets in the store's order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): StoredPet[] {
    return this.#page(limit, status).map((entry) => entry.pet);
  }

  /** `list` as a JSON array, built from each pet's cached JSON, and kept until the pets change; `limit` is a whole number. */
  listJson(limit: number, status?: PetStatus): string {
    const key = this.#seed.pageKey(limit, status);
    const make = () => contiguous(`[${this.#page(limit, status).map(jsonOf).join(',')}]`);
    return this.#changed.size === 0 ? this.#seed.page(key, make) : cachedIn(this.#pages, key, make);
  }

  /** One pet's JSON. */
  petJson(id: number | bigint): string | undefined {
    const entry = this.#entry(id);
    return entry ? jsonOf(entry) : undefined;
  }

  /** Replaces a pet by one of `draft` with its id: in the overlay, where it hides a seeded one; saved as the pet it replaced was (created), or as a replaced seeded pet. */
  replace(id: number | bigint, draft: PetDraft): StoredPet | undefined {
    const old = this.#entry(id);
    if (old === undefined) return undefined;
    const seeded = this.#seed.find(old.pet.id) !== undefined;
    const entry: Entry = { pet: petOf(old.pet.id, draft), json: undefined, saved: old.saved ?? (seeded ? 'replaced' : undefined) };
    this.#makeRoom([entry]);
    this.#add(entry);
    return entry.pet;
  }

  /** Removes the pet with this id: one of the session's own is dropped from the overlay, a seeded one is hidden. */
  remove(id: number | bigint): boolean {
    return this.#remove(id, true);
  }

  /** `remove`, within the session's budget when `bounded` (a restore takes back what was kept, as its creates do). */
  #remove(id: number | bigint, bounded: boolean): boolean {
    const key = keyOf(id);
    const own = this.#changed.get(key);
    if (own === null) return false;
    const seeded = this.#seed.find(key) !== undefined;
    if (own === undefined) {
      if (!seeded) return false;
      const over = bounded ? this.#share.overrun(TOMBSTONE_BYTES) : undefined;
      if (over !== undefined) throw new SessionFullError(fullMessage(over, this.#share.budget.bound));
      this.#hidden++;
    } else this.#drop(own);
    // A seeded id stays taken by its tombstone; a created one by the numbering, which only moves on.
    if (seeded) {
      this.#changed.set(key, null);
      this.#share.adjust(TOMBSTONE_BYTES);
    } else this.#changed.delete(key);
    this.#changes();
    return true;
  }

  /** The pets created since the seed and the seeded pets replaced (each in id order), the seeded pets removed, and how many creates were made. */
  saved(): SavedPets {
    const removed: (number | bigint)[] = [];
    for (const [id, entry] of this.#changed) if (entry === null) removed.push(id);
    const kept = (saved: Entry['saved']) => this.#own.filter((entry) => entry.saved === saved).map((entry) => entry.pet);
    const replaced = kept('replaced');
    return { created: kept('created'), removed: removed.sort(compareIds), creates: this.#creates, ...(replaced.length > 0 ? { replaced } : {}) };
  }

  /** Back to the seed, then the saved pets created (with their ids), replaced and removed, numbering after the saved creates. */
  restore(saved: SavedPets): void {
    this.reset();
    for (const id of saved.removed) this.#remove(id, false);
    for (const pet of saved.created) this.#add({ pet, json: undefined, saved: 'created' });
    for (const pet of saved.replaced ?? []) this.#add({ pet, json: undefined, saved: 'replaced' });
    this.#creates = saved.creates;
    this.#numbered += saved.creates;
    // Over your own data, created ids follow the largest below 2^62 one by one.
    if (this.#byId) this.#largest += BigInt(saved.creates);
  }

  /** Back to the seeded pets: the overlay dropped. */
  reset(): void {
    this.#share.adjust(-this.#share.bytes);
    this.#changed.clear();
    this.#own = [];
    this.#ownByValue.clear();
    this.#hidden = 0;
    this.#creates = 0;
    this.#byId = this.#seed.givenIds;
    this.#numbered = this.#seed.size;
    this.#largest = this.#seed.largest;
    this.#changes();
  }

  /** Adds these pets with their own ids, each replacing the pet of its id; from then on created pets are numbered after the largest id. */
  put(pets: readonly StoredPet[]): void {
    this.#makeRoom(pets.map((pet) => ({ pet, json: undefined })));
    if (!this.#byId) {
      // Created ids were pet numbers until now: the next ones follow the largest id the session holds.
      this.#byId = true;
      const lastCreated = this.#creates === 0 ? [] : [{ id: this.#seed.idOf(this.#seed.size + this.#creates) }];
      this.#largest = idsAfter([{ id: this.#largest }, ...lastCreated, ...this.#own.map((entry) => entry.pet)]);
    }
    for (const pet of pets) {
      const old = this.#entry(pet.id);
      if (old === undefined) this.#numbered++;
      this.#add({ pet, json: undefined, saved: old?.saved });
      if (pet.id > this.#largest && pet.id < CREATED_IDS_BELOW) this.#largest = BigInt(pet.id);
    }
  }

  /** Throws `SessionFullError`, before anything changes, when `entries` in place of the session's own pets of their ids would pass its share of the budget. */
  #makeRoom(entries: readonly Entry[]): void {
    let bytes = 0;
    for (const entry of entries) bytes += this.#growthBy(entry);
    this.#makeRoomFor(bytes);
  }

  /** The bytes the session's own pets grow by when `entry` takes the place of the pet of its id. */
  #growthBy(entry: Entry): number {
    const old = this.#changed.get(keyOf(entry.pet.id));
    return entryBytes(entry) - (old ? entryBytes(old) : old === null ? TOMBSTONE_BYTES : 0);
  }

  /** `#makeRoom` for a growth in bytes already summed: one create's, without a list made for it. */
  #makeRoomFor(bytes: number): void {
    const over = this.#share.overrun(bytes);
    if (over !== undefined) throw new SessionFullError(fullMessage(over, this.#share.budget.bound));
  }

  /** Adds a pet to the overlay, in place of the one of its id: the session's own, or a seeded one it then hides. */
  #add(entry: Entry): void {
    this.#share.adjust(entryBytes(entry));
    const key = keyOf(entry.pet.id);
    const old = this.#changed.get(key);
    if (old) this.#drop(old);
    else if (old === null) this.#share.adjust(-TOMBSTONE_BYTES);
    else if (this.#seed.find(key) !== undefined) this.#hidden++;
    this.#changed.set(key, entry);
    insertById(this.#own, entry);
    const value = this.#valueOf(entry);
    if (value !== undefined)
      insertById(
        cachedIn(this.#ownByValue, value, () => []),
        entry,
      );
    this.#changes();
  }

  /** Takes one of the session's own pets out of its lists. */
  #drop(entry: Entry): void {
    this.#share.adjust(-entryBytes(entry));
    removeFrom(this.#own, entry);
    removeFrom(this.#ownByValue.get(this.#valueOf(entry)), entry);
  }

  #valueOf(entry: Entry): unknown {
    const field = this.#seed.filter?.field;
    return field === undefined ? undefined : fieldOf(entry.pet, field);
  }

  #changes(): void {
    // V8 gives a cleared Map a new table even when it was empty: creates in a row, with no page read between, clear nothing.
    if (this.#pages.size > 0) this.#pages.clear();
    if (this.#ownSorted.size > 0) this.#ownSorted.clear();
  }

  /** The id of a pet created once ids are not pet numbers: the next of a random-looking scheme when free, else the first free one after the largest below `CREATED_IDS_BELOW` (or the last created). */
  #nextId(): number | bigint {
    if (this.#seed.randomIds) {
      const id = randomIdOf(this.#numbered + 1);
      if (!this.#taken(id)) return id;
    }
    // Created ids pass 2^62 once the largest below it is taken: each skips the pets put there, and the next follows it.
    let id = this.#largest + 1n;
    while (this.#taken(id)) id++;
    this.#largest = id;
    return keyOf(id);
  }

  /** Whether an id is held, or was held by a pet since removed: ids are never given twice. */
  #taken(id: number | bigint): boolean {
    return this.#changed.has(keyOf(id)) || this.#seed.find(id) !== undefined;
  }

  #entry(id: number | bigint): Entry | undefined {
    if (this.#changed.size > 0) {
      const own = this.#changed.get(keyOf(id));
      if (own !== undefined) return own ?? undefined;
    }
    return this.#seed.find(id);
  }

  #page(limit: number, value: unknown): Entry[] {
    const seed = this.#seed;
    const hidden = this.#hidden === 0 ? undefined : (entry: Entry) => this.#changed.has(keyOf(entry.pet.id));
    const own = value === undefined ? this.#own : (this.#ownByValue.get(value) ?? []);
    if (seed.order === 'id-asc' || seed.order === 'id-desc') return merge(seed.filtered(value), own, seed.compare, seed.order === 'id-desc', hidden, limit);
    const sorted = cachedIn(this.#ownSorted, value ?? ALL, () => [...own].sort(seed.compare));
    return merge(seed.sorted(value), sorted, seed.compare, false, hidden, limit);
  }
}
