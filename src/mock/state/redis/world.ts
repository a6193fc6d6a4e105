/**
 * One generation of a namespace: the recipe its seeder wrote (the seed's parameters and a generation
 * id) and its seeded pets, which never change, so each replica keeps them in memory, with the pages
 * the seed alone fills already serialized. Seeding writes the pets, then the recipe; a namespace
 * emptied (FLUSHALL, a restart without persistence) and seeded again never reads as the one before,
 * even with the same seed, because each seeding draws a new generation id.
 */
import { createHash, randomUUID } from 'node:crypto';
import { BIG_ID_OFFSET, seededPetsSoon } from '../../../fixtures/seeding.js';
import { isJsonObject, parseJson, stringifyJson, validationView } from '../../../json/lossless.js';
import { BUNDLED_SPEC, type CompiledSpec } from '../../../openapi/bundled-model.js';
import type { ResourceModel } from '../../../openapi/resource-model.js';
import type { PetStatus } from '../../../types.js';
import { isStoredPet } from '../pet-data.js';
import { filterValueOf, idsAfter, type PageFilter, pageFilterOf } from '../seed-index.js';
import type { PetDraft, StoredPet } from '../store.js';
import { announceChange, settle } from './change-feed.js';
import type { RedisClient } from './redis-client.js';

/** What a namespace was seeded with: the first replica's `--seed`, `--count` and `--big-ids`, or the hash of its `--data`; and its `--spec`. */
export interface SeedRecipe {
  readonly seed: number;
  readonly count: number;
  readonly bigIds: boolean;
  /** The hash of your own pets (`--data`), when they replace the seeded ones. */
  readonly data?: string;
  /** The hash of the spec served (`--spec`), when it is not the bundled one: its pets have its fields. */
  readonly spec?: string;
}

/** What a namespace's pets are made of: the spec served (its fields drawn for seeded pets, its schema for every pet read back), or your own pets. */
export interface SeedSource {
  readonly spec: CompiledSpec;
  readonly data?: readonly StoredPet[] | undefined;
}

/** The hash a recipe records of a spec that is not the bundled one. */
export function specHash(spec: CompiledSpec): string | undefined {
  return spec === BUNDLED_SPEC ? undefined : createHash('sha256').update(stringifyJson(spec.doc)).digest('base64url');
}

export interface SeedEntry {
  readonly pet: StoredPet;
  readonly json: string;
}

/** A pet read back from its JSON, held to the spec's Pet schema; Redis holds nothing else, so anything else is a corrupted namespace. */
export function petFrom(json: string, model: ResourceModel): StoredPet {
  const value = parseJson(json);
  // A copy: the validator fills in the spec's defaults, and a pet without a status (your own data may have one) stays without.
  if (isJsonObject(value) && model.validateRecord(structuredClone(validationView(value))) && isStoredPet(value)) return value;
  throw new Error(`Redis holds a pet that is not one: ${json.slice(0, 200)}; clear the namespace (DEL its keys) and restart.`);
}

/** A pet's JSON without its id (`{"id":...,` left off): what Redis keeps, since the id follows from the pet's number. */
export function tailOf(pet: PetDraft | StoredPet): string {
  if (!('id' in pet)) return stringifyJson(pet).slice(1);
  const { id: _, ...draft } = pet;
  return stringifyJson(draft).slice(1);
}

/**
 * A pet's JSON from its id and the tail Redis keeps. Joined, not concatenated: `+` and template
 * strings make a cons string, and one such string through the JSON parser makes its property loads
 * polymorphic for every request body after it (V8's IC log: 10 parser sites on Redis, none in
 * memory); a joined string is flat, as a request body is.
 */
function petJsonOf(id: number | bigint, tail: string): string {
  return ['{"id":', String(id), ',', tail].join('');
}

