import { constants } from 'node:fs';
import { access, lstat, open, readdir, readFile, readlink, realpath, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { codeOf, EXIT, messageOf, StateFileError } from '../../errors.js';
import { MAX_PETS_FILE_BYTES, notARegularFile, readRegularFile, UnreadableFileError } from '../../files/read-file.js';
import { jsonFault } from '../../json/json-fault.js';
import { isJsonObject, type JsonObject, type JsonValue, parseJson, stringifyJson, validationView } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import type { ResourceModel } from '../../openapi/resource-model.js';
import { isStoredPet, keptPet, oversizedFault, type PetData } from './pet-data.js';
import { petDataHash } from './pet-data-file.js';
import { compareIds, idsAfter, indexById } from './seed-index.js';
import { type SavedPets, SESSION_PETS_BYTES, type StoredPet, savedBytes } from './store.js';

const FORMAT = 'petstore-mock-state';
/** Version 1 holds created pets numbered one after another; version 2 also removed pets, and how many creates numbered them; version 3 also replaced seeded pets. */
const VERSIONS = [1, 2, 3];

/**
 * What a state file holds: the seed the pets came from (or the hash of your data, `--data`) and the
 * pets created since; from version 2, the ids of the seeded pets removed and the count of creates;
 * from version 3, the seeded pets replaced, as they are now.
 */
interface SavedState extends Pick<SavedPets, 'created'>, Partial<Omit<SavedPets, 'created'>> {
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly seed?: number;
  readonly data?: string;
  readonly count: number;
}

/**
 * What the pets of a state file were created over: a seed and count, or your own data. A state saved
 * over other pets would restore pets numbered after pets this mock does not have.
 */
export interface StateOrigin {
  readonly seed: number;
  readonly count: number;
  readonly idOffset: bigint | undefined;
  readonly data?: PetData | undefined;
  /** The model whose records the file holds: the served spec's. Default: the bundled spec's. */
  readonly model?: ResourceModel | undefined;
}

/** The origin as the state file writes it. */
function originFields(origin: StateOrigin): Pick<SavedState, 'seed' | 'data' | 'count'> {
  return origin.data === undefined ? { seed: origin.seed, count: origin.count } : { data: petDataHash(origin.data), count: origin.data.pets.length };
}

/** How the command line names an origin, for a refusal. */
function describeOrigin(fields: { readonly seed?: unknown; readonly data?: unknown; readonly count?: unknown }): string {
  return fields.data === undefined ? `--seed ${String(fields.seed)} --count ${String(fields.count)}` : `--data (the pets of hash ${String(fields.data)})`;
}

/** The id of the `n`th pet created: pet numbers after the seed, or ids after the data's largest. */
function createdId(origin: StateOrigin, n: number): bigint {
  if (origin.data === undefined) return (origin.idOffset ?? 0n) + BigInt(origin.count + n);
  return idsAfter(origin.data.pets) + BigInt(n);
}

/** Whether an id is one of the seed's (or the data's): what a removal may name. */
function isSeeded(origin: StateOrigin, id: bigint): boolean {
  if (origin.data !== undefined) {
    // Your data's pets are in id order: a binary search finds the id.
    const { pets } = origin.data;
    const at = pets[indexById(pets, id, (pet) => pet.id)];
    return at !== undefined && compareIds(at.id, id) === 0;
  }
  const first = (origin.idOffset ?? 0n) + 1n;
  return id >= first && id < first + BigInt(origin.count);
}

function rejectStateFile(path: string, why: string): never {
  throw new StateFileError(`${path} is not a usable petstore-mock state file: ${why}. It was left untouched: fix it, or move it away to start afresh.`);
}

/**
 * The pets created in an earlier run, from `path`; none when the file does not exist yet. A file
 * that is not a state file, or was written for another seed or count, is refused with a
 * `StateFileError` that says why.
 */
async function readStateFile(path: string, origin: StateOrigin): Promise<SavedPets> {
  let text: string;
  try {
    // A regular file within the cap on a file of pets (src/files/read-file.ts).
    text = await readRegularFile(path, MAX_PETS_FILE_BYTES);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { created: [], removed: [], creates: 0 };
    if (error instanceof UnreadableFileError) rejectStateFile(path, error.message);
    throw new StateFileError(`cannot read the state file ${path}: ${messageOf(error)}`);
  }
  let state: JsonValue;
  try {
    state = parseJson(text);
  } catch (error) {
    rejectStateFile(path, jsonFault(error));
  }
  if (!isJsonObject(state) || state.format !== FORMAT) rejectStateFile(path, `it has no "format": "${FORMAT}"`);
  if (!VERSIONS.includes(Number(state.version))) rejectStateFile(path, `its version ${String(state.version)} is not one of ${VERSIONS.join(', ')}`);
  const wanted = originFields(origin);
  if (state.seed !== wanted.seed || state.data !== wanted.data || state.count !== wanted.count) {
    throw new StateFileError(
      `${path} was written with ${describeOrigin(state)}; start with those, or move the file away to start afresh with ${describeOrigin(wanted)}.`,
    );
  }
  return savedPets(path, origin, state);
}

/** The created pets of a state file, each a valid record with a created id, in order; the removed and replaced pets, each a seeded one; the count of creates. */
function savedPets(path: string, origin: StateOrigin, state: JsonObject): SavedPets {
  const { created, removed = [], replaced = [] } = state;
  if (!Array.isArray(created)) rejectStateFile(path, '"created" is not a list of pets');
  const creates = state.creates ?? created.length;
  if (typeof creates !== 'number' || !Number.isSafeInteger(creates) || creates < created.length)
    rejectStateFile(path, `"creates" is not a count of ${created.length} or more`);
  const model = origin.model ?? BUNDLED_MODEL;
  const limit = model.createBodyBytes;
  const record = (pet: JsonValue, at: string): StoredPet => {
    // Checked on a copy: the validators fill in the spec's defaults, and a pet saved without a field comes back without it.
    if (!model.validateRecord(structuredClone(validationView(pet))) || !isStoredPet(pet)) rejectStateFile(path, `${at} is not a valid ${model.name}`);
    // The rules a file of pets (`--data`) is held to: a state file is a file a user or a tool may hand over too.
    const tooLarge = oversizedFault(pet, at, limit);
    if (tooLarge !== undefined) rejectStateFile(path, tooLarge);
    // Only the fields the spec names, as a file of pets is kept: another was answered as it was, 120 arrays deep.
    return keptPet(pet, model);
  };
  let last = 0;
  const pets = created.map((pet, index) => {
    const stored = record(pet, `created[${index}]`);
    const { id } = stored;
    // Version 1 numbers its pets one after another; later versions may skip those removed since.
    let n = last + 1;
    while (state.version !== 1 && n < creates && createdId(origin, n) < BigInt(id)) n++;
    if (BigInt(id) !== createdId(origin, n))
      rejectStateFile(path, `created[${index}] has id ${String(id)}, not ${createdId(origin, last + 1)}${state.version === 1 ? '' : ' or a later created id'}`);
    last = n;
    return stored;
  });
  if (!Array.isArray(removed)) rejectStateFile(path, '"removed" is not a list of ids');
  for (const [index, id] of removed.entries()) {
    if ((typeof id !== 'number' && typeof id !== 'bigint') || !isSeeded(origin, BigInt(id)))
      rejectStateFile(path, `removed[${index}] is not the id of a seeded pet`);
  }
  if (!Array.isArray(replaced)) rejectStateFile(path, '"replaced" is not a list of pets');
  const kept = replaced.map((pet, index) => {
    const stored = record(pet, `replaced[${index}]`);
    if (!isSeeded(origin, BigInt(stored.id)) || removed.includes(stored.id)) rejectStateFile(path, `replaced[${index}] is not a seeded pet still there`);
    return stored;
  });
  const saved = { created: pets, removed: removed as (number | bigint)[], creates, ...(kept.length > 0 ? { replaced: kept } : {}) };
  const bytes = savedBytes(saved);
  if (bytes > SESSION_PETS_BYTES)
    rejectStateFile(
      path,
      `its pets take ${bytes} bytes as a session counts them, more than the ${SESSION_PETS_BYTES} a session holds (SESSION_PETS_BYTES, docs/guarantees.md)`,
    );
  return saved;
}

/**
 * Writes the state to `path` durably: a temporary file beside it, fsync, rename, fsync of the
 * folder, so that a crash leaves either the old file or the new one, never half of one. Saves
 * asked for while a write runs are gathered into the next write, so each caller is answered once
 * a write that holds its change is on disk.
 */
class StateFileWriter {
  /** Set when the lock on the file was lost: another process may be writing it, so no save is made any more. */
  lost: Error | undefined;
  #writing: Promise<void> | undefined;
  #next: Promise<void> | undefined;
  #latest: SavedPets = { created: [], removed: [], creates: 0 };

  constructor(
    readonly path: string,
    readonly origin: StateOrigin,
  ) {}

  /** Resolves once `saved` (or a later state) is on disk. */
  save(saved: SavedPets): Promise<void> {
    this.#latest = saved;
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
    if (this.lost) throw this.lost;
    const { created, removed, creates, replaced = [] } = this.#latest;
    // The lowest version that holds the changes, so that an earlier release reads what it can and refuses what it cannot.
    const origin = { format: FORMAT, ...originFields(this.origin) } as const;
    const state: SavedState =
      replaced.length > 0
        ? { ...origin, version: 3, created, removed, creates, replaced }
        : removed.length === 0 && creates === created.length
          ? { ...origin, version: 1, created }
          : { ...origin, version: 2, created, removed, creates };
    const temporary = temporaryPath(this.path, process.pid);
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

/** Where a save is written before it is renamed over the state file. */
function temporaryPath(target: string, pid: number): string {
  return join(dirname(target), `.${basename(target)}.${pid}.tmp`);
}

/** The file a state path names: the target of a symbolic link (followed even when the target does not exist yet), the path itself otherwise. */
async function targetOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = codeOf(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const link = await lstat(path).catch(() => undefined);
  return link?.isSymbolicLink() ? targetOf(resolve(dirname(path), await readlink(path))) : resolve(path);
}

/**
 * Whether a file or folder may be written: the process may write it, and its mode says it is meant
 * to be written (root may write anything, so the mode is what says a file was made read-only).
 */
async function isWritable(path: string, mode: number): Promise<boolean> {
  return (
    (mode & 0o222) !== 0 &&
    (await access(path, constants.W_OK).then(
      () => true,
      () => false,
    ))
  );
}

/** Refuses, with a `StateFileError` that says what to do, a state path whose file could never be saved. */
async function checkWritable(path: string, target: string): Promise<void> {
  // What the path is comes first: a file of /proc sits in a folder nobody may write, and that is not its fault.
  const kind = await notARegularFile(target);
  if (kind !== undefined)
    throw new StateFileError(
      `--state ${path}: ${target}: ${kind}, and the mock keeps its state in a regular file. Give the path of one, or of a file yet to be made, such as ./pets-state.json.`,
      { exitCode: EXIT.usage },
    );
  const folder = dirname(target);
  const folderStat = await stat(folder).catch(() => undefined);
  const folderProblem =
    folderStat === undefined
      ? 'does not exist'
      : !folderStat.isDirectory()
        ? 'is not a folder'
        : (await isWritable(folder, folderStat.mode))
          ? undefined
          : 'is not writable';
  if (folderProblem !== undefined) {
    throw new StateFileError(`--state ${path}: the folder ${folder} ${folderProblem}. Create it or make it writable, or choose another path.`, {
      exitCode: EXIT.usage,
    });
  }
  const file = await stat(target).catch(() => undefined);
  if (file === undefined) return;
  // A read-only file can be made writable (a folder, a pipe, a device or a file of /proc was refused above).
  if (!(await isWritable(target, file.mode)))
    throw new StateFileError(
      `--state ${path}: ${target} is read-only, and the mock would replace it on the first save. Make it writable (chmod u+w), or choose another path.`,
      { exitCode: EXIT.usage },
    );
}

/** Where the process holding a state file's lock writes its pid, beside the lock folder proper-lockfile makes. */
const pidFileOf = (target: string) => `${target}.lock.pid`;

/**
 * Whether `pid` still runs. A process that was killed but not yet reaped by its parent (a zombie)
 * still exists for `kill(pid, 0)`, yet holds nothing: where /proc shows its state (Linux), a `Z` there
 * says it is gone.
 */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (codeOf(error) !== 'EPERM') return false;
  }
  return !(await isZombie(pid));
}

async function isZombie(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The state is the field after the command name, which stands in parentheses and may itself hold ") ".
  return stat !== undefined && stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
}

async function holderOf(target: string): Promise<number | undefined> {
  const text = await readFile(pidFileOf(target), 'utf8').catch(() => '');
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/**
 * Takes the exclusive lock on `target`. A lock left by a process that no longer runs (killed before it
 * could release it) is taken over at once; proper-lockfile alone would wait until it goes stale.
 */
async function lockStateFile(path: string, target: string, writer: StateFileWriter): Promise<() => Promise<void>> {
  // Loaded with the first state file, not at every start of the CLI, which most keep no state: 7% of its import.
  const { lock } = await import('proper-lockfile');
  const options = {
    realpath: false,
    onCompromised: (error: Error) => {
      writer.lost = new Error(`the lock on ${target} was lost (${error.message}), so another process may be writing it; restart the mock`);
    },
  };
  let release: () => Promise<void>;
  try {
    release = await lock(target, options);
  } catch (error) {
    if (codeOf(error) !== 'ELOCKED') throw new StateFileError(`--state ${path}: cannot lock ${target}: ${messageOf(error)}.`);
    const holder = await holderOf(target);
    if (holder === undefined || (await isAlive(holder))) {
      throw new StateFileError(
        `--state ${path}: ${target} is in use by another petstore-mock (${holder === undefined ? 'pid not known yet' : `pid ${holder}`}). Stop that one, or give this one another --state file.`,
      );
    }
    await rm(`${target}.lock`, { recursive: true, force: true });
    release = await lock(target, options).catch(() => {
      throw new StateFileError(
        `--state ${path}: ${target} was taken over by another petstore-mock as this one started. Stop that one, or give this one another --state file.`,
      );
    });
  }
  await writeFile(pidFileOf(target), `${process.pid}\n`);
  return async () => {
    await unlink(pidFileOf(target)).catch(() => {});
    await release().catch(() => {});
  };
}

/** Removes the temporary files of saves that a killed process never renamed into place. */
async function removeLeftovers(target: string): Promise<void> {
  const prefix = `.${basename(target)}.`;
  const names = await readdir(dirname(target));
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length)))
      .map((name) => rm(join(dirname(target), name), { force: true })),
  );
}

/** A state file opened for one mock: what it held, the writer of later saves, and the release of its lock. */
export interface OpenStateFile {
  readonly saved: SavedPets;
  readonly writer: StateFileWriter;
  /** Releases the lock; the mock saves nothing after it. */
  close(): Promise<void>;
}

/**
 * Opens `path` as this process's state file: checks that saves can work (the folder exists and is
 * writable, the file is not read-only), takes an exclusive lock so that no second mock writes it, removes
 * leftovers of killed saves, and reads the pets created in earlier runs. A symbolic link is written through
 * to its target. Every refusal is a `StateFileError` that says what to do.
 */
export async function openStateFile(path: string, origin: StateOrigin): Promise<OpenStateFile> {
  const target = await targetOf(path);
  await checkWritable(path, target);
  const writer = new StateFileWriter(target, origin);
  const release = await lockStateFile(path, target, writer);
  try {
    await removeLeftovers(target);
    const saved = await readStateFile(target, origin);
    return { saved, writer, close: release };
  } catch (error) {
    await release();
    throw error;
  }
}
