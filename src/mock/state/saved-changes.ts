/**
 * Changes of the default session's pets that are saved (`--state`) all or nothing: one change at a
 * time, each saved before it is acknowledged, and undone when its save fails, so that a client that
 * sees the 500 and retries does not add the pet twice. Named sessions are never saved.
 */
import { errorResponse, type MockResponse } from '../core/messages.js';
import { andThen, type Pending } from '../core/pending.js';
import type { PetStore, SavedPets } from './store.js';

/** A change that was made (and saved, where that applies), with what it gave; or the Error answer that says it was undone. */
export type Saved<T> = { readonly value: T } | { readonly error: MockResponse };

/** Runs a change of a store's pets, and saves it where the mock keeps its state; at once when nothing is waited for. */
export type SaveChange = <T>(change: () => Pending<T>) => Pending<Saved<T>>;

/** A change of pets that are not saved (a named session's, or any without `--state`): it is simply made, in the same turn when the store answers at once. */
export const unsavedChange: SaveChange = (change) => andThen(change(), (value) => ({ value }));

/**
 * The one way the default session's pets change when `persist` keeps them; without `persist`, the
 * change is simply made.
 * @example
 * const saveChange = savedChanges(sessions.default.store, persist);
 * const saved = await saveChange(() => store.create(draft));
 * if ('error' in saved) return saved.error; // 500, and the pet is gone from memory too
 */
export function savedChanges(store: PetStore, persist: ((saved: SavedPets) => Promise<void>) | undefined): SaveChange {
  if (!persist) return unsavedChange;
  // Changes run one after another: the undo of one must not take back another's pet.
  let queue: Promise<unknown> = Promise.resolve();
  return (change) => {
    const run = queue.then(async () => {
      const before = await store.saved();
      const value = await change();
      try {
        await persist(await store.saved());
        return { value };
      } catch (error) {
        await store.restore(before);
        const reason = error instanceof Error ? error.message : String(error);
        return {
          error: errorResponse(
            'internal_error',
            `Nothing was changed: the change could not be saved to the state file (${reason}), so it was undone. Fix the cause, then retry.`,
          ),
        };
      }
    });
    queue = run;
    return run;
  };
}
