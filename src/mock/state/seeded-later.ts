/**
 * The sessions of a mock whose pets come a moment later: those faker must draw (a seed or count other
 * than the default, src/fixtures/seeding.ts), once it is loaded. Until then every call waits for them
 * (a request, a reset, a read of the store); from then on each goes straight to the sessions made of
 * them, and answers at once, as the mock's in-memory sessions do.
 */
import { andThen, type Pending } from '../core/pending.js';
import type { SessionRegistry, Sessions } from './sessions.js';
import type { PetStore } from './store.js';

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
    const store = <T>(use: (store: PetStore) => Pending<T>) => this.#then((made) => use(made.default.store));
    this.defaultStore = {
      get size() {
        return store((it) => it.size);
      },
      create: (draft) => store((it) => it.create(draft)),
      get: (id) => store((it) => it.get(id)),
      list: (limit, status) => store((it) => it.list(limit, status)),
      listJson: (limit, status) => store((it) => it.listJson(limit, status)),
      petJson: (id) => store((it) => it.petJson(id)),
      remove: (id) => store((it) => it.remove(id)),
      replace: (id, draft) => store((it) => it.replace(id, draft)),
      saved: () => store((it) => it.saved()),
      restore: (saved) => store((it) => it.restore(saved)),
      reset: () => store((it) => it.reset()),
      put: (pets) => store((it) => it.put(pets)),
    };
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
