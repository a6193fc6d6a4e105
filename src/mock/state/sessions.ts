import { type Bound, Budget, type Share } from '../../bounds/budget.js';
import type { Pending } from '../core/pending.js';
import { MockClock } from './clock.js';
import type { SeedIndex } from './seed-index.js';
import { MemoryPetStore, NAMED_SESSIONS_PETS_BOUND, type PetStore } from './store.js';

/** The request header that names a session. */
export const SESSION_HEADER = 'x-mock-session';

/** The session of requests that name none; naming it (`X-Mock-Session: default`) means the same. */
export const DEFAULT_SESSION = 'default';

// Unreserved URL characters only: a name is also a path segment of /__mock/sessions/<name>.
const SESSION_NAME = /^[A-Za-z0-9._~-]{1,64}$/;

/** Says what a session name may be, for the 400 that refuses one. */
export function describeSessionName(got: string): string {
  return `A session name (X-Mock-Session) is 1 to 64 letters, digits, '.', '_', '~' or '-'; got ${JSON.stringify(got.slice(0, 80))}.`;
}

/**
 * The session a request names by its `X-Mock-Session` header: the default one without it, `undefined` for a name that is not one.
 * @example
 * sessionName(request.header(SESSION_HEADER)); // 'worker-1', 'default', or undefined for 'a b'
 */
export function sessionName(header: string | undefined): string | undefined {
  if (header === undefined) return DEFAULT_SESSION;
  return SESSION_NAME.test(header) ? header : undefined;
}

/**
 * What one named session costs the mock besides its pets and its journal's records, each bounded by a
 * budget of its own: its store's overlay, its clock and counters, its place in the registry and its
 * journal's first room, its name at its longest (64 characters). Measured as the process pays it: 6,500
 * sessions each opened by one list read over HTTP grew the CLI's RSS by 83 MiB, the same reads in one
 * session by 16 MiB: 10.5 KB a session (4.7 KB of live heap in process; the rest is the heap's room to
 * grow, which the process holds too). A name has at most 64 characters and the rest is fixed, so each
 * session is counted at its most, the same for all: then the budget below allows a number of sessions
 * that Redis's registry, shared by every replica, counts alike.
 */
export const SESSION_BYTES = 10 * 1024;

/**
 * The most the named sessions' own bytes come to together, however high `--max-sessions` (100,000 at
 * most, which let sessions alone take 470 MB to 1 GB): 6,553 sessions. A new session past it is
 * refused with a 429, as past `--max-sessions`.
 */
export const SESSIONS_BYTES = 64 * 1024 * 1024;

/** The bound of the named sessions' own bytes, each `SESSION_BYTES`. */
const SESSIONS_BOUND: Bound = { totalBytes: SESSIONS_BYTES };

/**
 * How many named sessions a registry opens: `--max-sessions`, or fewer when their own bytes reach
 * `SESSIONS_BYTES` first.
 * @example
 * sessionsOpenable(100); // 100
 * sessionsOpenable(100_000); // 6553
 */
export function sessionsOpenable(max: number): number {
  return Math.min(max, Math.floor(SESSIONS_BOUND.totalBytes / SESSION_BYTES));
}

/** One client's state: its pets and its clock. */
export interface Session {
  readonly name: string;
  readonly store: PetStore;
  readonly clock: MockClock;
}

/** One named session as `GET /__mock/sessions` lists it. */
interface SessionSummary {
  readonly name: string;
  readonly pets: number;
  readonly idleMs: number;
}

/**
 * The sessions of a mock, wherever they live: in this process (`Sessions`) or in Redis
 * (`RedisSessions`), where what needs Redis answers in a promise.
 */
export interface SessionRegistry {
  /** How many named sessions may be open at once. */
  readonly max: number;
  /** Milliseconds a named session may stay idle. */
  readonly ttl: number;
  /** The mock's base clock, which every session's clock moves from. */
  readonly base: () => number;
  /** The session with this name, opening it on first use; `undefined` when that would pass the cap. */
  open(name: string): Pending<Session | undefined>;
  /** The session with this name if there is one to see; never opens one. */
  find(name: string): Pending<Session | undefined>;
  /** What the clock of the session with this name reads, without opening it. */
  now(name: string): Pending<number>;
  /** Moves a session's clock so that it reads `time` now (`null`: back to the base clock), opening it; false when the cap refuses it. */
  setClock(name: string, time: number | null): Pending<boolean>;
  reset(name: string): Pending<void>;
  drop(name: string): Pending<boolean>;
  resetAll(): Pending<void>;
  list(): Pending<SessionSummary[]>;
  size(name: string): Pending<number>;
}

interface OpenSession extends Session {
  readonly store: MemoryPetStore;
  /** When it was last used, by the monotonic clock. */
  lastUsed: number;
  /** Its own bytes, `SESSION_BYTES`, in the budget of every named session's. */
  readonly own: Share;
}

