/**
 * One session's pets in Redis, with the method names of the in-memory `PetStore`. The seeded pets come
 * first in id order, and the replica keeps them: a pet or a page the seed answers is served from
 * memory, at once, and so is a created pet of a session, or a page, that the replica
 * already holds (created-cache.ts); any other created pet, a page past what the replica holds and a
 * create each cost one script, which checks in the same step that Redis still holds the generation
 * the replica serves. Pets put into a session
 * by id (`POST /__mock/pets`), replaced or removed may be seeded ones: in such a session every read
 * asks Redis, and a change to the default session reaches every replica before it is answered.
 */
import { Budget } from '../../../bounds/budget.js';
import { SessionFullError } from '../../../errors.js';
import { stringifyJson } from '../../../json/lossless.js';
import type { PetStatus } from '../../../types.js';
import type { Pending } from '../../core/pending.js';
import { compareIds, filterValueOf, idsAfter } from '../seed-index.js';
import { DEFAULT_SESSION } from '../sessions.js';
import { fullMessage, NAMED_SESSIONS_PETS_BOUND, type PetDraft, type PetStore, petOf, type SavedPets, type StoredPet } from '../store.js';
import { settle } from './change-feed.js';
import type { CreatedCache } from './created-cache.js';
import type { SessionWrite } from './redis-client.js';
import type { RedisStore, View } from './redis-store.js';
import { exactId, petFrom, type SeedEntry, tailOf, type World } from './world.js';

/** A session's pets in Redis beyond the seed: those created by number, each as its number and JSON, and those put by id. */
interface Beyond {
  readonly created: readonly (readonly [number, string])[];
  /** Each pet put into the session (or created since a put), its JSON by its id's digits. */
  readonly put: ReadonlyMap<string, string>;
  /** The ids of the pets created since the first put, in creation order. */
  readonly made: readonly string[];
}

/** The named sessions' bound of pets, as the memory store's 429 names it. */
const PETS_BOUND = new Budget(NAMED_SESSIONS_PETS_BOUND).bound;

/** Throws the memory store's 429 for a script's refusal past the session's budget (scripts.ts `spend`): -2 its own cap, -3 the named sessions'. */
function withinBudget<T>(reply: T): T {
  if (reply === -2 || reply === -3) throw new SessionFullError(fullMessage(reply === -2 ? 'owner bytes' : 'total bytes', PETS_BOUND));
  return reply;
}

/** What the session's `put` hash holds for a pet removed: a tombstone, which keeps its id taken. */
const REMOVED = '';

/** A pet of a page as it is merged with those put by id. */
interface Ranked {
  readonly id: bigint;
  readonly json: string;
}

const byId = (a: Ranked, b: Ranked) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * A page of a session with pets put by id: each seeded or created pet not replaced by one, and those
 * put with `status`, in id order. At most `limit` seeded pets can make the page, so no more are read.
 */
function mergedPage(world: World, beyond: Beyond, limit: number, status: PetStatus | undefined): string[] {
  const { put } = beyond;
  const pets: Ranked[] = [];
  const { below, above } = world.seedPets(status);
  for (const entries of [below, above]) {
    let taken = 0;
    for (const entry of entries) {
      if (taken === limit) break;
      if (put.has(String(entry.pet.id))) continue;
      pets.push({ id: BigInt(entry.pet.id), json: entry.json });
      taken++;
    }
  }
  for (const [k, json] of beyond.created) {
    const id = world.idOf(world.recipe.count + k);
    if (!put.has(String(id))) pets.push({ id: BigInt(id), json });
  }
  for (const json of put.values()) {
    if (json === REMOVED) continue;
    const pet = petFrom(json, world.model);
    if (status === undefined || filterValueOf(world.filter, pet) === status) pets.push({ id: BigInt(pet.id), json });
  }
  return pets
    .sort(byId)
    .slice(0, limit)
    .map((pet) => pet.json);
}

/** Whether an id is a seeded one ('s'), a created pet's number k, or neither ('0'), as the scripts that put pets take it. */
function whereOf(world: World, id: number | bigint): string {
  const n = world.numberOf(id);
  return n === undefined ? '0' : n <= world.recipe.count ? 's' : String(n - world.recipe.count);
}

/** How the script that puts pets names each: its id, its JSON, and where its id is (`whereOf`). */
function putArguments(world: World, pets: readonly StoredPet[]): string[] {
  return pets.flatMap((pet) => [String(pet.id), stringifyJson(pet), whereOf(world, pet.id)]);
}

