/**
 * Group commit: the creates of one session in one generation that arrive in the same turn of the event
 * loop go to Redis as one script (scripts.ts `CREATE`), each answered with its own number or id. What
 * a create costs the mock's CPU is mostly per command (ioredis's command and its promises, the reply),
 * not per pet, so under load N creates cost little more than one; a lone create is one script as before.
 * The script checks the generation first: a batch is made whole or not at all (-1 to every create in
 * it, each then tried again by `inWorld`), and a create is answered only once Redis replied to its batch.
 */
import { filterValueOf } from '../seed-index.js';
import { DEFAULT_SESSION } from '../sessions.js';
import type { PetDraft } from '../store.js';
import type { RedisStore } from './redis-store.js';
import type { World } from './world.js';

/** What the script answers a create: its number k, its id (in a session with pets put into it), or -1 (another generation). */
export type Made = number | string | -1;

/** The keys of the script that come before the status lists. */
const FIXED_KEYS = 8;

/**
 * A batch goes as soon as it holds this many creates, without waiting for the end of the turn: Redis
 * then makes them while the mock reads the next requests, instead of the two taking turns (measured
 * with 32 clients: 16 answers 5 to 10% more creates a second than one batch per turn, and a little more than 8).
 */
const MAX_BATCH = 16;

/** The creates of one session in one generation, gathered until the turn ends. */
class Batch {
  readonly world: World;
  readonly session: string;
  /** Each status list a pet goes to, once. */
  readonly statusKeys: string[] = [];
  /** Per pet: the index in KEYS of its status list, then its JSON without its id. */
  readonly args: string[] = [];
  readonly waiting: { resolve: (made: Made) => void; reject: (error: unknown) => void }[] = [];

  constructor(world: World, session: string) {
    this.world = world;
    this.session = session;
  }

  add(statusKey: string, tail: string): Promise<Made> {
    let index = this.statusKeys.indexOf(statusKey);
    if (index === -1) index = this.statusKeys.push(statusKey) - 1;
    this.args.push(String(FIXED_KEYS + index + 1), tail);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
    });
  }
}

/**
 * The creates of one replica waiting for the end of the turn, by session.
 * @example
 * const draft = { name: 'Rex', categoryId: 1, status: 'sold' };
 * const k = await batches.add('default', world, draft, tailOf(draft)); // 1, 2, ... or -1
 */
export class CreateBatches {
  readonly #state: RedisStore;
  readonly #open = new Map<string, Batch>();
  #scheduled = false;

  constructor(state: RedisStore) {
    this.#state = state;
  }

  /** Adds a create of `session` in `world` to the batch sent at the end of this turn; `tail`: the draft's JSON without its id (`tailOf`). */
  add(session: string, world: World, draft: PetDraft, tail: string): Promise<Made> {
    let batch = this.#open.get(session);
    if (batch !== undefined && batch.world !== world) {
      // A create of the generation followed meanwhile: the batch of the old one goes now, alone.
      this.#open.delete(session);
      this.#send(batch);
      batch = undefined;
    }
    if (batch === undefined) {
      batch = new Batch(world, session);
      this.#open.set(session, batch);
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      // Not nextTick: each request's body arrives in its own callback of the poll phase, and
      // setImmediate runs once they all have.
      setImmediate(this.#sendAll);
    }
    // The list of the pet's filter value (its status): `st:` and the value.
    const made = batch.add(this.#state.key(session, `st:${String(filterValueOf(world.filter, draft))}`), tail);
    if (batch.waiting.length === MAX_BATCH) {
      this.#open.delete(session);
      this.#send(batch);
    }
    return made;
  }

  readonly #sendAll = () => {
    this.#scheduled = false;
    for (const batch of this.#open.values()) this.#send(batch);
    this.#open.clear();
  };

  /** One script for the batch; each create answered with its own reply, or every one with the batch's failure. */
  #send(batch: Batch): void {
    const { session, world, waiting } = batch;
    const state = this.#state;
    const key = (part: string) => state.key(session, part);
    const keys = [state.recipeKey, key('n'), key('pets'), state.registry, key('top'), key('put'), key('added'), key('made'), ...batch.statusKeys];
    const name = session === DEFAULT_SESSION ? '' : session;
    // One deadline for the batch: each create in it waits for the one command.
    state
      .run(() => state.redis.petstoreCreate(keys.length, ...keys, world.text, name, ...batch.args))
      .then(
        (reply) => {
          for (const [i, create] of waiting.entries()) {
            const made = reply === -1 ? -1 : reply[i];
            // The script answers every pet of the batch; a create left unanswered is an error, never made again.
            if (made === undefined) create.reject(new Error(`Redis answered ${waiting.length - i} creates of a batch of ${waiting.length} with nothing`));
            else create.resolve(made);
          }
        },
        (error: unknown) => {
          for (const create of waiting) create.reject(error);
        },
      );
  }
}
