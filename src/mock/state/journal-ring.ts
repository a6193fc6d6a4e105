/**
 * One session's journal in memory: the last `size` records, kept in columns (an array per field, the
 * numbers in typed arrays) rather than as an object per request. A record the ring holds outlives many
 * of the garbage collector's young-generation passes, and each pass copies what survives: columns
 * leave it only the request's own strings to copy (its target, mostly), not an object of sixteen
 * fields (`npm run bench`: an object per record cost about 1 µs of CPU per request more than columns).
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

/** The strings of a record, each in a column of its own. */
type TextField = 'method' | 'target' | 'contentType' | 'accept' | 'prefer' | 'sessionHeader' | 'authorization' | 'body' | 'operation' | 'keyLabel';

/**
 * `value`, or the equal string the record before holds: a client that sends the same target or header
 * again and again (a poller, a load test) then leaves the ring one string, and each request's own
 * copy dies young.
 */
function same(column: readonly (string | undefined)[], before: number, value: string | undefined): string | undefined {
  const previous = column[before];
  return previous === value ? previous : value;
}

/**
 * The ring of one session's records, with their ids: `push` overwrites the oldest once full. A record
 * pushed with id 0 waits for one (`number`): the cluster's journal numbers only when it is read.
 * @example
 * const ring = new RecordRing('default', 500);
 * ring.push(record, 1);
 * ring.records(); // [{ id: 1, record }], oldest first
 */
export class RecordRing {
  readonly #session: string;
  readonly #size: number;
  readonly #ids: Float64Array;
  readonly #times: Float64Array;
  readonly #latencies: Float64Array;
  readonly #statuses: Uint16Array;
  /** The rule's number, and 128 when the body was cut. */
  readonly #flags: Uint8Array;
  readonly #texts: Record<TextField, (string | undefined)[]>;
  #next = 0;
  #count = 0;