/** What every session starts from, and how many may live for how long. */
export interface SessionsOptions {
  /** The seeded pets every session starts with, indexed once and shared: a session holds only what it changed. */
  readonly seed: SeedIndex;
  /** The base clock of every session. */
  readonly now: () => number;
  /** Milliseconds a named session may stay idle before it is dropped. */
  readonly ttl: number;
  /** How many named sessions may exist at once; the default session does not count. */
  readonly max: number;
}

/**
 * The default session and the named ones, each a store over the shared seed and a clock of its own:
 * opening one costs the same whatever the seed's size. Named sessions open on first use and are
 * dropped after `ttl` idle milliseconds. The map is kept in the order of last use, so expiring walks
 * only the sessions that did expire.
 * @example
 * const sessions = new Sessions({ seed: new SeedIndex(seededPets(1, 50)), now: Date.now, ttl: 1_800_000, max: 100 });
 * sessions.open('worker-1')?.store.size; // 50; undefined once 100 named sessions are open
 */
export class Sessions implements SessionRegistry {
  readonly default: Session;
  readonly #options: SessionsOptions;
  readonly #named = new Map<string, OpenSession>();
  /** The named sessions' pets, each within its cap and all within theirs; the default session's are bounded alone. */
  readonly #pets = new Budget(NAMED_SESSIONS_PETS_BOUND);
  /** The named sessions' own bytes: a new one is refused once they would pass `SESSIONS_BYTES`. */
  readonly #own = new Budget(SESSIONS_BOUND);

  constructor(options: SessionsOptions) {
    this.#options = options;
    this.default = this.#create(DEFAULT_SESSION);
  }

  get max(): number {
    return this.#options.max;
  }

  get ttl(): number {
    return this.#options.ttl;
  }

  get base(): () => number {
    return this.#options.now;
  }

  /** The session with this name, opening it from the seed on first use; `undefined` when that would pass the cap or the sessions' bytes. */
  open(name: string): Session | undefined {
    if (name === DEFAULT_SESSION) return this.default;
    const now = this.#expire();
    let session = this.#named.get(name);
    if (session) this.#named.delete(name);
    else if (this.#named.size >= this.#options.max) return undefined;
    else {
      const own = this.#own.share();
      if (own.take(SESSION_BYTES) !== undefined) return undefined;
      session = { ...this.#create(name), own };
    }
    session.lastUsed = now;
    this.#named.set(name, session);
    return session;
  }

  /** The session with this name if it is open; never opens one. */
  find(name: string): Session | undefined {
    if (name === DEFAULT_SESSION) return this.default;
    this.#expire();
    return this.#named.get(name);
  }

  /** What the clock of the session with this name reads, without opening it: one not open yet reads the base clock, as it will once opened. */
  now(name: string): number {
    const session = this.find(name);
    return session ? session.clock.now() : this.default.clock.base();
  }

  /** Puts one session back to the seeded pets and the base clock. A session not open has nothing to reset: it starts seeded. */
  reset(name: string): Pending<void> {
    const session = this.find(name);
    session?.clock.reset();
    return session?.store.reset();
  }

  setClock(name: string, time: number | null): boolean {
    const session = this.open(name);
    if (time === null) session?.clock.reset();
    else session?.clock.set(time);
    return session !== undefined;
  }

  /** Drops a named session; whether it was open. */
  drop(name: string): boolean {
    const session = this.#named.get(name);
    session?.store.release();
    session?.own.release();
    return this.#named.delete(name);
  }

  /** The default session back to the seed, every named one dropped: the mock as it started. */
  resetAll(): Pending<void> {
    for (const session of this.#named.values()) {
      session.store.release();
      session.own.release();
    }
    this.#named.clear();
    return this.reset(DEFAULT_SESSION);
  }

  /** The open named sessions, least recently used first. */
  async list(): Promise<{ readonly name: string; readonly pets: number; readonly idleMs: number }[]> {
    const now = this.#expire();
    return Promise.all(
      [...this.#named.values()].map(async (session) => ({ name: session.name, pets: await session.store.size, idleMs: Math.round(now - session.lastUsed) })),
    );
  }

  /** How many pets a session has, or would have once opened. */
  size(name: string): Pending<number> {
    return this.find(name)?.store.size ?? this.#options.seed.size;
  }

  #expire(): number {
    const now = performance.now();
    for (const [name, session] of this.#named) {
      if (now - session.lastUsed < this.#options.ttl) break;
      session.store.release();
      session.own.release();
      this.#named.delete(name);
    }
    return now;
  }

  #create(name: string): Omit<OpenSession, 'own'> {
    const { seed, now } = this.#options;
    return {
      name,
      store: name === DEFAULT_SESSION ? new MemoryPetStore(seed) : new MemoryPetStore(seed, {}, this.#pets.share()),
      clock: new MockClock(now),
      lastUsed: performance.now(),
    };
  }
}