/**
 * One session's pets in Redis.
 * @example
 * const pets = state.store('default');
 * await pets.create({ name: 'Rex', categoryId: 1, status: 'available' }); // one script, with the other creates of this turn
 * pets.petJson(1); // a seeded pet: its JSON at once, no Redis command
 */
export class RedisPetStore implements PetStore {
  readonly #state: RedisStore;
  readonly #name: string;
  readonly #n: string;
  readonly #pets: string;
  readonly #put: string;
  /** Whether a named session had pets put into it when the request opened it; the default session's is in the replica's view. */
  readonly #puts: boolean;
  /** A named session's birth, as the request opened it (`OPEN` in scripts.ts): what its kept pets are kept by. */
  readonly #born: string | undefined;

  constructor(state: RedisStore, name: string, puts: boolean, born?: string) {
    this.#state = state;
    this.#name = name;
    this.#n = state.key(name, 'n');
    this.#pets = state.key(name, 'pets');
    this.#put = state.key(name, 'put');
    this.#puts = puts;
    this.#born = born;
  }

  /** Adds a pet: its number, the pet and its place in the status index in one step, with the session's other creates of this turn (create-batch.ts). */
  create(draft: PetDraft): Promise<StoredPet> {
    const { creates } = this.#state;
    const tail = tailOf(draft);
    return this.#state.inWorld(
      (world, _, view) =>
        creates.add(this.#name, world, draft, tail).then((k): StoredPet | -1 => {
          if (withinBudget(k) === -1) return -1;
          // A number k, or, in a session with pets put into it, the id itself.
          if (typeof k === 'string') return { id: exactId(BigInt(k)), ...draft };
          this.#cacheOf(view)?.keep(k, world.createdJson(k, tail));
          return { id: world.idOf(world.recipe.count + k), ...draft };
        }),
      this.#state.view(),
      false,
    );
  }

  /**
   * Adds these pets with the ids they have, each replacing the pet of its id, on every replica at once:
   * the default session's once no replica can still serve its seeded pets from memory.
   */
  async put(pets: readonly StoredPet[]): Promise<void> {
    const { redis, prefix } = this.#state;
    const highest = idsAfter(pets);
    const told = withinBudget(
      await this.#state.inWorld((world) =>
        redis.petstorePut(...this.#sessionWrite(world), highest === 0n ? '' : String(highest), prefix, ...putArguments(world, pets)),
      ),
    );
    // Every replica serves the default session's seeded pets from memory: answered once none still may.
    if (told === 1) await settle();
  }

  /** The pet with this id, if there is one. */
  async get(id: number | bigint): Promise<StoredPet | undefined> {
    const json = await this.petJson(id);
    return json === undefined ? undefined : petFrom(json, this.#state.model);
  }

  /**
   * One pet's JSON: a seeded one at once, a created one at once once this replica has read or made it
   * (created-cache.ts), any other (or any, once pets were put into the session) from Redis.
   */
  petJson(id: number | bigint): Pending<string | undefined> {
    const view = this.#state.view();
    if (!(view instanceof Promise) && !this.#hasPuts(view.puts)) {
      const { world } = view;
      const n = world.numberOf(id);
      if (n === undefined) return undefined;
      const { count } = world.recipe;
      if (n <= count) return world.seed[n - 1]?.json;
      const kept = this.#cacheOf(view)?.pet(n - count);
      if (kept !== undefined) return kept;
    }
    return this.#state.inWorld((current, puts, now) => this.#petJson(current, this.#hasPuts(puts), id, this.#cacheOf(now)), view);
  }

  /** The first `limit` pets in id order, only those with `status` when given. */
  async list(limit: number, status?: PetStatus): Promise<StoredPet[]> {
    const page = await this.#state.inWorld((world, puts, view) => this.#page(world, this.#hasPuts(puts), limit, status, this.#cacheOf(view)));
    return page.map((json) => petFrom(json, this.#state.model));
  }

  /**
   * `list` as a JSON array: a page the seed fills at once, and one whose created pets this replica
   * knows (created-cache.ts); one past them from Redis.
   */
  listJson(limit: number, status?: PetStatus): Pending<string> {
    const view = this.#state.view();
    if (!(view instanceof Promise) && !this.#hasPuts(view.puts)) {
      const page = view.world.seedPage(limit, status) ?? this.#cacheOf(view)?.page(view.world, limit, status);
      if (page !== undefined) return page;
    }
    return this.#state.inWorld((current, puts, now) => {
      const parts = this.#page(current, this.#hasPuts(puts), limit, status, this.#cacheOf(now));
      return Array.isArray(parts) ? `[${parts.join(',')}]` : parts.then((found) => (found === -1 ? -1 : `[${found.join(',')}]`));
    }, view);
  }

  /** What the session changed since the seed: its created pets still there, the seeded ones removed, and how many were created. */
  async saved(): Promise<SavedPets> {
    return this.#state.inWorld((world) =>
      this.#beyond(world, Number.MAX_SAFE_INTEGER, undefined, true).then((beyond): SavedPets | -1 => {
        if (beyond === -1) return -1;
        const { count } = world.recipe;
        const { put } = beyond;
        const numbered = beyond.created.map(([k, json]) => put.get(String(world.idOf(count + k))) ?? json);
        const removed: (number | bigint)[] = [];
        // A seeded pet written over: replaced (Redis keeps a pet put through the admin API the same way).
        const replaced: StoredPet[] = [];
        for (const [id, json] of put)
          if ((world.numberOf(BigInt(id)) ?? count + 1) <= count) {
            if (json === REMOVED) removed.push(exactId(BigInt(id)));
            else replaced.push(petFrom(json, world.model));
          }
        const created = [...numbered, ...beyond.made.map((id) => put.get(id) ?? REMOVED)].filter((json) => json !== REMOVED);
        return {
          created: created.map((json) => petFrom(json, world.model)),
          removed: removed.sort(compareIds),
          creates: numbered.length + beyond.made.length,
          ...(replaced.length > 0 ? { replaced: replaced.sort((a, b) => compareIds(a.id, b.id)) } : {}),
        };
      }),
    );
  }

  /** Redis keeps its own state, which a state file never restores (`persist` and `shared` never go together). */
  restore(): Promise<void> {
    return Promise.reject(new TypeError('a Redis store keeps its own state: there is nothing to restore into it'));
  }

  /** Removes the pet with this id on every replica at once, leaving a tombstone so that its id is never given again. */
  async remove(id: number | bigint): Promise<boolean> {
    return (await this.#change(id, REMOVED)) !== 0;
  }

  /** Replaces the pet with this id by one made of draft, keeping its id, on every replica at once; undefined when there is none. */
  async replace(id: number | bigint, draft: PetDraft): Promise<StoredPet | undefined> {
    const pet = petOf(id, draft);
    return (await this.#change(id, stringifyJson(pet))) === 0 ? undefined : pet;
  }

  /** The keys, world and name a script that writes this session's pets by id is given first. */
  #sessionWrite(world: World): SessionWrite {
    const { registry, recipeKey } = this.#state;
    const [top, added] = [this.#state.key(this.#name, 'top'), this.#state.key(this.#name, 'added')];
    const name = this.#name === DEFAULT_SESSION ? '' : this.#name;
    return [recipeKey, this.#n, this.#put, top, added, registry, world.text, name, String(world.largest), String(world.base)];
  }

  /**
   * Puts `json` (or a tombstone) in place of the pet of `id`, when the session holds one; 0 when it
   * does not. A change to the default session is answered once no replica can still serve the pet before.
   */
  async #change(id: number | bigint, json: string): Promise<0 | 1 | 2> {
    const { redis, prefix } = this.#state;
    const told = withinBudget(
      await this.#state.inWorld((world) => redis.petstoreChange(...this.#sessionWrite(world), prefix, String(id), json, whereOf(world, id))),
    );
    if (told === 2) await settle();
    return told as 0 | 1 | 2;
  }

  /** Back to the seeded pets and the base clock, on every replica. */
  reset(): Promise<void> {
    return this.#state.reset(this.#name);
  }

  /** How many pets the session has. */
  get size(): Promise<number> {
    const { redis, recipeKey } = this.#state;
    const added = this.#state.key(this.#name, 'added');
    return this.#state.inWorld((world) => redis.petstoreCount(recipeKey, this.#n, added, world.text).then((n) => (n === -1 ? -1 : world.recipe.count + n)));
  }

  /** Whether pets may have been put into this session: the default session's as the view says. */
  #hasPuts(defaultPuts: boolean): boolean {
    return this.#name === DEFAULT_SESSION ? defaultPuts : this.#puts;
  }

  /**
   * The created pets this replica keeps under `view` of this session, while none was put into it,
   * replaced or removed: the default session's, or a named one's of the birth the request opened.
   */
  #cacheOf(view: View): CreatedCache | undefined {
    if (this.#name === DEFAULT_SESSION) return view.puts ? undefined : view.created;
    return this.#puts || this.#born === undefined ? undefined : view.named?.of(this.#name, this.#born);
  }

  /** One pet's JSON, Redis asked only when the seed (or the cache) does not answer for it; reads of one pet in one turn share a command. */
  #petJson(world: World, puts: boolean, id: number | bigint, cache: CreatedCache | undefined): Pending<string | undefined | -1> {
    const n = world.numberOf(id);
    const { count } = world.recipe;
    const seeded: SeedEntry | undefined = n !== undefined && n <= count ? world.seed[n - 1] : undefined;
    if (!puts && (n === undefined || seeded !== undefined)) return seeded?.json;
    const k = n !== undefined && n > count ? n - count : 0;
    const kept = cache?.pet(k);
    if (kept !== undefined) return kept;
    const { redis, recipeKey } = this.#state;
    const read = () => redis.petstorePet(recipeKey, this.#pets, this.#put, world.text, k, String(id));
    return (cache === undefined ? read() : cache.shared(`pet ${k}`, read)).then((found) => {
      if (found === -1) return -1;
      if (found === REMOVED) return undefined;
      if (found === 0) return seeded?.json;
      if (found.startsWith('{')) return found;
      const json = world.createdJson(k, found);
      cache?.keep(k, json);
      return json;
    });
  }

  /**
   * The JSON of each pet of a page, in id order: the seed's first, then the created pets this replica
   * knows (`cache`), then Redis is asked only for what they leave of it; your own data's ids beyond
   * 2^62 come after the created pets.
   */
  #page(world: World, puts: boolean, limit: number, status: PetStatus | undefined, cache: CreatedCache | undefined): string[] | Promise<string[] | -1> {
    const { below, above } = world.seedPets(status);
    const parts = below.slice(0, limit).map((entry) => entry.json);
    if (parts.length >= limit && !puts) return parts;
    const need = limit - parts.length;
    const known = cache?.first(status, need);
    if (known !== undefined) return parts.concat(known);
    // What this replica knows of the start of the list, so that Redis is asked only for the rest.
    const head = cache?.first(status, cache.known(status)) ?? [];
    const from = head.length;
    const read = () => this.#beyond(world, need, status, false, from);
    return (cache === undefined ? read() : cache.shared(`page ${status} ${need} ${from}`, read)).then((beyond) => {
      if (beyond === -1) return -1;
      // The view said no pet was put: one put meanwhile is not answered yet, and this page is of the moment before it.
      if (puts && beyond.put.size > 0) return mergedPage(world, beyond, limit, status);
      cache?.extend(status, from, beyond.created);
      for (const json of head.slice(0, need)) parts.push(json);
      for (const [, json] of beyond.created.slice(0, limit - parts.length)) parts.push(json);
      for (const entry of above.slice(0, limit - parts.length)) parts.push(entry.json);
      return parts;
    });
  }

  /** What the session holds beyond the seed: the first `need` pets created by number (with `status`), after the `from` known, and every pet put. */
  async #beyond(world: World, need: number, status: PetStatus | undefined, made: boolean, from = 0): Promise<Beyond | -1> {
    const { redis, recipeKey } = this.#state;
    const keys = [recipeKey, this.#n, this.#pets, this.#put, this.#state.key(this.#name, 'made')];
    if (status !== undefined) keys.push(this.#state.key(this.#name, `st:${status}`));
    const reply = await redis.petstoreCreated(status === undefined ? 5 : 6, ...keys, world.text, need, made ? '1' : '0', from);
    if (reply === -1) return -1;
    const [numbered, put, madeIds] = reply;
    const created: [number, string][] = [];
    for (let i = 0; i + 1 < numbered.length; i += 2) {
      const k = Number(numbered[i]);
      created.push([k, world.createdJson(k, String(numbered[i + 1]))]);
    }
    const byIdJson = new Map<string, string>();
    for (let i = 0; i + 1 < put.length; i += 2) byIdJson.set(String(put[i]), String(put[i + 1]));
    return { created, put: byIdJson, made: madeIds };
  }
}
