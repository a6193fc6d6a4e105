/**
 * `--proxy URL --record FILE`: what the deployment showed, written so that a later mock serves it
 * offline. FILE holds its pets (every pet a list, a read or a create answered, the latest version of
 * each), a list `--data` reads; beside it, `<name>.profile.json` holds the profile: the one the proxy
 * was given, with what the responses showed of the deployment's choices (list order, ids beyond 2^53,
 * charset, the status of a pet added without one). Only the fields of the spec are kept, and any text
 * holding a key the proxy hides (the mock's, the upstream key) or the client's credential, whatever
 * its scheme (a Basic one's password too), in any encoding, has it replaced by `***`.
 */

import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Budget, type Share } from '../../bounds/budget.js';
import { UsageError } from '../../errors.js';
import { MAX_FILE_BYTES } from '../../files/file-bytes.js';
import { notARegularFile } from '../../files/read-file.js';
import { definedFields } from '../../json/defined-fields.js';
import { isJsonObject, type JsonObject, type JsonValue, stringifyJson } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { operationOfKind } from '../../openapi/resource-model.js';
import { inOrder, LIST_ORDERS, type ListOrder, type ProfileDocument } from '../../profile/profile.js';
import { ordered } from '../profile/drift.js';
import { checkPets } from '../state/pet-data.js';
import type { StoredPet } from '../state/store.js';
import type { Exchange } from './context.js';
import { parsedBody } from './json-body.js';
import { FREE_TEXTS } from './shadow.js';

const BEYOND_DOUBLE = 2n ** 53n;

/** The model's id field, and the list's filter (the profile's `status` order and default). */
const { field: ID } = BUNDLED_MODEL.id;
const FILTER = operationOfKind(BUNDLED_MODEL, 'list')?.filters[0]?.field;

/** A pet as the spec accepts it, read by the model's field names. */
type Kept = Readonly<Record<string, JsonValue | undefined>>;

/**
 * Where the profile of a recording goes: beside the pets, `.profile.json` in place of the extension.
 * @example
 * profilePathOf('staging.json'); // 'staging.profile.json'
 */
function profilePathOf(file: string): string {
  return join(dirname(file), `${basename(file).replace(/\.(json|ya?ml)$/i, '')}.profile.json`);
}

/** Writes `text` to `path` whole or not at all: a temporary file beside it, then a rename. */
async function writeWhole(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const file = await open(temporary, 'w');
  try {
    await file.writeFile(text);
  } finally {
    await file.close();
  }
  await rename(temporary, path);
}

/** The pets a response shows: a page's, or the one pet of a read or a create. */
function shownPets({ kind, upstream, upstreamJson }: Exchange): JsonValue[] {
  if (kind === 'list' && upstream.status === 200 && Array.isArray(upstreamJson)) return upstreamJson;
  if ((kind === 'read' && upstream.status === 200) || (kind === 'create' && upstream.status === 201)) return [upstreamJson ?? null];
  return [];
}

/** The pet the spec accepts, its texts redacted; none for anything else (a contract violation, reported elsewhere). */
function recordedPet(value: JsonValue, redact: (text: string) => string): Kept[] {
  try {
    const [pet]: readonly Kept[] = checkPets([value]).pets;
    return pet ? [{ ...pet, ...Object.fromEntries(FREE_TEXTS.flatMap((name) => (typeof pet[name] === 'string' ? [[name, redact(pet[name])]] : []))) }] : [];
  } catch {
    return [];
  }
}

/** What the responses showed of the deployment's choices, gathered as they come. */
class SeenChoices {
  /** The orders every page of two pets or more fits. */
  #orders: ListOrder[] = [...LIST_ORDERS];
  #pages = 0;
  #beyondDouble = false;
  #charset: 'none' | 'utf-8' | undefined;
  #defaultStatus: NonNullable<StoredPet['status']> | 'omitted' | undefined;

  see(exchange: Exchange, pets: readonly Kept[]): void {
    if (pets.some((pet) => BigInt(String(pet[ID])) > BEYOND_DOUBLE)) this.#beyondDouble = true;
    const type = exchange.upstreamHeader('content-type');
    if (type?.startsWith('application/json')) this.#charset = /charset=utf-8/i.test(type) ? 'utf-8' : 'none';
    if (exchange.kind === 'list' && pets.length >= 2) {
      this.#pages++;
      const page = pets.map((pet) => ordered(BUNDLED_MODEL, FILTER, pet as JsonObject));
      this.#orders = this.#orders.filter((order) => inOrder(order, page));
    }
    if (exchange.kind === 'create' && pets[0] !== undefined && FILTER !== undefined) {
      const sent = parsedBody(exchange.body);
      if (isJsonObject(sent) && sent[FILTER] === undefined) this.#defaultStatus = (pets[0][FILTER] as StoredPet['status']) ?? 'omitted';
    }
  }

