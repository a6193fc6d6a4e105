/**
 * The mock's sessions when their state is in Redis: the registry of named sessions (idle time-out and
 * cap), each session's pets and its clock, so that a session opened, reset, moved in time or dropped
 * through one replica is so on every replica at once. A named session is opened in Redis on each
 * request (its idle time and the cap are counted there); the default one is always open, and its
 * clock is the one each replica keeps while its change feed trusts it (redis-store.ts).
 */
import type { Pending } from '../../core/pending.js';
import { MockClock } from '../clock.js';
import { DEFAULT_SESSION, type SessionRegistry } from '../sessions.js';
import type { RedisPetStore } from './pet-store.js';
import type { RedisStore, View } from './redis-store.js';

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
export class RedisSessions implements SessionRegistry {
  readonly #state: RedisStore;
  readonly #base: () => number;
  readonly #ttl: number;
  readonly #max: number;
  readonly #defaultStore: RedisPetStore;
  /** The default session as of the view it was made for: made again only when the view changes. */
  #default: { readonly view: View; readonly session: RedisSession } | undefined;

  constructor(state: RedisStore, base: () => number, limits: { readonly ttl: number; readonly max: number }) {
    this.#state = state;
    this.#base = base;
    this.#ttl = limits.ttl;
    this.#max = limits.max;
    this.#defaultStore = state.store(DEFAULT_SESSION);
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
  open(name: string): Pending<RedisSession | undefined> {
    if (name === DEFAULT_SESSION) return this.#defaultSession();
    return this.#state
      .openSession(name)
      .then((opened) => (opened === undefined ? undefined : this.#session(name, opened.clockOffset, opened.puts, opened.born)));
  }

  /** The session with this name as it stands, without opening it: one never opened reads as seeded, on the base clock. */
  find(name: string): Pending<RedisSession> {
    if (name === DEFAULT_SESSION) return this.#defaultSession();
    return this.#state.clockOffset(name).then((offset) => this.#session(name, offset, undefined));
  }

  /** What the clock of the session with this name reads, without opening it. */
  now(name: string): Pending<number> {
    const session = this.find(name);
    return session instanceof Promise ? session.then((found) => found.clock.now()) : session.clock.now();
  }

  /** Moves a session's clock so that it reads `time` now (`null`: back to the base clock), opening the session; false when the cap refuses it. */
  setClock(name: string, time: number | null): Promise<boolean> {
    return this.#state.setClock(name, time === null ? null : time - this.#base());
  }

  /** One session back to the seeded pets and the base clock. */
  reset(name: string): Promise<void> {
    return this.#state.reset(name);
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

  /** The default session: at once while the replica's view is trusted, else after one round trip. */
  #defaultSession(): Pending<RedisSession> {
    const view = this.#state.view();
    return view instanceof Promise ? view.then((ready) => this.#defaultOf(ready)) : this.#defaultOf(view);
  }

  #defaultOf(view: View): RedisSession {
    if (this.#default?.view !== view) {
      this.#default = { view, session: { name: DEFAULT_SESSION, store: this.#defaultStore, clock: new MockClock(this.#base, view.clockOffset) } };
    }
    return this.#default.session;
  }

  /** `puts`: whether pets were put into the session when it was opened; unknown, as if they were. `born`: its birth, as opened. */
  #session(name: string, offset: number, puts: boolean | undefined, born?: string): RedisSession {
    return { name, store: this.#state.store(name, puts, born), clock: new MockClock(this.#base, offset) };
  }
}
