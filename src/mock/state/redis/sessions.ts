/**
 * The mock's sessions when their state is in Redis: the registry of named sessions (idle time-out and
 * cap), each session's pets and its clock, all read from Redis on each request, so that a session
 * opened, reset, moved in time or dropped through one replica is so on every replica at once.
 */
import { MockClock } from '../clock.js';
import type { RedisPetStore, RedisStore } from './redis-store.js';

/** One session as a request sees it: its pets in Redis, and its clock as Redis had it when the request began. */
export interface RedisSession {
  readonly name: string;
  readonly store: RedisPetStore;
  readonly clock: MockClock;
}

/**
 * The sessions of one Redis namespace, with the method names of the in-memory `Sessions`; what needs
 * Redis answers in a promise.
 * @example
 * const sessions = new RedisSessions(state, Date.now);
 * const session = await sessions.open('worker-1'); // undefined once the cap is reached on any replica
 */
export class RedisSessions {
  readonly #state: RedisStore;
  readonly #base: () => number;
  readonly #ttl: number;
  readonly #max: number;

  constructor(state: RedisStore, base: () => number, limits: { readonly ttl: number; readonly max: number }) {
    this.#state = state;
    this.#base = base;
    this.#ttl = limits.ttl;
    this.#max = limits.max;
  }

  get max(): number {
    return this.#max;
  }

  get ttl(): number {
    return this.#ttl;
  }

  /** The replica's base clock: the real one, or the one `--now` started. */
  get base(): () => number {
    return this.#base;
  }

  /** The session with this name, opened (or marked used) on every replica; `undefined` when that would pass the cap. */
  async open(name: string): Promise<RedisSession | undefined> {
    const offset = await this.#state.open(name);
    return offset === undefined ? undefined : this.#session(name, offset);
  }

  /** The session with this name as it stands, without opening it: one never opened reads as seeded, on the base clock. */
  async find(name: string): Promise<RedisSession> {
    return this.#session(name, await this.#state.clockOffset(name));
  }

  /** What the clock of the session with this name reads, without opening it. */
  async now(name: string): Promise<number> {
    return (await this.find(name)).clock.now();
  }

  /** Moves a session's clock so that it reads `time` now (`null`: back to the base clock), opening the session; false when the cap refuses it. */
  setClock(name: string, time: number | null): Promise<boolean> {
    return this.#state.setClock(name, time === null ? null : time - this.#base());
  }

  /** One session back to the seeded pets and the base clock. */
  reset(name: string): Promise<void> {
    return this.#state.store(name).reset();
  }

  drop(name: string): Promise<boolean> {
    return this.#state.drop(name);
  }

  resetAll(): Promise<void> {
    return this.#state.resetAll();
  }

  list(): Promise<{ readonly name: string; readonly pets: number; readonly idleMs: number }[]> {
    return this.#state.sessions();
  }

  size(name: string): Promise<number> {
    return this.#state.store(name).size;
  }

  #session(name: string, offset: number): RedisSession {
    return { name, store: this.#state.store(name), clock: new MockClock(this.#base, offset) };
  }
}
