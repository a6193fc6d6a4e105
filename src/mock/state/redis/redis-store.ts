/**
 * The mock's state in Redis, so that any number of replicas answer every request the same way: each
 * session's pets and clock, the registry of named sessions with its idle time-out and cap, and the
 * coverage counts. The seeded pets are written once per namespace and never change, so each replica
 * also keeps them in memory and serves a page the seed fills without asking Redis for pets.
 *
 * ioredis is an optional peer dependency, loaded only when a Redis store is asked for; the store's
 * signatures name its own `RedisClient` (client.ts), so that the published types need no ioredis.
 */
import { randomUUID } from 'node:crypto';
import { EXIT, messageOf, StoreUnavailableError } from '../../../errors.js';
import { BIG_ID_OFFSET, seededPets } from '../../../fixtures/seed.js';
import { type JsonValue, parseJson, stringifyJson } from '../../../json/lossless.js';
import { PET_STATUSES } from '../../../openapi/facts.js';
import type { PetStatus } from '../../../types.js';
import type { PetData } from '../pet-data.js';
import { DEFAULT_SESSION } from '../sessions.js';
import { idsAfter, type PetDraft, type StoredPet } from '../store.js';
import type { RedisClient } from './client.js';
import { connectClient, DEFAULT_COMMAND_TIMEOUT_MS, displayUrl, evictionError, evictionProblem, withDeadline } from './connection.js';
import { CREATED_SCRIPT, SCRIPTS } from './scripts.js';

export { displayUrl } from './connection.js';

/** The namespace of a Redis store unless told otherwise. */
const DEFAULT_NAMESPACE = 'petstore';

const NAMESPACE = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Where the state lives, and what a namespace is seeded with when this replica is the first.
 * @example
 * const options: RedisStoreOptions = { url: 'redis://127.0.0.1:6379/0', seed: 1, count: 50, bigIds: false, sessionTtl: 1_800_000, maxSessions: 100 };
 */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  readonly url: string;
  /** The key prefix: several mocks share one Redis under different namespaces. Default: `petstore`. */
  readonly namespace?: string;
  readonly seed: number;
  readonly count: number;
  readonly bigIds: boolean;
  /** Your own pets (`--data`) in place of seeded ones: the namespace records their hash, and a replica with other data is refused. */
  readonly data?: PetData | undefined;
  /** Milliseconds a named session may stay idle before it is dropped. */
  readonly sessionTtl: number;
  /** How many named sessions may be open at once across every replica. */
  readonly maxSessions: number;
  /** Milliseconds to wait for Redis at start. Default: 5 000. */
  readonly connectTimeoutMs?: number;
  /** Milliseconds each Redis command may take before the request that needs it gets a 503. Default: 3 000. */
  readonly commandTimeoutMs?: number;
}

/** What a namespace was seeded with: the first replica's `--seed`, `--count` and `--big-ids`. */
export interface SeedRecipe {
  readonly seed: number;
  readonly count: number;
  readonly bigIds: boolean;
  /** The hash of your own pets (`--data`), when they replace the seeded ones. */
  readonly data?: string;
}

/** Why `name` cannot be a namespace, or `undefined` when it can. */
export function namespaceProblem(name: string): string | undefined {
  return NAMESPACE.test(name) ? undefined : `A namespace is 1 to 64 letters, digits, '.', '_' or '-'; got ${JSON.stringify(name.slice(0, 80))}.`;
}

interface SeedEntry {
  readonly pet: StoredPet;
  readonly json: string;
}

function isPetStatus(value: JsonValue | undefined): value is PetStatus {
  return typeof value === 'string' && PET_STATUSES.some((status) => status === value);
}

function isInteger(value: JsonValue | undefined): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** A pet read back from its JSON; Redis holds nothing else, so anything else is a corrupted namespace. */
function petFrom(json: string): StoredPet {
  const value = parseJson(json);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { id, name, categoryId, status } = value;
    if (isInteger(id) && typeof name === 'string' && isInteger(categoryId) && isPetStatus(status)) return { id, name, categoryId, status };
    // Your own data may leave a pet without a status, as the Pet schema allows.
    if (isInteger(id) && typeof name === 'string' && isInteger(categoryId) && status === undefined) return { id, name, categoryId };
  }
  throw new Error(`Redis holds a pet that is not one: ${json.slice(0, 200)}; clear the namespace (DEL its keys) and restart.`);
}

