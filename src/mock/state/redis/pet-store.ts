/**
 * One session's pets in Redis, with the method names of the in-memory `PetStore`. The seeded pets come
 * first in id order, and the replica keeps them: a pet or a page the seed answers is served from
 * memory, at once; a created pet, a page past the seed and a create each cost one script, which checks
 * in the same step that Redis still holds the generation the replica serves.
 */
import type { PetStatus } from '../../../types.js';
import type { Pending } from '../../core/pending.js';
import { DEFAULT_SESSION } from '../sessions.js';
import type { PetDraft, PetStore, StoredPet } from '../store.js';
import type { RedisStore } from './redis-store.js';
import { petFrom, tailOf, type World } from './world.js';

/** Pets a session created, each as its number and JSON, or -1 when Redis holds another generation. */
type Created = [number, string][] | -1;

/**
 * One session's pets in Redis.
 * @example
 * const pets = state.store('default');
 * await pets.create({ name: 'Rex', categoryId: 1, status: 'available' }); // one script
 * pets.petJson(1); // a seeded pet: its JSON at once, no Redis command
 */
export class RedisPetStore implements PetStore {
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
  create(draft: PetDraft): Promise<StoredPet> {
    const { redis, registry, recipeKey } = this.#state;
    const name = this.#name === DEFAULT_SESSION ? '' : this.#name;
    const statusList = this.#state.key(this.#name, `st:${draft.status}`);
    return this.#state.inWorld((world) =>
      redis
        .petstoreCreate(recipeKey, this.#n, this.#pets, statusList, registry, world.text, tailOf(draft), name)
        .then((k): StoredPet | -1 =>
          k === -1 ? -1 : { id: world.idOf(world.recipe.count + k), name: draft.name, categoryId: draft.categoryId, status: draft.status },
        ),
    );
  }

  /** The pet with this id, if there is one. */
  async get(id: number | bigint): Promise<StoredPet | undefined> {
    const json = await this.petJson(id);
    return json === undefined ? undefined : petFrom(json);
  }

  /** One pet's JSON: a seeded one at once, a created one from Redis. */
  petJson(id: number | bigint): Pending<string | undefined> {
    const world = this.#state.world();
    if (!(world instanceof Promise)) {
      const n = world.numberOf(id);
      if (n === undefined) return undefined;
      if (n <= world.recipe.count) return world.seed[n - 1]?.json;
    }
    return this.#state.inWorld((current) => this.#petJson(current, id));
  }

  /** The first `limit` pets in id order, only those with `status` when given. */
  async list(limit: number, status?: PetStatus): Promise<StoredPet[]> {
    return (await this.#state.inWorld((world) => this.#page(world, limit, status))).map((json) => petFrom(json));
  }

  /** `list` as a JSON array: a page the seed fills at once, one past it from Redis. */
  listJson(limit: number, status?: PetStatus): Pending<string> {
    const world = this.#state.world();
    const page = world instanceof Promise ? undefined : world.seedPage(limit, status);
    if (page !== undefined) return page;
    return this.#state.inWorld((current) => {
      const parts = this.#page(current, limit, status);
      return Array.isArray(parts) ? `[${parts.join(',')}]` : parts.then((found) => (found === -1 ? -1 : `[${found.join(',')}]`));
    });
  }

  /** The pets created since the seed, in id order. */
  async created(): Promise<StoredPet[]> {
    return (await this.#state.inWorld((world) => this.#created(world, Number.MAX_SAFE_INTEGER))).map(([, json]) => petFrom(json));
  }

  /** Back to the seeded pets and the base clock, on every replica. */
  reset(): Promise<void> {
    return this.#state.reset(this.#name);
  }

  /** How many pets the session has. */
  get size(): Promise<number> {
    const { redis, recipeKey } = this.#state;
    return this.#state.inWorld((world) => redis.petstoreCount(recipeKey, this.#n, world.text).then((n) => (n === -1 ? -1 : world.recipe.count + n)));
  }

  #petJson(world: World, id: number | bigint): Pending<string | undefined | -1> {
    const n = world.numberOf(id);
    if (n === undefined) return undefined;
    const { count } = world.recipe;
    if (n <= count) return world.seed[n - 1]?.json;
    const { redis, recipeKey } = this.#state;
    return redis
      .petstorePet(recipeKey, this.#pets, world.text, n - count)
      .then((tail) => (tail === -1 ? -1 : tail === 0 ? undefined : world.createdJson(n - count, tail)));
  }

  /**
   * The JSON of each pet of a page, in id order: the seed's first, then Redis is asked only for what
   * the seed leaves of it; your own data's ids beyond 2^62 come after the created pets.
   */
  #page(world: World, limit: number, status: PetStatus | undefined): string[] | Promise<string[] | -1> {
    const { below, above } = world.seedPets(status);
    const parts = below.slice(0, limit).map((entry) => entry.json);
    if (parts.length >= limit) return parts;
    return this.#created(world, limit - parts.length, status).then((created) => {
      if (created === -1) return -1;
      for (const [, json] of created) parts.push(json);
      for (const entry of above.slice(0, limit - parts.length)) parts.push(entry.json);
      return parts;
    });
  }

  async #created(world: World, need: number, status?: PetStatus): Promise<Created> {
    const { redis, recipeKey } = this.#state;
    const keys = status === undefined ? [recipeKey, this.#n, this.#pets] : [recipeKey, this.#n, this.#pets, this.#state.key(this.#name, `st:${status}`)];
    const reply = await redis.petstoreCreated(status === undefined ? 3 : 4, ...keys, world.text, need);
    if (reply === -1) return -1;
    const pets: [number, string][] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const k = Number(reply[i]);
      pets.push([k, world.createdJson(k, String(reply[i + 1]))]);
    }
    return pets;
  }
}
