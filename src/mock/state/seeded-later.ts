/**
 * The sessions of a mock whose pets come a moment later: those faker must draw (a seed or count other
 * than the default, src/fixtures/seeding.ts), once it is loaded. Until then every call waits for them
 * (a request, a reset, a read of the store); from then on each goes straight to the sessions made of
 * them, and answers at once, as the mock's in-memory sessions do.
 */
import { andThen, type Pending } from '../core/pending.js';
import type { SessionRegistry, Sessions } from './sessions.js';
import { MemoryPetStore, type PetStore } from './store.js';

/** What a registry says of itself before its sessions exist: its cap, idle TTL and base clock. */
interface SessionLimits {
  readonly max: number;
  readonly ttl: number;
  readonly base: () => number;
}

/**
 * `sessions` once they are made: a `SessionRegistry`, and the default session's store, now.
 * @example
 * const later = new LaterSessions(seededPetsSoon(7, 10, {}).then(makeSessions), { max: 100, ttl: 1_800_000, base: Date.now });
 * await later.defaultStore.size; // 10, once faker has drawn them
 */
export class LaterSessions implements SessionRegistry {
  readonly max: number;
  readonly ttl: number;
  readonly base: () => number;
  /** The default session's store: every call waits for the sessions, then is theirs. */
  readonly defaultStore: PetStore;
  #sessions: Sessions | Promise<Sessions>;

  constructor(sessions: Promise<Sessions>, limits: SessionLimits) {
    ({ max: this.max, ttl: this.ttl, base: this.base } = limits);
    this.#sessions = sessions.then((made) => {
      this.#sessions = made;
      return made;
    });
    // A failure is each caller's to see (a request answers it as a 500); it is not also an unhandled rejection.
    this.#sessions.catch(() => undefined);
    // Each member of the memory store, read from its class rather than listed here, waits for the sessions, then is the default store's own.
    const store = (use: (store: Record<string, unknown>) => unknown) => this.#then((made) => use(made.default.store as unknown as Record<string, unknown>));
    const members = Object.entries(Object.getOwnPropertyDescriptors(MemoryPetStore.prototype)).filter(([name]) => name !== 'constructor');
    this.defaultStore = Object.defineProperties(
      {},
      Object.fromEntries(
        members.map(([name, member]) => [
          name,
          member.get
            ? { get: () => store((it) => it[name]) }
            : { value: (...args: unknown[]) => store((it) => Reflect.apply(it[name] as (...args: unknown[]) => unknown, it, args)) },
        ]),
      ),
    ) as PetStore;
  }

  #then<T>(use: (sessions: Sessions) => Pending<T>): Pending<T> {
    return andThen(this.#sessions, use);
  }

  open: SessionRegistry['open'] = (name) => this.#then((made) => made.open(name));
  find: SessionRegistry['find'] = (name) => this.#then((made) => made.find(name));
  now: SessionRegistry['now'] = (name) => this.#then((made) => made.now(name));
  setClock: SessionRegistry['setClock'] = (name, time) => this.#then((made) => made.setClock(name, time));
  reset: SessionRegistry['reset'] = (name) => this.#then((made) => made.reset(name));
  drop: SessionRegistry['drop'] = (name) => this.#then((made) => made.drop(name));
  resetAll: SessionRegistry['resetAll'] = () => this.#then((made) => made.resetAll());
  list: SessionRegistry['list'] = () => this.#then((made) => made.list());
  size: SessionRegistry['size'] = (name) => this.#then((made) => made.size(name));
}
