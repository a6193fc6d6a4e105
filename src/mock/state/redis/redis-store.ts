/**
 * The mock's state in Redis, so that any number of replicas answer every request the same way: each
 * session's pets and clock, the registry of named sessions with its idle time-out and cap, and the
 * coverage counts. What every request needs and rarely changes (the namespace's generation with its
 * seeded pets, and the default session's clock) each replica keeps in memory, and trusts only while
 * its change feed says Redis holds the same (change-feed.ts, docs/redis.md): a request the seed answers
 * then needs no Redis command at all; one that needs a created pet, or makes one, needs one.
 *
 * ioredis is an optional peer dependency, loaded only when a Redis store is asked for; the store's
 * signatures name its own `RedisClient` (redis-client.ts), so that the published types need no ioredis.
 */
import { randomUUID } from 'node:crypto';
import { EXIT, messageOf, StoreUnavailableError } from '../../../errors.js';
import { BIG_ID_OFFSET } from '../../../fixtures/seeding.js';
import { BUNDLED_SPEC, type CompiledSpec } from '../../../openapi/bundled-model.js';
import type { ResourceModel } from '../../../openapi/resource-model.js';
import { KeyRedactor } from '../../../redact/key-redactor.js';
import type { Pending } from '../../core/pending.js';
import type { PetData } from '../pet-data.js';
import { petDataHash } from '../pet-data-file.js';
import { pageFilterOf } from '../seed-index.js';
import { DEFAULT_SESSION, sessionsOpenable } from '../sessions.js';
import { ChangeFeed, type FeedMark, settle } from './change-feed.js';
import { connectClient, DEFAULT_COMMAND_TIMEOUT_MS, displayUrl, evictionError, evictionProblem, withDeadline } from './connection.js';
import { CreateBatches } from './create-batch.js';
import { CreatedCache, SessionCaches } from './created-cache.js';
import { sessionDigest } from './journal-bus.js';
import { RedisPetStore } from './pet-store.js';
import type { RedisClient } from './redis-client.js';
import { scriptsFor } from './scripts.js';
import { loadWorld, SEED_LOCK_MS, type SeedRecipe, specHash, type World } from './world.js';

export { displayUrl } from './connection.js';
export type { SeedRecipe } from './world.js';

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
  /** The spec served (`--spec`): seeded pets have its fields, and a replica serving another spec is refused. Default: the bundled one. */
  readonly spec?: CompiledSpec | undefined;
  /** Milliseconds a named session may stay idle before it is dropped. */
  readonly sessionTtl: number;
  /** The mock's keys: a session's name is kept in Redis, for `GET /__mock/sessions`, only as shown without them. Default: none. */
  readonly apiKeys?: readonly string[];
  /** How many named sessions may be open at once across every replica. */
  readonly maxSessions: number;
  /** Milliseconds to wait for Redis at start. Default: 5 000. */
  readonly connectTimeoutMs?: number;
  /** Milliseconds each Redis command may take before the request that needs it gets a 503. Default: 3 000. */
  readonly commandTimeoutMs?: number;
}

/**
 * What Redis names a session by: the default session `default`; a named one `@` and the SHA-256 of its
 * name (the journal bus's digest), never the name, which may hold a key (docs/redis.md). A name never
 * starts with `@`, so an id given again stays itself.
 * @example
 * sessionId('worker-1'); // '@Qm9...' (44 characters)
 */
function sessionId(name: string): string {
  return name === DEFAULT_SESSION || name.startsWith('@') ? name : `@${sessionDigest(name)}`;
}

/** Why `name` cannot be a namespace, or `undefined` when it can. */
export function namespaceProblem(name: string): string | undefined {
  return NAMESPACE.test(name) ? undefined : `A namespace is 1 to 64 letters, digits, '.', '_' or '-'; got ${JSON.stringify(name.slice(0, 80))}.`;
}

/**
 * What a replica serves without asking Redis: the generation, the default session's clock offset, and
 * whether pets were put into the default session (then its seeded pets are read from Redis too), as
 * read from Redis after `mark`; kept while the change feed trusts the mark.
 */
export interface View {
  readonly world: World;
  readonly clockOffset: number;
  readonly puts: boolean;
  readonly mark: FeedMark | undefined;
  /** The default session's created pets this replica keeps while it keeps the view (none while the feed is not proven). */
  readonly created: CreatedCache | undefined;
  /** The named sessions' created pets it keeps under the same terms, each session's of the birth requests last opened. */
  readonly named: SessionCaches | undefined;
}

