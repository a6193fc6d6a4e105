/**
 * One session's journal in memory: the last `size` records, kept in columns (an array per field, the
 * numbers in typed arrays) rather than as an object per request. A record the ring holds outlives many
 * of the garbage collector's young-generation passes, and each pass copies what survives: columns
 * leave it only the request's own strings to copy (its target, mostly), not an object of sixteen
 * fields (`npm run bench`: an object per record cost about 1 µs of CPU per request more than columns).
 *
 * Bounded in bytes as well as in records: a ring holds at most `JOURNAL_SESSION_BYTES`, and all the
 * rings of a journal `JOURNAL_TOTAL_BYTES`, so that requests with long targets or headers cannot make
 * `size` records a large memory. A ring's columns grow as its records come, so a session that sent one
 * request costs one record's room, not `size` of them.
 */
import type { JournalRecord, JournalRule } from './journal.js';

/** Every rule, by the number a ring keeps of it. */
const RULES: readonly JournalRule[] = [
  'route',
  'auth',
  'session',
  'prefer',
  'removed',
  'validation',
  'session-cap',
  'operation',
  'self-check',
  'store',
  'error',
  'fault',
  'forwarded',
];
const RULE_NUMBERS: ReadonlyMap<JournalRule, number> = new Map(RULES.map((rule, i) => [rule, i]));

/**
 * The most a session's journal holds, in bytes: its oldest records go, beyond `journalSize` of them or
 * beyond this. 500 requests of 4 KiB each (a body at `--journal-body`'s default) fit.
 */
export const JOURNAL_SESSION_BYTES = 4 * 1024 * 1024;
/**
 * The most the journal of a mock (or of a replica) holds, in bytes, every session's together: past it,
 * the named sessions written least recently lose their journal, as they do past `--max-sessions` rings.
 */
export const JOURNAL_TOTAL_BYTES = 32 * 1024 * 1024;
/** What a record costs besides its strings: its numbers and its slot in each column. */
const RECORD_BYTES = 128;
/** The records a new ring has room for; it doubles its room, up to `size`, as records come. */
const FIRST_ROOM = 8;

/**
 * Every string a record keeps, each in a column of its own, the columns by their place here. `push`
 * reads each field by its name, in this order (`textsOf`): a loop over the names made every read and
 * write a megamorphic keyed access, ten of each on every request.
 */
const TEXT_FIELDS = ['method', 'target', 'contentType', 'accept', 'prefer', 'sessionHeader', 'authorization', 'body', 'operation', 'keyLabel'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
/** Each text field's column, by its name. */
const COLUMN = Object.fromEntries(TEXT_FIELDS.map((field, i) => [field, i])) as Readonly<Record<TextField, number>>;

/** A character JSON writes in more than one byte: escaped (`"`, `\\`, a control character) or beyond ASCII. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const WIDE_IN_JSON = /[\u0000-\u001f"\\\u0080-\uffff]/;

/**
 * The bytes `text` is counted as: the greater of its memory (2 a character: V8 keeps a string in 1 or
 * 2 bytes a character) and its bytes in a JSON answer, where a control character is written as a
 * 6-byte escape (`\u0001`), `"` and `\` as 2, a character beyond ASCII as up to 3 bytes of UTF-8 and a
 * lone surrogate as a 6-byte escape. So a ring bounds what its records cost to keep and to send alike:
 * 4 MiB of control characters once made a 12 MB answer.
 */
export function textBytes(text: string): number {
  if (!WIDE_IN_JSON.test(text)) return 2 * text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0xd800 && code < 0xe000)) bytes += 6;
    else if (code === 0x22 || code === 0x5c) bytes += 2;
    else bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
  }
  return Math.max(2 * text.length, bytes);
}

/** The columns of a ring with room for `room` records. */
class Columns {
  readonly ids: Float64Array;
  readonly times: Float64Array;
  readonly latencies: Float64Array;
  readonly statuses: Uint16Array;
  /** The rule's number, and 128 when the body was cut. */
  readonly flags: Uint8Array;
  readonly bytes: Float64Array;
  /** A column per text field, in the order of `TEXT_FIELDS`. */
  readonly texts: (string | undefined)[][];

