/**
 * The default session's created pets as one replica keeps them, beside the seed and under the same
 * lease (change-feed.ts): one cache per view, dropped with it. Until a put, a replace, a remove or a
 * reset (each published on the change feed, and answered only once no replica can still trust what
 * it kept), a created pet never changes, and the index of each status only grows at its end, in id
 * order. So a pet read once is served from memory after, and so is a page whose created pets are
 * among the first ones this replica already knows; only what it does not know yet is asked of Redis,
 * and the reads of one thing that arrive in one turn of the event loop share one command, sent at
 * its end (as creates do, create-batch.ts): each of them arrived before it was sent, so none misses
 * a change answered before it arrived.
 * A named session's created pets are kept the same way, under the same view (`SessionCaches`), with
 * one more rule: a reset, a drop or an expiry of one is not published, but it deletes the session's
 * birth, which every request reads as it opens the session (`OPEN` in scripts.ts), so a replica keeps
 * each session's pets by its birth and never serves those of a session of the same name before it.
 */
import type { PetStatus } from '../../../types.js';
import type { World } from './world.js';

/**
 * Created pets by their number k (JSON with its id), and the known start of each status index.
 * @example
 * const cache = new CreatedCache(() => feed.unchanged(mark));
 * cache.keep(1, '{"id":51,"name":"Rex","categoryId":1,"status":"sold"}');
 * cache.first(undefined, 1); // ['{"id":51,...}']: the first created pet, no Redis command
 */
export class CreatedCache {
  /** Whether what Redis answered since the view was read may still be kept: no change was published meanwhile. */
  readonly #valid: () => boolean;
  readonly #pets = new Map<number, string>();
  /** Pets 1 to `#contiguous` are all kept: the start of the unfiltered list. */
  #contiguous = 0;
  /** The k of the first pets of each status, in order, as Redis listed them. */
  readonly #lists = new Map<PetStatus, number[]>();
  /** Pages made of the seed and kept pets, by status and limit, until a pet is kept. */
  readonly #pages = new Map<string, string>();
  /** The reads of this turn not sent yet, by what they read. */
  readonly #reads = new Map<string, Promise<unknown>>();
  #queued: (() => void)[] = [];
  /**
   * Set when Redis answered a pet number with another pet than the one kept: the session was reset
   * and its numbers given again, and the message saying so has not arrived yet. Nothing is served
   * from this cache after that, rather than a page of pets from before and after the reset.
   */
  #spoiled = false;

  constructor(valid: () => boolean) {
    this.#valid = valid;
  }

  /** The JSON of created pet k, when this replica has it. */
  pet(k: number): string | undefined {
    return this.#spoiled ? undefined : this.#pets.get(k);
  }

  /** Keeps created pet k, unless a change was published since the view was read (then the view goes, and this cache with it). */
  keep(k: number, json: string): void {
    if (this.#spoiled || !this.#valid()) return;
    const kept = this.#pets.get(k);
    if (kept !== undefined && kept !== json) {
      this.#spoiled = true;
      this.#pages.clear();
      return;
    }
    this.#pets.set(k, json);
    while (this.#pets.has(this.#contiguous + 1)) this.#contiguous++;
    this.#pages.clear();
  }

  /** How many of the first created pets (with `status` when given) this replica knows: Redis is asked for the ones after. */
  known(status: PetStatus | undefined): number {
    if (this.#spoiled) return 0;
    return status === undefined ? this.#contiguous : (this.#lists.get(status)?.length ?? 0);
  }

  /** The JSON of the first `need` created pets (with `status` when given), when this replica knows that many. */
  first(status: PetStatus | undefined, need: number): string[] | undefined {
    if (this.known(status) < need) return undefined;
    const ks = status === undefined ? undefined : this.#lists.get(status);
    const page: string[] = [];
    for (let i = 0; i < need; i++) {
      const json = this.#pets.get(ks === undefined ? i + 1 : (ks[i] as number));
      if (json === undefined) return undefined;
      page.push(json);
    }
    return page;
  }

  /** The JSON of a page of `world`'s seed and the created pets kept, when they fill it; kept until a pet is kept. */
  page(world: World, limit: number, status: PetStatus | undefined): string | undefined {
    const key = `${status} ${limit}`;
    let json = this.#pages.get(key);
    if (json !== undefined) return json;
    const below = world.seedPets(status).below.slice(0, limit);
    const created = this.first(status, limit - below.length);
    if (created === undefined) return undefined;
    // Joined, not concatenated: a flat string is copied out to each response in one piece.
    json = ['[', [...below.map((entry) => entry.json), ...created].join(','), ']'].join('');
    this.#pages.set(key, json);
    return json;
  }

  /** What `read` answers, sent at the end of this turn, once for every read of `key` in the turn. */
  shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    let reading = this.#reads.get(key) as Promise<T> | undefined;
    if (reading === undefined) {
      reading = new Promise<T>((resolve) => {
        this.#queued.push(() => resolve(read()));
      });
      this.#reads.set(key, reading);
      if (this.#queued.length === 1) setImmediate(this.#sendAll);
    }
    return reading;
  }

  readonly #sendAll = () => {
    const queued = this.#queued;
    this.#queued = [];
    this.#reads.clear();
    for (const send of queued) send();
  };

  /** Keeps the created pets Redis listed after the `from` this replica knew (`known`), in order. */
  extend(status: PetStatus | undefined, from: number, listed: readonly (readonly [number, string])[]): void {
    if (this.#spoiled || !this.#valid()) return;
    for (const [k, json] of listed) this.keep(k, json);
    if (status === undefined) return;
    const ks = this.#lists.get(status) ?? [];
    // Another read may have extended it meanwhile: only what follows the list as it stands is added.
    if (ks.length !== from) return;
    for (const [k] of listed) ks.push(k);
    this.#lists.set(status, ks);
  }
}

/**
 * The created pets of named sessions one replica keeps under one view: for each session, those of the
 * birth its requests last opened (a session reset, dropped or expired starts its numbers again, under
 * another birth). At most `max` sessions (as many as Redis holds open at once: `--max-sessions`, or
 * fewer by `SESSIONS_BYTES`), the one kept longest going first.
 * @example
 * const caches = new SessionCaches(() => feed.unchanged(mark), 100);
 * caches.of('alice', born).keep(1, '{"id":51,...}');
 */
export class SessionCaches {
  readonly #valid: () => boolean;
  readonly #max: number;
  readonly #caches = new Map<string, { readonly born: string; readonly cache: CreatedCache }>();

  constructor(valid: () => boolean, max: number) {
    this.#valid = valid;
    this.#max = Math.max(1, max);
  }

  /** The pets kept of session `name` of birth `born`: none yet for a birth this replica did not see. */
  of(name: string, born: string): CreatedCache {
    const held = this.#caches.get(name);
    if (held?.born === born) return held.cache;
    this.#caches.delete(name);
    const oldest = this.#caches.keys().next();
    if (this.#caches.size >= this.#max && !oldest.done) this.#caches.delete(oldest.value);
    const cache = new CreatedCache(this.#valid);
    this.#caches.set(name, { born, cache });
    return cache;
  }
}