  /** The profile given, with what was seen; a list order only when the pages fit exactly one. */
  profile(given: ProfileDocument | undefined): ProfileDocument {
    const [order] = this.#orders;
    return {
      ...(given ?? { version: 1 }),
      ...(this.#pages > 0 && this.#orders.length === 1 && order !== undefined ? { listOrder: order } : {}),
      ...(this.#beyondDouble ? { idsBeyondDouble: true } : {}),
      ...definedFields({ charset: this.#charset, defaultStatus: this.#defaultStatus }),
    };
  }
}

/**
 * The most a recording's file of pets holds, in bytes: what every file the CLIs read may hold. The file
 * is rewritten whole as pets come (so that a relayed answer is on disk), and a deployment paging through
 * ever new pets once grew it to 36 MB, and the proxy with it; past this, new pets are not recorded.
 */
const RECORDING_BYTES = MAX_FILE_BYTES;

/** A pet as the recording keeps it: the line the file holds, and its bytes there. */
interface RecordedPet {
  readonly pet: Kept;
  readonly line: string;
  readonly bytes: number;
}

/**
 * The recording of one proxy: `observe` each exchange; each one that shows a pet rewrites the files,
 * and resolves once they are on disk, so a response relayed means it is recorded. The file holds at
 * most `RECORDING_BYTES`: a pet that would pass it is left out, said once through `onFull`, and the
 * proxy serves on.
 */
export class Recorder {
  readonly #file: string;
  readonly #profile: ProfileDocument | undefined;
  readonly #pets = new Map<string, RecordedPet>();
  readonly #seen = new SeenChoices();
  readonly #onFull: (line: string) => void;
  /** The bytes of the file of pets: its brackets and each pet's line, within `RECORDING_BYTES` (a `Budget` of one owner). */
  readonly #bytes: Share;
  #full = false;
  #writing: Promise<void> = Promise.resolve();

  constructor(file: string, profile: ProfileDocument | undefined, onFull: (line: string) => void = () => {}, maxBytes = RECORDING_BYTES) {
    this.#file = file;
    this.#profile = profile;
    this.#onFull = onFull;
    this.#bytes = new Budget({ totalBytes: maxBytes }).share();
    this.#bytes.adjust(4);
  }

  /** Writes the empty recording, so that a path that cannot be written stops the proxy at start. */
  async start(): Promise<void> {
    // A recording replaces its files whole: what stands at either path must be a regular file (or
    // nothing yet), never a device, a pipe, a folder or a file of /proc that the rename would replace.
    for (const path of [this.#file, profilePathOf(this.#file)]) {
      const kind = await notARegularFile(path);
      if (kind !== undefined)
        throw new UsageError(
          `--record ${this.#file}: ${path}: ${kind}, and a recording is written to regular files. Give the path of one, or of a file yet to be made, such as ./recorded-pets.json.`,
        );
    }
    await this.#write().catch((error: unknown) => {
      throw new UsageError(
        `--record ${this.#file}: cannot write it (${error instanceof Error ? error.message : String(error)}); choose a path in a writable folder.`,
      );
    });
  }

  /** Keeps the pets and choices an exchange shows, and writes them. */
  observe(exchange: Exchange): Promise<void> {
    const pets = shownPets(exchange).flatMap((value) => recordedPet(value, exchange.redact));
    if (pets.length === 0) return this.#writing;
    for (const pet of pets) this.#keep(pet);
    this.#seen.see(exchange, pets);
    this.#writing = this.#writing.catch(() => {}).then(() => this.#write());
    return this.#writing;
  }

  /** Keeps `pet` (in place of the one of its id), unless the file would pass its bytes. */
  #keep(pet: Kept): void {
    const id = String(pet[ID]);
    const line = stringifyJson(pet);
    // Its line, its indent and the comma and line break after it.
    const bytes = Buffer.byteLength(line) + 4;
    if (this.#bytes.take(bytes - (this.#pets.get(id)?.bytes ?? 0)) !== undefined) {
      if (!this.#full)
        this.#onFull(
          `petstore-mock: --record ${this.#file} holds ${this.#bytes.budget.bound.totalBytes} bytes of pets, the most a recording holds (the size of a file the CLIs read); the pets shown from now on are not recorded, and the proxy serves on. Record fewer pages, or start again with a new file.`,
        );
      this.#full = true;
      return;
    }
    this.#pets.set(id, { pet, line, bytes });
  }

  async #write(): Promise<void> {
    const pets = [...this.#pets.values()].sort((a, b) => (BigInt(String(a.pet[ID])) < BigInt(String(b.pet[ID])) ? -1 : 1));
    const list = pets.length === 0 ? '[]\n' : `[\n  ${pets.map((kept) => kept.line).join(',\n  ')}\n]\n`;
    await writeWhole(this.#file, list);
    await writeWhole(profilePathOf(this.#file), `${JSON.stringify(this.#seen.profile(this.#profile), null, 2)}\n`);
  }
}