/** The recipe a namespace records; anything else there is not ours. */
function recipeFrom(text: string, prefix: string): SeedRecipe {
  const value = parseJson(text);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { seed, count, bigIds, data, spec } = value;
    if (typeof seed === 'number' && typeof count === 'number' && typeof bigIds === 'boolean')
      return { seed, count, bigIds, ...(typeof data === 'string' ? { data } : {}), ...(typeof spec === 'string' ? { spec } : {}) };
  }
  throw new Error(`${prefix}seed:recipe in Redis is not a petstore-mock seed recipe; pick another --namespace, or delete the key.`);
}

/** The key of every seeded pet's list, apart from any value a filter takes. */
const ALL = Symbol('all');

/** An id as the store keeps it: a number while exact as one, a bigint beyond. */
export function exactId(id: bigint): number | bigint {
  return id <= BigInt(Number.MAX_SAFE_INTEGER) && id >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(id) : id;
}

/** The seeded pets of each status (`all` for every one), split where created pets come in id order. */
interface SeedLists {
  /** Ids up to `World.base`: every seeded pet, but those of your own data beyond 2^62 (`idsAfter`). */
  readonly below: readonly SeedEntry[];
  /** Ids beyond the created ones: only your own data has these. */
  readonly above: readonly SeedEntry[];
}

function splitAt(entries: readonly SeedEntry[], base: bigint): SeedLists {
  const split = entries.findIndex((entry) => BigInt(entry.pet.id) > base);
  return split < 0 ? { below: entries, above: [] } : { below: entries.slice(0, split), above: entries.slice(split) };
}

/**
 * A namespace's generation as this replica holds it. Created pet k of a session has id `base + k`:
 * after the seed's last id, or, with your own data (`--data`), after its largest id below 2^62.
 */
export class World {
  /** The recipe exactly as Redis holds it, generation id included: what a script compares. */
  readonly text: string;
  readonly recipe: SeedRecipe;
  /** The model of the spec served: every pet read back from Redis is held to its record schema. */
  readonly model: ResourceModel;
  /** The seeded pets in id order. */
  readonly seed: readonly SeedEntry[];
  /** Created pet k has id `base + k`. */
  readonly base: bigint;
  /** The largest seeded id below 2^62 (0 when none): a session's pets put by id are numbered on from the largest. */
  readonly largest: bigint;
  /** With your own data, the pet number of each seeded id (its ids do not follow from numbers). */
  readonly #numbers: ReadonlyMap<string, number> | undefined;
  /** The list's filter (`status`): the seed is listed by each of its values. */
  readonly filter: PageFilter | undefined;
  readonly #lists: ReadonlyMap<unknown, SeedLists>;
  /** The pages the seed alone fills, serialized once each. */
  readonly #pages = new Map<number, string>();

  constructor(text: string, recipe: SeedRecipe, seed: readonly SeedEntry[], model: ResourceModel) {
    this.text = text;
    this.recipe = recipe;
    this.model = model;
    this.seed = seed;
    const given = recipe.data !== undefined;
    this.largest = given ? idsAfter(seed.map((entry) => entry.pet)) : BigInt(recipe.count === 0 ? 0 : this.idOf(recipe.count));
    this.base = given ? this.largest : BigInt(this.idOf(recipe.count));
    this.#numbers = given ? new Map(seed.map((entry, index) => [String(entry.pet.id), index + 1])) : undefined;
    this.filter = pageFilterOf(model);
    const lists = new Map<unknown, SeedLists>([[ALL, splitAt(seed, this.base)]]);
    for (const value of this.filter?.values ?? [])
      lists.set(
        value,
        splitAt(
          seed.filter((entry) => filterValueOf(this.filter, entry.pet) === value),
          this.base,
        ),
      );
    this.#lists = lists;
  }

  /** The seeded pets (or those with one status) that come before every created pet in id order, and those after. */
  seedPets(status?: PetStatus): SeedLists {
    return this.#lists.get(status ?? ALL) ?? { below: [], above: [] };
  }

