/**
 * The sessions of a mock whose pets come a moment later: those faker must draw (a seed or count other
 * than the default, src/fixtures/seeding.ts), once it is loaded. Until then every call waits for them
 * (a request, a reset, a read of the store); from then on each goes straight to the sessions made of
 * them, and answers at once, as the mock's in-memory sessions do.
 */
import { andThen, type Pending } from '../core/pending.js';
import { type SessionRegistry, Sessions } from './sessions.js';
import { MemoryPetStore, type PetStore } from './store.js';

/** What a registry says of itself before its sessions exist: its cap, idle TTL and base clock. */
interface SessionLimits {
  readonly max: number;
  readonly ttl: number;
  readonly base: () => number;
}

/**
 * An object with each method and getter of `members` (a class's prototype, so that nothing is listed
 * here by hand), each waiting for `target`, then its own; `fixed` holds the members known at once.
 */
function waiting<T>(members: object, target: () => Pending<object>, fixed: object = {}): T {
  const delegated = Object.entries(Object.getOwnPropertyDescriptors(members)).filter(([name]) => name !== 'constructor' && !(name in fixed));
  const member = (name: string, use: (it: object, value: unknown) => unknown) => andThen(target(), (it) => use(it, Reflect.get(it, name)));
  const descriptors = delegated.map(([name, { get }]) => [
    name,
    get
      ? { get: () => member(name, (_it, value) => value) }
      : { value: (...args: unknown[]) => member(name, (it, method) => Reflect.apply(method as (...args: unknown[]) => unknown, it, args)) },
  ]);
  return Object.defineProperties({ ...fixed }, Object.fromEntries(descriptors)) as T;
}

/**
 * `sessions` once they are made: a `SessionRegistry`, and the default session's store, now.
 * @example
 * const later = laterSessions(seededPetsSoon(7, 10, {}).then(makeSessions), { max: 100, ttl: 1_800_000, base: Date.now });
 * await later.defaultStore.size; // 10, once faker has drawn them
 */
export function laterSessions(sessions: Promise<Sessions>, limits: SessionLimits): SessionRegistry & { readonly defaultStore: PetStore } {
  let made: Sessions | Promise<Sessions> = sessions.then((ready) => {
    made = ready;
    return ready;
  });
  // A failure is each caller's to see (a request answers it as a 500); it is not also an unhandled rejection.
  made.catch(() => undefined);
  const defaultStore = waiting<PetStore>(MemoryPetStore.prototype, () => andThen(made, (ready) => ready.default.store));
  return waiting<SessionRegistry & { readonly defaultStore: PetStore }>(Sessions.prototype, () => made, { ...limits, defaultStore });
}
