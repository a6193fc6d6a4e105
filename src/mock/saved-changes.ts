/**
 * Changes of the default session's pets that are saved (`--state`) all or nothing: one change at a
 * time, each saved before it is acknowledged, and undone when its save fails, so that a client that
 * sees the 500 and retries does not add the pet twice. Named sessions are never saved.
 */
import { errorResponse, type MockResponse } from './exchange.js';
import type { PetStore, StoredPet } from './store.js';

/** A change that was made and saved, with what it gave; or the Error answer that says it was undone. */
export type Saved<T> = { readonly value: T } | { readonly error: MockResponse };

/** Runs a change of the default session's pets, and saves it. */
export type SaveChange = <T>(change: () => T) => Promise<Saved<T>>;

/**
 * The one way the default session's pets change when `persist` keeps them; without `persist`, the
 * change is simply made.
 * @example
 * const saveChange = savedChanges(sessions.default.store, persist);
 * const saved = await saveChange(() => store.create(draft));
 * if ('error' in saved) return saved.error; // 500, and the pet is gone from memory too
 */
export function savedChanges(store: PetStore, persist: ((created: readonly StoredPet[]) => Promise<void>) | undefined): SaveChange {
  // Changes run one after another: the undo of one must not take back another's pet.
  let queue: Promise<unknown> = Promise.resolve();
  return (change) => {
    if (!persist) return Promise.resolve({ value: change() });
    const run = queue.then(async () => {
      const before = store.created();
      const value = change();
      try {
        await persist(store.created());
        return { value };
      } catch (error) {
        store.reset();
        for (const pet of before) store.create(pet);
        return {
          error: errorResponse(
            'internal_error',
            `Nothing was changed: the change could not be saved to the state file (${(error as Error).message}), so it was undone. Fix the cause, then retry.`,
          ),
        };
      }
    });
    queue = run;
    return run;
  };
}