  /** A page's filter value and limit as one small integer, as the memory store keys its pages. */
  #pageKey(limit: number, status: PetStatus | undefined): number {
    const values = this.filter?.values ?? [];
    return limit * (values.length + 1) + (status === undefined ? 0 : values.indexOf(status) + 1);
  }

  /** The JSON of a page when the seed fills it: pets created in a session come after every seeded one it holds. */
  seedPage(limit: number, status: PetStatus | undefined): string | undefined {
    const key = this.#pageKey(limit, status);
    let json = this.#pages.get(key);
    if (json !== undefined) return json;
    const pets = this.seedPets(status).below;
    if (pets.length < limit) return undefined;
    // Joined, not concatenated: a flat string is copied out to each response in one piece.
    json = [
      '[',
      pets
        .slice(0, limit)
        .map((entry) => entry.json)
        .join(','),
      ']',
    ].join('');
    this.#pages.set(key, json);
    return json;
  }

  /** The id of a session's pet number n (the seed's first, then those created). */
  idOf(n: number): number | bigint {
    if (this.#numbers !== undefined) return n <= this.recipe.count ? (this.seed[n - 1]?.pet.id ?? 0) : exactId(this.base + BigInt(n - this.recipe.count));
    return this.recipe.bigIds ? BIG_ID_OFFSET + BigInt(n) : n;
  }

  /** The pet number of an id, or undefined for an id no pet can have. */
  numberOf(id: number | bigint): number | undefined {
    if (this.#numbers !== undefined) {
      const after = BigInt(id) - this.base;
      return this.#numbers.get(String(id)) ?? (after > 0n && after <= BigInt(Number.MAX_SAFE_INTEGER) ? this.recipe.count + Number(after) : undefined);
    }
    const n = this.recipe.bigIds ? (typeof id === 'bigint' ? Number(id - BIG_ID_OFFSET) : id - Number(BIG_ID_OFFSET)) : Number(id);
    return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
  }

  /** The JSON of the session's created pet number k, from the tail Redis keeps. */
  createdJson(k: number, tail: string): string {
    return petJsonOf(this.idOf(this.recipe.count + k), tail);
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seed pets per command when writing or reading a namespace's seed. */
const SEED_BATCH = 5_000;
/** How long the replica that seeds may hold the seeding lock without showing progress. */
export const SEED_LOCK_MS = 30_000;

/** The recipe Redis holds, or `undefined` for a namespace nobody seeded (yet). */
async function recordedRecipe(redis: RedisClient, prefix: string): Promise<{ readonly recipe: SeedRecipe; readonly text: string } | undefined> {
  const text = await redis.get(`${prefix}seed:recipe`);
  return text === null ? undefined : { recipe: recipeFrom(text, prefix), text };
}

/**
 * Writes `recipe`'s pets and then the recipe itself, with a new generation id, freeing the lock and
 * telling every replica in the same step; then waits until no replica can still trust the world before.
 */
async function writeSeed(redis: RedisClient, prefix: string, recipe: SeedRecipe, source: SeedSource): Promise<string> {
  const lockKey = `${prefix}seed:lock`;
  const { data, spec } = source;
  // Another spec's pets are drawn from its own fields, as in memory.
  const fields = spec === BUNDLED_SPEC ? undefined : spec.model.fields.filter((field) => field.writable);
  // Your own pets are kept whole, by pet number in id order: their ids do not follow from their numbers.
  const pets = data ?? (await seededPetsSoon(recipe.seed, recipe.count, {}, fields, spec.model.createBodyBytes));
  for (let from = 0; from < pets.length; from += SEED_BATCH) {
    const batch = pets
      .slice(from, from + SEED_BATCH)
      .flatMap((pet, i) => (data === undefined ? [String(pet.id), tailOf(pet)] : [String(from + i + 1), stringifyJson(pet)]));
    await redis
      .multi()
      .hset(`${prefix}seed:pets`, ...batch)
      .pexpire(lockKey, SEED_LOCK_MS)
      .exec();
  }
  const text = JSON.stringify({ ...recipe, generation: randomUUID() });
  await announceChange(redis.multi().set(`${prefix}seed:recipe`, text).del(lockKey), prefix, 'world').exec();
  await settle();
  return text;
}

/**
 * Writes the seed into an empty namespace, exactly once: the replica that takes the seeding lock
 * (SET NX) writes it and then the recipe; the others wait for the recipe. A replica that dies while
 * seeding lets its lock expire, and another one starts over.
 */
async function seedOnce(
  redis: RedisClient,
  prefix: string,
  wanted: SeedRecipe,
  deadline: number,
  source: SeedSource,
): Promise<{ readonly recipe: SeedRecipe; readonly text: string }> {
  const lockKey = `${prefix}seed:lock`;
  // The lock names its holder, for whoever looks at Redis while a seeding hangs.
  const holder = `pid ${process.pid}`;
  for (;;) {
    const recorded = await recordedRecipe(redis, prefix);
    if (recorded !== undefined) return recorded;
    if ((await redis.set(lockKey, holder, 'PX', SEED_LOCK_MS, 'NX')) === 'OK') {
      // The seeder before may have finished between the read above and the lock: it sets the recipe
      // and frees the lock in one step, so with the lock held the recipe is there or never was.
      const done = await recordedRecipe(redis, prefix);
      if (done !== undefined) {
        await redis.del(lockKey);
        return done;
      }
      try {
        return { recipe: wanted, text: await writeSeed(redis, prefix, wanted, source) };
      } catch (error) {
        // A seed that cannot be drawn (a record past what a create accepts) stops this replica with its
        // sentence; its lock, still its own, is freed, so the next to start is not held 30 s to say the same.
        if ((await redis.get(lockKey)) === holder) await redis.del(lockKey);
        throw error;
      }
    }
    if (Date.now() > deadline) throw new Error(`another replica has been seeding namespace ${prefix.slice(0, -1)} for too long; try again, or clear its keys.`);
    await wait(50);
  }
}

/** The namespace's seeded pets, read in batches. */
async function readSeed(redis: RedisClient, prefix: string, recipe: SeedRecipe, model: ResourceModel): Promise<SeedEntry[]> {
  const entries: SeedEntry[] = [];
  for (let from = 1; from <= recipe.count; from += SEED_BATCH) {
    const numbers = Array.from({ length: Math.min(SEED_BATCH, recipe.count - from + 1) }, (_, i) => String(from + i));
    const tails = await redis.hmget(`${prefix}seed:pets`, ...numbers);
    tails.forEach((tail, i) => {
      if (tail === null) throw new Error(`namespace ${prefix.slice(0, -1)} lacks seeded pet ${from + i}; clear its keys and restart.`);
      const n = from + i;
      const json = recipe.data === undefined ? petJsonOf(recipe.bigIds ? BIG_ID_OFFSET + BigInt(n) : n, tail) : tail;
      entries.push({ pet: petFrom(json, model), json });
    });
  }
  return entries;
}

/**
 * The namespace's generation as Redis holds it, seeded with `wanted` if nobody seeded it (from
 * `source`: the spec's fields, or the pets of `wanted.data`, your own). The recipe is read again after
 * the pets: a namespace reseeded meanwhile is read again, never half of each.
 */
export async function loadWorld(redis: RedisClient, prefix: string, wanted: SeedRecipe, deadline: number, source: SeedSource): Promise<World> {
  for (;;) {
    const { recipe, text } = await seedOnce(redis, prefix, wanted, deadline, source);
    const seed = await readSeed(redis, prefix, recipe, source.spec.model);
    if ((await redis.get(`${prefix}seed:recipe`)) === text) return new World(text, recipe, seed, source.spec.model);
    if (Date.now() > deadline) throw new Error(`namespace ${prefix.slice(0, -1)} keeps being seeded again; stop what empties it.`);
  }
}