/** A pet's JSON without its id: what Redis keeps, since the id follows from the pet's number. */
function tailOf(draft: PetDraft): string {
  return stringifyJson({ name: draft.name, categoryId: draft.categoryId, status: draft.status }).slice(1);
}

/**
 * One generation of a namespace: its recipe exactly as Redis holds it, and its seeded pets. Each
 * seeding writes a recipe with a new generation id, so a namespace emptied (FLUSHALL, a restart
 * without persistence) and seeded again never reads as the one before, even with the same seed.
 */
interface World {
  readonly recipe: SeedRecipe;
  readonly text: string;
  readonly seed: readonly SeedEntry[];
  /** With your own data: the pet number of each seeded id, and the id created pets are numbered after (`idsAfter`). */
  readonly given?: { readonly numbers: ReadonlyMap<string, number>; readonly largest: bigint };
}

/** The recipe a namespace records; anything else there is not ours. */
function recipeFrom(text: string, prefix: string): SeedRecipe {
  const value = parseJson(text);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { seed, count, bigIds, data } = value;
    if (typeof seed === 'number' && typeof count === 'number' && typeof bigIds === 'boolean')
      return typeof data === 'string' ? { seed, count, bigIds, data } : { seed, count, bigIds };
  }
  throw new Error(`${prefix}seed:recipe in Redis is not a petstore-mock seed recipe; pick another --namespace, or delete the key.`);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seed pets per command when writing or reading a namespace's seed. */
const SEED_BATCH = 5_000;
/** How long the replica that seeds may hold the seeding lock without showing progress. */
const SEED_LOCK_MS = 30_000;
/** How often each replica asks Redis for its eviction policy again, which may change while the mock runs. */
const POLICY_CHECK_MS = 2_000;

/**
 * The mock's state in one Redis namespace. One per replica; `connectRedisStore` makes it.
 * @example
 * const state = await connectRedisStore({ url: redis.url, seed: 1, count: 50, bigIds: false, sessionTtl: 60_000, maxSessions: 10 });
 * const store = state.store('default');
 * await store.create({ name: 'Rex', categoryId: 1, status: 'available' }); // { id: 51, ... } on every replica
 */
export class RedisStore {
  /** Where the state lives, without a password. */
  readonly url: string;
  readonly namespace: string;
  readonly #redis: RedisClient;
  readonly #prefix: string;
  readonly #registry: string;
  readonly #options: RedisStoreOptions;
  #world: World;
  #seedByStatus: ReadonlyMap<PetStatus, readonly SeedEntry[]>;
  /** The last connection error, for the 503's message. */
  #lastError = '';
  /** Why Redis may not be used now (an evicting policy set while the mock runs): every request gets a 503 with it. */
  #rejection: string | undefined;
  /** The move to the namespace's new generation, while one is under way: requests wait for it. */
  #following: Promise<void> | undefined;
  readonly #policyTimer: NodeJS.Timeout;

  constructor(redis: RedisClient, options: RedisStoreOptions, world: World) {
    this.#redis = redis;
    this.#options = options;
    this.url = displayUrl(options.url);
    this.namespace = options.namespace ?? DEFAULT_NAMESPACE;
    this.#prefix = `${this.namespace}:`;
    this.#registry = `${this.#prefix}sessions`;
    this.#world = world;
    this.#seedByStatus = seedByStatus(world.seed);
    redis.on('error', (error: Error) => {
      this.#lastError = error.message;
    });
    redis.on('ready', () => {
      this.#lastError = '';
    });
    // The policy may change while the mock runs, or the mock may reconnect to another server.
    const check = () => this.#checkPolicy();
    redis.on('ready', check);
    this.#policyTimer = setInterval(check, POLICY_CHECK_MS).unref();
  }

  /** What the namespace was seeded with (by whichever replica seeded it). */
  get recipe(): SeedRecipe {
    return this.#world.recipe;
  }

  /** Ids follow on from the namespace's seed: `--big-ids` offsets them by 2^53. */
  get idOffset(): bigint | undefined {
    return this.recipe.bigIds ? BIG_ID_OFFSET : undefined;
  }