  constructor(session: string, size: number) {
    this.#session = session;
    this.#size = size;
    this.#ids = new Float64Array(size);
    this.#times = new Float64Array(size);
    this.#latencies = new Float64Array(size);
    this.#statuses = new Uint16Array(size);
    this.#flags = new Uint8Array(size);
    const column = () => new Array<string | undefined>(size).fill(undefined);
    this.#texts = {
      method: column(),
      target: column(),
      contentType: column(),
      accept: column(),
      prefer: column(),
      sessionHeader: column(),
      authorization: column(),
      body: column(),
      operation: column(),
      keyLabel: column(),
    };
  }

  push(record: JournalRecord, id: number): void {
    const at = this.#next;
    this.#ids[at] = id;
    this.#times[at] = record.time;
    this.#latencies[at] = record.latencyMs;
    this.#statuses[at] = record.status;
    this.#flags[at] = (RULE_NUMBERS.get(record.rule) ?? 0) | (record.bodyTruncated ? 128 : 0);
    const texts = this.#texts;
    const before = (at - 1 + this.#size) % this.#size;
    texts.method[at] = record.method;
    texts.target[at] = same(texts.target, before, record.target);
    texts.contentType[at] = same(texts.contentType, before, record.contentType);
    texts.accept[at] = same(texts.accept, before, record.accept);
    texts.prefer[at] = record.prefer;
    texts.sessionHeader[at] = record.sessionHeader;
    texts.authorization[at] = same(texts.authorization, before, record.authorization);
    texts.body[at] = record.body;
    texts.operation[at] = record.operation;
    texts.keyLabel[at] = record.keyLabel;
    this.#next = (at + 1) % this.#size;
    if (this.#count < this.#size) this.#count++;
  }

  /** The records with their ids, oldest first, those with an id past `since` only. */
  records(since = 0): { readonly id: number; readonly record: JournalRecord }[] {
    const found: { id: number; record: JournalRecord }[] = [];
    const start = (this.#next - this.#count + this.#size) % this.#size;
    for (let i = 0; i < this.#count; i++) {
      const at = (start + i) % this.#size;
      const id = this.#ids[at] ?? 0;
      if (id > since) found.push({ id, record: this.#recordAt(at) });
    }
    return found;
  }

  /** How many of the newest records have no id yet (pushed with id 0, numbered later by `number`). */
  unnumbered(): number {
    let count = 0;
    while (count < this.#count && this.#ids[(this.#next - 1 - count + 2 * this.#size) % this.#size] === 0) count++;
    return count;
  }

  /**
   * Gives the oldest `count` records without an id the ids `first`, `first + 1`... Records pushed
   * since `count` was taken stay without one; records overwritten meanwhile leave theirs to the next.
   */
  number(first: number, count: number): void {
    const waiting = this.unnumbered();
    for (let i = 0; i < Math.min(count, waiting); i++) this.#ids[(this.#next - waiting + i + 2 * this.#size) % this.#size] = first + i;
  }

  /** The greatest id the ring holds, 0 for none. */
  get last(): number {
    return this.#count === 0 ? 0 : (this.#ids[(this.#next - 1 + this.#size) % this.#size] ?? 0);
  }

  // `at` is a slot the ring has written, under its size: the `?? 0` and `?? ''` below are never taken, they only
  // say so to `noUncheckedIndexedAccess`.
  #recordAt(at: number): JournalRecord {
    const flags = this.#flags[at] ?? 0;
    const texts = this.#texts;
    return {
      time: this.#times[at] ?? 0,
      session: this.#session,
      method: texts.method[at] ?? '',
      target: texts.target[at] ?? '',
      contentType: texts.contentType[at],
      accept: texts.accept[at],
      prefer: texts.prefer[at],
      sessionHeader: texts.sessionHeader[at],
      authorization: texts.authorization[at],
      body: texts.body[at],
      bodyTruncated: flags >= 128,
      status: this.#statuses[at] ?? 0,
      operation: texts.operation[at],
      rule: RULES[flags & 127] ?? 'error',
      latencyMs: this.#latencies[at] ?? 0,
      keyLabel: texts.keyLabel[at],
    };
  }
}

/**
 * The rings of a journal by session: the default session's and at most `maxRings` named ones. A new one
 * then takes the place of the named session written least recently, so that requests naming ever new
 * sessions cannot grow the memory.
 * @example
 * const rings = new JournalRings(500, 100);
 * rings.ringOf('alice').push(record, 1);
 * rings.get('alice')?.records();
 */
export class JournalRings {
  readonly #rings = new Map<string, RecordRing>();
  readonly #size: number;
  readonly #maxRings: number;
  #lastRing: RecordRing | undefined;
  #lastSession: string | undefined;

  constructor(size: number, maxRings: number) {
    this.#size = size;
    this.#maxRings = Math.max(1, maxRings);
  }

  get(session: string): RecordRing | undefined {
    return this.#rings.get(session);
  }

  /** Forgets one session's ring, or every one. */
  clear(session?: string): void {
    if (session === undefined) this.#rings.clear();
    else this.#rings.delete(session);
    this.#lastRing = undefined;
    this.#lastSession = undefined;
  }

  /** The session's ring, made (and moved last) when it is not the one written last: most requests name the same session as the one before. */
  ringOf(session: string): RecordRing {
    if (session === this.#lastSession && this.#lastRing) return this.#lastRing;
    let ring = this.#rings.get(session);
    if (ring) this.#rings.delete(session);
    else {
      ring = new RecordRing(session, this.#size);
      const named = this.#rings.size - (this.#rings.has('default') ? 1 : 0);
      if (session !== 'default' && named >= this.#maxRings) this.#dropOldestNamed();
    }
    this.#rings.set(session, ring);
    this.#lastSession = session;
    this.#lastRing = ring;
    return ring;
  }

  /** Drops the ring of the named session written least recently; the default session's stays. */
  #dropOldestNamed(): void {
    for (const name of this.#rings.keys()) {
      if (name === 'default') continue;
      this.#rings.delete(name);
      return;
    }
  }
}