  constructor(readonly room: number) {
    this.ids = new Float64Array(room);
    this.times = new Float64Array(room);
    this.latencies = new Float64Array(room);
    this.statuses = new Uint16Array(room);
    this.flags = new Uint8Array(room);
    this.bytes = new Float64Array(room);
    this.texts = TEXT_FIELDS.map(() => new Array<string | undefined>(room).fill(undefined));
  }

  /** Copies the slot `from` of `other` into the slot `to`. */
  copy(other: Columns, from: number, to: number): void {
    this.ids[to] = other.ids[from] ?? 0;
    this.times[to] = other.times[from] ?? 0;
    this.latencies[to] = other.latencies[from] ?? 0;
    this.statuses[to] = other.statuses[from] ?? 0;
    this.flags[to] = other.flags[from] ?? 0;
    this.bytes[to] = other.bytes[from] ?? 0;
    for (let field = 0; field < TEXT_FIELDS.length; field++) (this.texts[field] as (string | undefined)[])[to] = other.texts[field]?.[from];
  }

  /** Lets the strings of slot `at` go. */
  empty(at: number): void {
    const { texts } = this;
    for (let field = 0; field < texts.length; field++) (texts[field] as (string | undefined)[])[at] = undefined;
    this.bytes[at] = 0;
  }

  /** The text of field `field` in slot `at`. */
  text(field: TextField, at: number): string | undefined {
    return this.texts[COLUMN[field]]?.[at];
  }
}

/** A record's strings in the order of `TEXT_FIELDS`, each read by its name. */
function textsOf(record: JournalRecord): readonly (string | undefined)[] {
  return [
    record.method,
    record.target,
    record.contentType,
    record.accept,
    record.prefer,
    record.sessionHeader,
    record.authorization,
    record.body,
    record.operation,
    record.keyLabel,
  ];
}

/**
 * The ring of one session's records, with their ids: `push` overwrites the oldest once it holds `size`
 * records, and drops the oldest while they pass `maxBytes`. A record pushed with id 0 waits for one
 * (`number`): the cluster's journal numbers only when it is read.
 * @example
 * const ring = new RecordRing('default', 500);
 * ring.push(record, 1);
 * ring.records(); // [{ id: 1, record }], oldest first
 */
export class RecordRing {
  readonly #session: string;
  readonly #size: number;
  readonly #maxBytes: number;
  #columns: Columns;
  /** The slot the next record goes to. */
  #next = 0;
  #count = 0;
  #bytes = 0;
  /** The bytes of each string of the record pushed last, by its field's place in `push` (`#keep`). */
  readonly #lastBytes = new Float64Array(TEXT_FIELDS.length);

  constructor(session: string, size: number, maxBytes = JOURNAL_SESSION_BYTES) {
    this.#session = session;
    this.#size = size;
    this.#maxBytes = maxBytes;
    this.#columns = new Columns(Math.min(size, FIRST_ROOM));
  }

  /** The bytes its records are counted as (`#keep`, and `RECORD_BYTES` each). */
  get bytes(): number {
    return this.#bytes;
  }