  /** The store of one session's pets. Cheap: it holds only the session's name. */
  store(name: string): RedisPetStore {
    return new RedisPetStore(this, name);
  }

  /**
   * Opens a named session, or marks it used, across every replica; the default one is always open.
   * Returns its clock offset in milliseconds, or `undefined` when opening it would pass the cap.
   */
  async open(name: string): Promise<number | undefined> {
    if (name === DEFAULT_SESSION) return this.clockOffset(name);
    const { sessionTtl, maxSessions } = this.#options;
    const [opened] = await this.run(() =>
      Promise.all([this.#redis.petstoreOpen(this.#registry, this.#prefix, name, sessionTtl, maxSessions), this.#sameWorld()]),
    );
    return opened[0] === 0 ? undefined : Number(opened[1] || 0);
  }

  /** A session's clock offset in milliseconds, without opening it. */
  async clockOffset(name: string): Promise<number> {
    const [offset] = await this.run(() => Promise.all([this.#redis.get(this.key(name, 'clock')), this.#sameWorld()]));
    return Number(offset ?? 0);
  }

  /** Sets a session's clock offset (`null`: back to the base clock), opening it; false when the cap refuses it. */
  async setClock(name: string, offset: number | null): Promise<boolean> {
    const { sessionTtl, maxSessions } = this.#options;
    const set = await this.run(() =>
      this.#redis.petstoreSetClock(this.#registry, this.#prefix, offset === null ? '' : String(offset), name, sessionTtl, maxSessions),
    );
    return set === 1;
  }

  /** Drops a named session on every replica; whether it was open. */
  async drop(name: string): Promise<boolean> {
    return (await this.run(() => this.#redis.petstoreDrop(this.#registry, this.#prefix, name))) === 1;
  }

  /** The default session back to the seed, every named one dropped. */
  async resetAll(): Promise<void> {
    await this.run(() => this.#redis.petstoreResetAll(this.#registry, this.#prefix));
  }

  /** The open named sessions, least recently used first. */
  async sessions(): Promise<{ readonly name: string; readonly pets: number; readonly idleMs: number }[]> {
    const reply = await this.run(() => this.#redis.petstoreSessions(this.#registry, this.#prefix, this.#options.sessionTtl));
    const now = Number(reply[0]);
    const list: { name: string; pets: number; idleMs: number }[] = [];
    for (let i = 1; i + 2 < reply.length; i += 3) {
      list.push({ name: String(reply[i]), pets: this.recipe.count + Number(reply[i + 2]), idleMs: Math.max(0, now - Number(reply[i + 1])) });
    }
    return list;
  }

  /** Adds to the coverage counts every replica shares (see `SharedCoverage`). */
  async addCounts(counts: Readonly<Record<string, number>>): Promise<void> {
    const pipeline = this.#redis.multi();
    for (const [field, times] of Object.entries(counts)) pipeline.hincrby(`${this.#prefix}coverage`, field, times);
    await this.run(() => pipeline.exec());
  }

  /** Every counter, as every replica counted. */
  async counts(): Promise<Readonly<Record<string, number>>> {
    const all = await this.run(() => this.#redis.hgetall(`${this.#prefix}coverage`));
    return Object.fromEntries(Object.entries(all).map(([field, value]) => [field, Number(value)]));
  }

  async clearCounts(): Promise<void> {
    await this.run(() => this.#redis.del(`${this.#prefix}coverage`));
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    clearInterval(this.#policyTimer);
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  /** @internal One key of a session. */
  key(name: string, part: string): string {
    return `${this.#prefix}s:${name}:${part}`;
  }

  /** @internal */
  get redis(): RedisClient {
    return this.#redis;
  }

  /** @internal */
  get registry(): string {
    return this.#registry;
  }

  /** @internal The seeded pets, or those with one status. */
  seedPets(status?: PetStatus): readonly SeedEntry[] {
    return status === undefined ? this.#world.seed : (this.#seedByStatus.get(status) ?? []);
  }

  /** @internal With your own data, the id created pets are numbered after; `undefined` for seeded pets. */
  get createdAfter(): bigint | undefined {
    return this.#world.given?.largest;
  }

  /** @internal The id of the session's pet number n (the seed's first, then those created). */
  idOf(n: number): number | bigint {
    const { given } = this.#world;
    if (given !== undefined) return n <= this.recipe.count ? (this.#world.seed[n - 1]?.pet.id ?? 0) : exactId(given.largest + BigInt(n - this.recipe.count));
    return this.recipe.bigIds ? BIG_ID_OFFSET + BigInt(n) : n;
  }

  /** @internal The pet number of an id, or undefined for an id no pet can have. */
  numberOf(id: number | bigint): number | undefined {
    const { given } = this.#world;
    if (given !== undefined) {
      const after = BigInt(id) - given.largest;
      return given.numbers.get(String(id)) ?? (after > 0n && after <= BigInt(Number.MAX_SAFE_INTEGER) ? this.recipe.count + Number(after) : undefined);
    }
    const n = this.recipe.bigIds ? (typeof id === 'bigint' ? Number(id - BIG_ID_OFFSET) : id - Number(BIG_ID_OFFSET)) : Number(id);
    return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
  }

  /**
   * @internal The reply to a Redis command, or the `StoreUnavailableError` that names why there is
   * none; the command is not sent while Redis may not be used.
   */
  async run<T>(command: () => Promise<T>): Promise<T> {
    if (this.#rejection !== undefined) throw new StoreUnavailableError(this.#rejection);
    try {
      return await withDeadline(command(), this.#options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
    } catch (error) {
      const cause = this.#lastError || messageOf(error);
      throw new StoreUnavailableError(
        `The mock's state is in Redis at ${this.url}, which does not answer (${cause}); the mock answers again once Redis is back.`,
        {
          cause: error,
        },
      );
    }
  }

  /** Asks Redis for its eviction policy; a Redis that does not respond is the next command's to report. */
  #checkPolicy(): void {
    evictionProblem(this.#redis, this.#options.url).then(
      (problem) => {
        this.#rejection = problem;
      },
      () => undefined,
    );
  }

  /**
   * Resolves once this replica serves the generation Redis holds. A namespace emptied under it
   * (FLUSHALL, a restart without persistence) is seeded again with the recipe it had, unless another
   * replica seeded it first: then this one follows that one's recipe. Either way every replica serves
   * one world, never the seed it remembers beside another one's.
   */
  async #sameWorld(): Promise<void> {
    if ((await this.#redis.get(`${this.#prefix}seed:recipe`)) === this.#world.text) return;
    this.#following ??= loadWorld(this.#redis, this.#prefix, this.#world.recipe, Date.now() + 2 * SEED_LOCK_MS, this.#options.data)
      .then((world) => {
        this.#world = world;
        this.#seedByStatus = seedByStatus(world.seed);
      })
      .finally(() => {
        this.#following = undefined;
      });
    await this.#following;
  }
}

function seedByStatus(seed: readonly SeedEntry[]): ReadonlyMap<PetStatus, readonly SeedEntry[]> {
  return new Map(PET_STATUSES.map((status) => [status, seed.filter((entry) => entry.pet.status === status)]));
}

/**
 * One session's pets in Redis, with the method names of the in-memory `PetStore`; every method
 * answers in a promise.
 */
export class RedisPetStore {
  readonly #state: RedisStore;
  readonly #name: string;
  readonly #n: string;
  readonly #pets: string;

  constructor(state: RedisStore, name: string) {
    this.#state = state;
    this.#name = name;
    this.#n = state.key(name, 'n');
    this.#pets = state.key(name, 'pets');
  }

  /** Adds a pet: its number, the pet and its place in the status index in one step. */
  async create(draft: PetDraft): Promise<StoredPet> {
    const { redis, registry, recipe } = this.#state;
    const name = this.#name === DEFAULT_SESSION ? '' : this.#name;
    const k = await this.#state.run(() =>
      redis.petstoreCreate(this.#n, this.#pets, this.#state.key(this.#name, `st:${draft.status}`), registry, tailOf(draft), name),
    );
    return { id: this.#state.idOf(recipe.count + k), name: draft.name, categoryId: draft.categoryId, status: draft.status };
  }

  /** The pet with this id, if there is one. */
  async get(id: number | bigint): Promise<StoredPet | undefined> {
    const json = await this.petJson(id);
    return json === undefined ? undefined : petFrom(json);
  }

  /** One pet's JSON. */
  async petJson(id: number | bigint): Promise<string | undefined> {
    const n = this.#state.numberOf(id);
    if (n === undefined) return undefined;
    const { count } = this.#state.recipe;
    if (n <= count) return this.#state.seedPets()[n - 1]?.json;
    const tail = await this.#state.run(() => this.#state.redis.hget(this.#pets, String(n - count)));
    return tail === null ? undefined : this.#jsonOf(n - count, tail);
  }

  /** The first `limit` pets in id order, only those with `status` when given. */
  async list(limit: number, status?: PetStatus): Promise<StoredPet[]> {
    return (await this.#page(limit, status)).map((json) => petFrom(json));
  }

  /** `list` as a JSON array. */
  async listJson(limit: number, status?: PetStatus): Promise<string> {
    return `[${(await this.#page(limit, status)).join(',')}]`;
  }

  /** The pets created since the seed, in id order. */
  async created(): Promise<StoredPet[]> {
    return (await this.#created(Number.MAX_SAFE_INTEGER)).map(([, json]) => petFrom(json));
  }

  /** Back to the seeded pets and the base clock, on every replica. */
  async reset(): Promise<void> {
    const { redis } = this.#state;
    const keys = [this.#n, this.#pets, this.#state.key(this.#name, 'clock'), ...PET_STATUSES.map((status) => this.#state.key(this.#name, `st:${status}`))];
    await this.#state.run(() => redis.del(...keys));
  }

  /** How many pets the session has. */
  get size(): Promise<number> {
    return this.#state.run(() => this.#state.redis.get(this.#n)).then((created) => this.#state.recipe.count + Number(created ?? 0));
  }

  /** The JSON of each pet of a page. The seed comes first in id order: RedisClient is asked only for what the seed leaves of it. */
  async #page(limit: number, status: PetStatus | undefined): Promise<string[]> {
    const seed = this.#state.seedPets(status);
    // Your own data may hold ids beyond those created pets get (`idsAfter`): those come after the created ones.
    const after = this.#state.createdAfter;
    const split = after === undefined ? seed.length : seed.findIndex((entry) => BigInt(entry.pet.id) > after);
    const below = split < 0 ? seed.length : split;
    const parts = seed.slice(0, Math.min(below, limit)).map((entry) => entry.json);
    if (parts.length < limit) for (const [, json] of await this.#created(limit - parts.length, status)) parts.push(json);
    if (parts.length < limit) for (const entry of seed.slice(below, below + limit - parts.length)) parts.push(entry.json);
    return parts;
  }

  async #created(need: number, status?: PetStatus): Promise<[number, string][]> {
    const { redis } = this.#state;
    const keys = status === undefined ? [this.#n, this.#pets] : [this.#n, this.#pets, this.#state.key(this.#name, `st:${status}`)];
    const reply = await this.#state.run(() => redis.petstoreCreated(status === undefined ? 2 : 3, ...keys, need));
    const pets: [number, string][] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const k = Number(reply[i]);
      pets.push([k, this.#jsonOf(k, String(reply[i + 1]))]);
    }
    return pets;
  }

  #jsonOf(k: number, tail: string): string {
    return `{"id":${this.#state.idOf(this.#state.recipe.count + k)},${tail}`;
  }
}

/** The recipe Redis holds, or `undefined` for a namespace nobody seeded (yet). */
async function recordedRecipe(redis: RedisClient, prefix: string): Promise<{ readonly recipe: SeedRecipe; readonly text: string } | undefined> {
  const text = await redis.get(`${prefix}seed:recipe`);
  return text === null ? undefined : { recipe: recipeFrom(text, prefix), text };
}

/** Writes `recipe`'s pets and then the recipe itself, with a new generation id, freeing the lock in the same step. */
async function writeSeed(redis: RedisClient, prefix: string, recipe: SeedRecipe, data: PetData | undefined): Promise<string> {
  const lockKey = `${prefix}seed:lock`;
  // Your own pets are kept whole, by pet number in id order: their ids do not follow from their numbers.
  const pets = data?.pets ?? seededPets(recipe.seed, recipe.count);
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
  await redis.multi().set(`${prefix}seed:recipe`, text).del(lockKey).exec();
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
  data: PetData | undefined,
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
      return { recipe: wanted, text: await writeSeed(redis, prefix, wanted, data) };
    }
    if (Date.now() > deadline) throw new Error(`another replica has been seeding namespace ${prefix.slice(0, -1)} for too long; try again, or clear its keys.`);
    await wait(50);
  }
}

/** The namespace's generation as Redis holds it, seeded with `wanted` if nobody seeded it. */
async function loadWorld(redis: RedisClient, prefix: string, wanted: SeedRecipe, deadline: number, data: PetData | undefined): Promise<World> {
  const { recipe, text } = await seedOnce(redis, prefix, wanted, deadline, data);
  const seed = await readSeed(redis, prefix, recipe);
  if (recipe.data === undefined) return { recipe, text, seed };
  const numbers = new Map(seed.map((entry, index) => [String(entry.pet.id), index + 1]));
  return { recipe, text, seed, given: { numbers, largest: idsAfter(seed.map((entry) => entry.pet)) } };
}

/** An id as the store keeps it: a number while exact as one. */
function exactId(id: bigint): number | bigint {
  return id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id;
}

/**
 * Refuses a replica whose pets are not the namespace's: with your own data on either side, two
 * replicas would serve two worlds (a replica of another seed follows the first one's, as before).
 */
function checkSameData(world: World, wanted: SeedRecipe, namespace: string): void {
  if (world.recipe.data === wanted.data) return;
  const what = (recipe: SeedRecipe) => (recipe.data === undefined ? `--seed ${recipe.seed} --count ${recipe.count}` : `--data of hash ${recipe.data}`);
  throw new StoreUnavailableError(
    `namespace ${namespace} in Redis holds the pets of ${what(world.recipe)}, not those of this mock's ${what(wanted)}: start every replica with the same pets, or give this one another --namespace.`,
    { exitCode: EXIT.usage },
  );
}

/** The namespace's seeded pets, read in batches. */
async function readSeed(redis: RedisClient, prefix: string, recipe: SeedRecipe): Promise<SeedEntry[]> {
  const entries: SeedEntry[] = [];
  for (let from = 1; from <= recipe.count; from += SEED_BATCH) {
    const numbers = Array.from({ length: Math.min(SEED_BATCH, recipe.count - from + 1) }, (_, i) => String(from + i));
    const tails = await redis.hmget(`${prefix}seed:pets`, ...numbers);
    tails.forEach((tail, i) => {
      if (tail === null) throw new Error(`namespace ${prefix.slice(0, -1)} lacks seeded pet ${from + i}; clear its keys and restart.`);
      const n = from + i;
      const json = recipe.data === undefined ? `{"id":${recipe.bigIds ? BIG_ID_OFFSET + BigInt(n) : n},${tail}` : tail;
      entries.push({ pet: petFrom(json), json });
    });
  }
  return entries;
}

/**
 * Connects to Redis, seeds the namespace if no replica has, and loads its seed. Rejects with a
 * `StoreUnavailableError` naming the URL when Redis does not answer within `connectTimeoutMs`.
 * @example
 * const state = await connectRedisStore({ url: 'redis://127.0.0.1:6379', seed: 1, count: 50, bigIds: false, sessionTtl: 1_800_000, maxSessions: 100 });
 * await state.close();
 */
export async function connectRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  displayUrl(options.url);
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const problem = namespaceProblem(namespace);
  if (problem !== undefined) throw new TypeError(problem);
  const timeouts = { connectMs: options.connectTimeoutMs ?? 5_000, commandMs: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS };
  const redis = await connectClient(options.url, timeouts, (client) => {
    for (const [name, script] of Object.entries(SCRIPTS)) client.defineCommand(name, script);
    client.defineCommand('petstoreCreated', CREATED_SCRIPT);
  });
  try {
    const evicting = await evictionProblem(redis, options.url);
    if (evicting !== undefined) throw evictionError(evicting);
    const { data } = options;
    const wanted: SeedRecipe =
      data === undefined
        ? { seed: options.seed, count: options.count, bigIds: options.bigIds }
        : { seed: options.seed, count: data.pets.length, bigIds: false, data: data.hash };
    const world = await loadWorld(redis, `${namespace}:`, wanted, Date.now() + 2 * SEED_LOCK_MS, data);
    checkSameData(world, wanted, namespace);
    return new RedisStore(redis, options, world);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}