/** A named session as a request opens it: its clock offset, whether pets were put into it, and its birth (see `OPEN` in scripts.ts). */
export interface OpenedSession {
  readonly clockOffset: number;
  readonly puts: boolean;
  readonly born?: string;
}

/** How often each replica asks Redis for its eviction policy again, which may change while the mock runs. */
const POLICY_CHECK_MS = 2_000;
/** How many times a request follows a namespace seeded again under it before it gives up with a 503. */
const FOLLOW_TRIES = 3;

const worldOf = (view: View) => view.world;

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
  readonly #feed: ChangeFeed;
  readonly #prefix: string;
  readonly #registry: string;
  readonly #options: RedisStoreOptions;
  /** A session's name as Redis keeps it for the list: without the mock's keys. */
  readonly #shown: KeyRedactor;
  /** The generation this replica last loaded. */
  #world: World;
  /** What it serves without asking Redis, while the feed trusts it. */
  #view: View | undefined;
  /** The last connection error, for the 503's message. */
  #lastError = '';
  /** Why Redis may not be used now (an evicting policy set while the mock runs): every request gets a 503 with it. */
  #rejection: string | undefined;
  /** The move to the namespace's new generation, while one is under way: requests wait for it. */
  #following: Promise<void> | undefined;
  /** This replica among all, for the tokens of the sessions it opens. */
  readonly #replica = randomUUID();
  #openings = 0;
  readonly #policyTimer: NodeJS.Timeout;
  /** @internal The creates waiting for the end of this turn, sent as one script per session. */
  readonly creates = new CreateBatches(this);

  constructor(redis: RedisClient, feed: ChangeFeed, options: RedisStoreOptions, world: World) {
    this.#redis = redis;
    this.#feed = feed;
    this.#options = options;
    this.#shown = new KeyRedactor(options.apiKeys ?? []);
    this.url = displayUrl(options.url);
    this.namespace = options.namespace ?? DEFAULT_NAMESPACE;
    this.#prefix = `${this.namespace}:`;
    this.#registry = `${this.#prefix}sessions`;
    this.#world = world;
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

  /** The model of the spec served, which every pet read back from Redis is held to. */
  get model(): ResourceModel {
    return this.#world.model;
  }

  /** Ids follow on from the namespace's seed: `--big-ids` offsets them by 2^53. */
  get idOffset(): bigint | undefined {
    return this.recipe.bigIds ? BIG_ID_OFFSET : undefined;
  }

  /**
   * The store of one session's pets. Cheap: it holds only the session's name and its keys, and, for a
   * named session, whether pets were put into it when the request opened it (unknown: as if they were).
   */
  store(name: string, puts?: boolean, born?: string): RedisPetStore {
    return new RedisPetStore(this, sessionId(name), puts ?? true, born);
  }

  /** What this replica may serve now: the one it keeps while the change feed trusts it, else one read from Redis (one round trip). */
  view(): Pending<View> {
    const view = this.#view;
    if (view?.mark !== undefined && this.#rejection === undefined && this.#feed.trusts(view.mark)) return view;
    return this.#refresh(0);
  }

  /** The generation this replica may serve now (see `view`). */
  world(): Pending<World> {
    const view = this.view();
    return view instanceof Promise ? view.then(worldOf) : view.world;
  }

  /**
   * Opens a named session, or marks it used, across every replica; the default one is always open.
   * Returns its clock offset in milliseconds, or `undefined` when opening it would pass the cap.
   */
  async open(name: string): Promise<number | undefined> {
    return (await this.openSession(name))?.clockOffset;
  }

  /** `open`, which also says whether pets were put into the session (`POST /__mock/pets`). */
  async openSession(name: string): Promise<OpenedSession | undefined> {
    if (name === DEFAULT_SESSION) return this.view();
    const { sessionTtl, maxSessions } = this.#options;
    // A token no other opening gives: this replica's, then its count of openings.
    const token = `${this.#replica}.${++this.#openings}`;
    const [opened] = await this.run(() =>
      Promise.all([
        this.#redis.petstoreOpen(this.#registry, this.#prefix, sessionId(name), sessionTtl, sessionsOpenable(maxSessions), this.#shown.text(name), token),
        this.world(),
      ]),
    );
    return opened[0] === 0 ? undefined : { clockOffset: Number(opened[1] || 0), puts: opened[2] === 1, born: opened[3] };
  }

  /** A named session's clock offset in milliseconds, without opening it. */
  async clockOffset(name: string): Promise<number> {
    if (name === DEFAULT_SESSION) return (await this.view()).clockOffset;
    const [offset] = await this.run(() => Promise.all([this.#redis.get(this.key(sessionId(name), 'clock')), this.world()]));
    return Number(offset ?? 0);
  }

  /** Sets a session's clock offset (`null`: back to the base clock), opening it; false when the cap refuses it. */
  async setClock(name: string, offset: number | null): Promise<boolean> {
    const { sessionTtl, maxSessions } = this.#options;
    const set = await this.run(() =>
      this.#redis.petstoreSetClock(
        this.#registry,
        this.#prefix,
        offset === null ? '' : String(offset),
        sessionId(name),
        sessionTtl,
        sessionsOpenable(maxSessions),
        this.#shown.text(name),
      ),
    );
    // Every replica keeps the default session's clock: answered once none can still read the one before.
    if (set === 1 && name === DEFAULT_SESSION) await settle();
    return set === 1;
  }

  /** Drops a named session on every replica; whether it was open. */
  async drop(name: string): Promise<boolean> {
    return (await this.run(() => this.#redis.petstoreDrop(this.#registry, this.#prefix, sessionId(name)))) === 1;
  }

  /** The default session back to the seed, every named one dropped. */
  async resetAll(): Promise<void> {
    if ((await this.run(() => this.#redis.petstoreResetAll(this.#registry, this.#prefix))) === 2) await settle();
  }

  /** One session back to the seeded pets and the base clock, on every replica. */
  async reset(name: string): Promise<void> {
    if ((await this.run(() => this.#redis.petstoreReset(this.#prefix, sessionId(name)))) === 1) await settle();
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

  /** Closes the connections. */
  async close(): Promise<void> {
    clearInterval(this.#policyTimer);
    await this.#feed.close();
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

  /** @internal The key of the namespace's recipe, which the scripts compare with the generation a replica serves. */
  get recipeKey(): string {
    return `${this.#prefix}seed:recipe`;
  }

  /** @internal */
  get prefix(): string {
    return this.#prefix;
  }

  /**
   * @internal What `attempt` answers in the generation this replica serves (told whether pets were put
   * into the default session, as the replica's view says; `first`, the view the caller already asked
   * for, so that one untrusted view costs one refresh and its failure is this promise's). A script answers -1, and
   * does nothing, when Redis holds another generation: the replica then follows it, and tries again.
   * `timed`: false when `attempt` sends its command through `run` itself (a batch of creates: one deadline for all).
   */
  async inWorld<R>(attempt: (world: World, defaultPuts: boolean, view: View) => Pending<R | -1>, first: Pending<View> = this.view(), timed = true): Promise<R> {
    for (let tries = 1; ; tries++) {
      const view = await (tries === 1 ? first : this.view());
      const { world, puts } = view;
      const result = await (timed ? this.run(() => Promise.resolve(attempt(world, puts, view))) : attempt(world, puts, view));
      if (result !== -1) return result;
      if (tries === FOLLOW_TRIES) throw this.#unsettled();
      await this.run(() => this.#follow(world));
    }
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
      if (error instanceof StoreUnavailableError) throw error;
      const cause = this.#lastError || messageOf(error);
      throw new StoreUnavailableError(
        `The mock's state is in Redis at ${this.url}, which does not answer (${cause}); the mock answers again once Redis is back.`,
        {
          cause: error,
        },
      );
    }
  }

  /** Reads the generation and the default session's clock from Redis (one round trip), following a new generation; kept when nothing changed meanwhile. */
  async #refresh(tries: number): Promise<View> {
    const mark = this.#feed.mark();
    const world = this.#world;
    const [text, offset, top] = await this.run(() => this.#redis.mget(this.recipeKey, this.key(DEFAULT_SESSION, 'clock'), this.key(DEFAULT_SESSION, 'top')));
    if (text !== world.text) {
      if (tries + 1 === FOLLOW_TRIES) throw this.#unsettled();
      await this.run(() => this.#follow(world));
      return this.#refresh(tries + 1);
    }
    const valid = () => mark !== undefined && this.#feed.unchanged(mark);
    const created = mark === undefined ? undefined : new CreatedCache(valid);
    const named = mark === undefined ? undefined : new SessionCaches(valid, sessionsOpenable(this.#options.maxSessions));
    const view: View = { world, clockOffset: Number(offset ?? 0), puts: typeof top === 'string', mark, created, named };
    if (mark !== undefined && this.#feed.unchanged(mark)) this.#view = view;
    return view;
  }

  /**
   * Resolves once this replica serves the generation Redis holds, in place of `stale`. A namespace
   * emptied under it (FLUSHALL, a restart without persistence) is seeded again with the recipe it had,
   * unless another replica seeded it first: then this one follows that one's recipe. Either way every
   * replica serves one world, never the seed it remembers beside another one's.
   */
  #follow(stale: World): Promise<void> {
    if (this.#world !== stale) return Promise.resolve();
    // Your own data is seeded again from the pets this replica keeps of it.
    const data = stale.recipe.data === undefined ? undefined : stale.seed.map((entry) => entry.pet);
    const source = { spec: this.#options.spec ?? BUNDLED_SPEC, data };
    this.#following ??= loadWorld(this.#redis, this.#prefix, stale.recipe, Date.now() + 2 * SEED_LOCK_MS, source)
      .then((world) => {
        this.#world = world;
        this.#view = undefined;
      })
      .finally(() => {
        this.#following = undefined;
      });
    return this.#following;
  }

  #unsettled(): StoreUnavailableError {
    return new StoreUnavailableError(
      `The namespace ${this.namespace} in Redis at ${this.url} was emptied or seeded again ${FOLLOW_TRIES} times during one request; the mock answers again once it holds still.`,
    );
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
}

/**
 * Refuses a replica whose pets are not the namespace's: with your own data on either side, two
 * replicas would serve two worlds (a replica of another seed follows the first one's, as before).
 */
function checkSameData(recorded: SeedRecipe, wanted: SeedRecipe, namespace: string): void {
  if (recorded.spec !== wanted.spec)
    throw new StoreUnavailableError(
      `namespace ${namespace} in Redis holds the pets of ${recorded.spec === undefined ? 'the bundled spec' : `a spec of hash ${recorded.spec}`}, not those of this mock's ${wanted.spec === undefined ? 'bundled spec' : `--spec of hash ${wanted.spec}`}: start every replica with the same --spec, or give this one another --namespace.`,
      { exitCode: EXIT.usage },
    );
  if (recorded.data === wanted.data) return;
  const what = (recipe: SeedRecipe) => (recipe.data === undefined ? `--seed ${recipe.seed} --count ${recipe.count}` : `--data of hash ${recipe.data}`);
  throw new StoreUnavailableError(
    `namespace ${namespace} in Redis holds the pets of ${what(recorded)}, not those of this mock's ${what(wanted)}: start every replica with the same pets, or give this one another --namespace.`,
    { exitCode: EXIT.usage },
  );
}

/**
 * Connects to Redis, subscribes to the namespace's changes, seeds the namespace if no replica has, and
 * loads its seed. Rejects with a `StoreUnavailableError` naming the URL when Redis does not answer
 * within `connectTimeoutMs`.
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
  const { data, spec = BUNDLED_SPEC } = options;
  const scripts = scriptsFor(pageFilterOf(spec.model)?.values ?? []);
  const redis = await connectClient(options.url, timeouts, (client) => {
    for (const [name, script] of Object.entries(scripts)) client.defineCommand(name, script);
  });
  let feed: ChangeFeed | undefined;
  try {
    const evicting = await evictionProblem(redis, options.url);
    if (evicting !== undefined) throw evictionError(evicting);
    feed = await ChangeFeed.open(redis, `${namespace}:`);
    const hash = specHash(spec);
    const wanted: SeedRecipe = {
      ...(data === undefined
        ? { seed: options.seed, count: options.count, bigIds: options.bigIds }
        : { seed: options.seed, count: data.pets.length, bigIds: false, data: petDataHash(data) }),
      ...(hash === undefined ? {} : { spec: hash }),
    };
    const world = await loadWorld(redis, `${namespace}:`, wanted, Date.now() + 2 * SEED_LOCK_MS, { spec, data: data?.pets });
    checkSameData(world.recipe, wanted, namespace);
    return new RedisStore(redis, feed, options, world);
  } catch (error) {
    await feed?.close();
    redis.disconnect();
    throw error;
  }
}