  push(record: JournalRecord, id: number): void {
    if (this.#count === this.#columns.room && this.#columns.room < this.#size) this.#grow();
    const room = this.#columns.room;
    const at = this.#next;
    if (this.#count === room) this.#dropOldest();
    const columns = this.#columns;
    const before = (at - 1 + room) % room;
    let bytes = RECORD_BYTES;
    const texts = textsOf(record);
    for (let field = 0; field < texts.length; field++) bytes += this.#keep(columns.texts[field] as (string | undefined)[], field, at, before, texts[field]);
    columns.ids[at] = id;
    columns.times[at] = record.time;
    columns.latencies[at] = record.latencyMs;
    columns.statuses[at] = record.status;
    columns.flags[at] = (RULE_NUMBERS.get(record.rule) ?? 0) | (record.bodyTruncated ? 128 : 0);
    columns.bytes[at] = bytes;
    this.#next = (at + 1) % room;
    this.#count++;
    this.#bytes += bytes;
    // The record just pushed stays, even alone past the bound: one request is never more than 1 MiB and 16 KiB of headers.
    while (this.#bytes > this.#maxBytes && this.#count > 1) this.#dropOldest();
  }

  /**
   * Keeps `value` in slot `at` of `column` and returns the bytes it is counted as (`textBytes`). A value
   * equal to the one the record before holds (`before`, pushed last) is kept as that string and counted
   * as it was (`#lastBytes`, by the field's place): a client that sends the same target or header
   * again and again (a poller, a load test) leaves the ring one string, each request's own copy dies
   * young, and no string is measured twice.
   */
  #keep(column: (string | undefined)[], field: number, at: number, before: number, value: string | undefined): number {
    const previous = column[before];
    if (value !== undefined && previous === value) {
      column[at] = previous;
      return this.#lastBytes[field] ?? 0;
    }
    column[at] = value;
    const bytes = value === undefined ? 0 : textBytes(value);
    this.#lastBytes[field] = bytes;
    return bytes;
  }

  /** The records with their ids, oldest first, those with an id past `since` only. */
  records(since = 0): { readonly id: number; readonly record: JournalRecord }[] {
    const found: { id: number; record: JournalRecord }[] = [];
    const { room } = this.#columns;
    const start = this.#start();
    for (let i = 0; i < this.#count; i++) {
      const at = (start + i) % room;
      const id = this.#columns.ids[at] ?? 0;
      if (id > since) found.push({ id, record: this.#recordAt(at) });
    }
    return found;
  }

  /** How many of the newest records have no id yet (pushed with id 0, numbered later by `number`). */
  unnumbered(): number {
    const { room, ids } = this.#columns;
    let count = 0;
    while (count < this.#count && ids[(this.#next - 1 - count + 2 * room) % room] === 0) count++;
    return count;
  }

  /**
   * Gives the oldest `count` records without an id the ids `first`, `first + 1`... Records pushed
   * since `count` was taken stay without one; records overwritten meanwhile leave theirs to the next.
   */
  number(first: number, count: number): void {
    const waiting = this.unnumbered();
    const { room, ids } = this.#columns;
    for (let i = 0; i < Math.min(count, waiting); i++) ids[(this.#next - waiting + i + 2 * room) % room] = first + i;
  }

  /** The greatest id the ring holds, 0 for none. */
  get last(): number {
    const { room, ids } = this.#columns;
    return this.#count === 0 ? 0 : (ids[(this.#next - 1 + room) % room] ?? 0);
  }

  #start(): number {
    const { room } = this.#columns;
    return (this.#next - this.#count + room) % room;
  }

  /** Forgets the oldest record, letting its strings go. */
  #dropOldest(): void {
    const at = this.#start();
    this.#bytes -= this.#columns.bytes[at] ?? 0;
    this.#columns.empty(at);
    this.#count--;
  }

  /** Doubles the room, up to `size`, the records kept in order from the first slot. */
  #grow(): void {
    const old = this.#columns;
    const grown = new Columns(Math.min(this.#size, old.room * 2));
    const start = this.#start();
    for (let i = 0; i < this.#count; i++) grown.copy(old, (start + i) % old.room, i);
    this.#columns = grown;
    this.#next = this.#count % grown.room;
  }

  // `at` is a slot the ring has written, under its room: the `?? 0` and `?? ''` below are never taken, they only
  // say so to `noUncheckedIndexedAccess`.
  #recordAt(at: number): JournalRecord {
    const columns = this.#columns;
    const { flags, times, statuses, latencies } = columns;
    const flag = flags[at] ?? 0;
    return {
      time: times[at] ?? 0,
      session: this.#session,
      method: columns.text('method', at) ?? '',
      target: columns.text('target', at) ?? '',
      contentType: columns.text('contentType', at),
      accept: columns.text('accept', at),
      prefer: columns.text('prefer', at),
      sessionHeader: columns.text('sessionHeader', at),
      authorization: columns.text('authorization', at),
      body: columns.text('body', at),
      bodyTruncated: flag >= 128,
      status: statuses[at] ?? 0,
      operation: columns.text('operation', at),
      rule: RULES[flag & 127] ?? 'error',
      latencyMs: latencies[at] ?? 0,
      keyLabel: columns.text('keyLabel', at),
    };
  }
}

/** The bounds of a journal's rings: records per session, named sessions, bytes per session and in all. */
export interface RingBounds {
  /** Records per session (`journalSize`). */
  readonly size: number;
  /** Named sessions with a ring (the default session's is kept besides). */
  readonly maxRings: number;
  /** Default `JOURNAL_SESSION_BYTES`. */
  readonly sessionBytes?: number;
  /** Default `JOURNAL_TOTAL_BYTES`. */
  readonly totalBytes?: number;
}

/**
 * The rings of a journal by session: the default session's and at most `maxRings` named ones, holding
 * at most `totalBytes` together. A new one takes the place of the named session written least recently,
 * and so do the rings written least recently when they pass the bytes, so that requests naming ever new
 * sessions, or sending ever longer targets, cannot grow the memory.
 * @example
 * const rings = new JournalRings({ size: 500, maxRings: 100 });
 * rings.push(record, 1);
 * rings.get('alice')?.records();
 */
export class JournalRings {
  readonly #rings = new Map<string, RecordRing>();
  readonly #size: number;
  readonly #maxRings: number;
  readonly #sessionBytes: number;
  readonly #totalBytes: number;
  /** What every ring holds but the last one written: the last one's own count changes with each push. */
  #othersBytes = 0;
  #lastRing: RecordRing | undefined;
  #lastSession: string | undefined;

  constructor(bounds: RingBounds) {
    this.#size = bounds.size;
    this.#maxRings = Math.max(1, bounds.maxRings);
    this.#sessionBytes = bounds.sessionBytes ?? JOURNAL_SESSION_BYTES;
    this.#totalBytes = bounds.totalBytes ?? JOURNAL_TOTAL_BYTES;
  }

  get(session: string): RecordRing | undefined {
    return this.#rings.get(session);
  }

  /** The sessions that have a ring. */
  names(): IterableIterator<string> {
    return this.#rings.keys();
  }

  /** The bytes every ring holds together. */
  get bytes(): number {
    return this.#othersBytes + (this.#lastRing?.bytes ?? 0);
  }

  /** Forgets one session's ring, or every one. */
  clear(session?: string): void {
    if (session === undefined) this.#rings.clear();
    else this.#rings.delete(session);
    this.#lastRing = undefined;
    this.#lastSession = undefined;
    this.#othersBytes = this.#sum();
  }

  /** Keeps `record` in its session's ring, then drops the rings written least recently while all of them pass `totalBytes`. */
  push(record: JournalRecord, id: number): void {
    this.#ringOf(record.session).push(record, id);
    if (this.bytes > this.#totalBytes) this.#dropWhileOver();
  }

  /** The session's ring, made (and moved last) when it is not the one written last: most requests name the same session as the one before. */
  #ringOf(session: string): RecordRing {
    if (session === this.#lastSession && this.#lastRing) return this.#lastRing;
    // While no ring is the last one written, `#othersBytes` counts them all.
    this.#othersBytes += this.#lastRing?.bytes ?? 0;
    this.#lastRing = undefined;
    this.#lastSession = undefined;
    let ring = this.#rings.get(session);
    if (ring) this.#rings.delete(session);
    else {
      ring = new RecordRing(session, this.#size, this.#sessionBytes);
      const named = this.#rings.size - (this.#rings.has('default') ? 1 : 0);
      if (session !== 'default' && named >= this.#maxRings) this.#dropOldestNamed();
    }
    this.#othersBytes -= ring.bytes;
    this.#rings.set(session, ring);
    this.#lastSession = session;
    this.#lastRing = ring;
    return ring;
  }

  /** Drops the ring of the named session written least recently, not the last one written; the default session's stays. Whether one was. */
  #dropOldestNamed(): boolean {
    for (const [name, ring] of this.#rings) {
      if (name === 'default' || ring === this.#lastRing) continue;
      this.#rings.delete(name);
      this.#othersBytes -= ring.bytes;
      return true;
    }
    return false;
  }

  /** Drops named rings, least recently written first, but the last one written, while the rings pass `totalBytes`. */
  #dropWhileOver(): void {
    while (this.bytes > this.#totalBytes && this.#dropOldestNamed());
  }

  #sum(): number {
    let bytes = 0;
    for (const ring of this.#rings.values()) bytes += ring.bytes;
    return bytes;
  }
}
