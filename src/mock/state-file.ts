import { open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as validators from '../generated/validators.js';
import { type JsonValue, parseJson, stringifyJson, validationView } from '../json/lossless.js';
import type { StoredPet } from './store.js';

const FORMAT = 'petstore-mock-state';
const VERSION = 1;

/** What a state file holds: the seed the pets came from and the pets created since. */
interface SavedState {
  readonly format: typeof FORMAT;
  readonly version: typeof VERSION;
  readonly seed: number;
  readonly count: number;
  readonly created: readonly StoredPet[];
}

/** A state file that cannot be used; it is left as it is, never replaced. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError' as const;
}

function refuse(path: string, why: string): never {
  throw new StateFileError(`${path} is not a usable petstore-mock state file: ${why}. It was left untouched: fix it, or move it away to start afresh.`);
}

/**
 * The pets created in an earlier run, from `path`; none when the file does not exist yet. A file
 * that is not a state file, or was written for another seed or count, is refused with a
 * `StateFileError` that says why.
 */
export async function readStateFile(path: string, seed: number, count: number, idOffset: bigint | undefined): Promise<StoredPet[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new StateFileError(`cannot read the state file ${path}: ${(error as Error).message}`);
  }
  let state: Record<string, JsonValue>;
  try {
    state = parseJson(text) as Record<string, JsonValue>;
  } catch (error) {
    refuse(path, `it is not JSON (${(error as Error).message})`);
  }
  if (typeof state !== 'object' || state === null || state.format !== FORMAT) refuse(path, `it has no "format": "${FORMAT}"`);
  if (state.version !== VERSION) refuse(path, `its version ${String(state.version)} is not ${VERSION}`);
  if (state.seed !== seed || state.count !== count) {
    throw new StateFileError(
      `${path} was written with --seed ${String(state.seed)} --count ${String(state.count)}; start with those, or move the file away to start afresh with --seed ${seed} --count ${count}.`,
    );
  }
  const created = state.created;
  if (!Array.isArray(created)) refuse(path, '"created" is not a list of pets');
  created.forEach((pet, index) => {
    if (!validators.Pet(validationView(pet)) || (pet as Record<string, JsonValue>).status === undefined) refuse(path, `created[${index}] is not a valid Pet`);
    const expected = String((idOffset ?? 0n) + BigInt(count + index + 1));
    if (String((pet as { id: unknown }).id) !== expected) refuse(path, `created[${index}] has id ${String((pet as { id: unknown }).id)}, not ${expected}`);
  });
  return created as unknown as StoredPet[];
}

/**
 * Writes the state to `path` durably: a temporary file beside it, fsync, rename, fsync of the
 * folder, so that a crash leaves either the old file or the new one, never half of one. Saves
 * asked for while a write runs are gathered into the next write, so each caller is answered once
 * a write that holds its change is on disk.
 */
export class StateFileWriter {
  #writing: Promise<void> | undefined;
  #next: Promise<void> | undefined;
  #latest: readonly StoredPet[] = [];

  constructor(
    readonly path: string,
    readonly seed: number,
    readonly count: number,
  ) {}

  /** Resolves once `created` (or a later state) is on disk. */
  save(created: readonly StoredPet[]): Promise<void> {
    this.#latest = created;
    if (!this.#writing) {
      this.#writing = this.#write().finally(() => {
        this.#writing = undefined;
      });
      return this.#writing;
    }
    this.#next ??= this.#writing
      .catch(() => {})
      .then(() => {
        this.#next = undefined;
        return this.save(this.#latest);
      });
    return this.#next;
  }

  async #write(): Promise<void> {
    const state: SavedState = { format: FORMAT, version: VERSION, seed: this.seed, count: this.count, created: this.#latest };
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.tmp`);
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(`${stringifyJson(state)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, this.path);
    const folder = await open(dirname(this.path), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }
}
