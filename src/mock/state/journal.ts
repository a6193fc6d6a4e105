/**
 * The request journal: what the mock received and how it answered, a bounded ring of entries per
 * session. The pipeline records each request as it is answered, cheaply: references and small values
 * (`JournalRecord`); a record becomes the published `JournalEntry` (key hidden, body capped) only when
 * someone reads the journal, through the `format` the mock gives. The shared (Redis) journal, which
 * every replica writes, is in redis/redis-journal.ts.
 */
import { ANSWER_BYTES } from '../../bounds/budget.js';
import type { Pending } from '../core/pending.js';
import { JournalRings, type RecordRing, type RingBounds } from './journal-ring.js';
import { DEFAULT_SESSION } from './sessions.js';

/**
 * Which rule decided the response: `route` (404, 405, a preflight), `auth` (401), `session` (400 of
 * `X-Mock-Session`), `prefer` (400 of a `Prefer`, or a response it forced), `removed` (410 past the
 * sunset), `validation` (400, 413, 415 of the path, query or body), `session-cap` (429 past
 * `--max-sessions`), `operation` (the operation's own response), `self-check` (500 of `--self-check`),
 * `store` (503: Redis away), `error` (500: a fault of the mock), `fault` (a network fault, asked for
 * with `Prefer: fault=` or drawn by `--faults`: the connection broken, or the response cut or trickled),
 * `forwarded` (under `--proxy`: the deployment's response, or the proxy's 503 when it gave none).
 */
export type JournalRule =
  | 'route'
  | 'auth'
  | 'session'
  | 'prefer'
  | 'removed'
  | 'validation'
  | 'session-cap'
  | 'operation'
  | 'self-check'
  | 'store'
  | 'error'
  | 'fault'
  | 'forwarded';

/**
 * One request as the journal shows it, the JSON of `GET /__mock/requests`. Stable: fields are only
 * ever added. A key never appears in it, in any encoding the package's redactor knows (src/redact/).
 * @example
 * const entry: JournalEntry = {
 *   id: 12, time: '2026-11-25T10:00:00.000Z', session: 'default', method: 'POST', path: '/v1/pets', query: '',
 *   headers: { authorization: 'Bearer ***', 'content-type': 'application/json' }, body: '{"name":"Rex"}',
 *   status: 201, operation: 'createPet', rule: 'operation', latencyMs: 0.4,
 * };
 */
export interface JournalEntry {
  /** Increasing across the mock (across every replica with Redis): poll with `since=<the last id seen>`. */
  readonly id: number;
  /** When the request reached the mock, ISO 8601 by the mock's clock (the real one unless `--now` or `now` moved it), not a session's. */
  readonly time: string;
  /** The session it named (`X-Mock-Session`), `default` without one or without the key; a key in it as `***`. */
  readonly session: string;
  readonly method: string;
  /** The path as sent (still percent-encoded), a key in it shown as `***`. */
  readonly path: string;
  /** The query as sent, without `?` (`''` for none), a key in it shown as `***`. */
  readonly query: string;
  /** The headers that decide a response, by lower-case name, those sent only: `authorization` as `<scheme> ***`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as the mock read it (only operations with a body read one), first `bodyLimit` characters, a key in it shown as `***`. */
  readonly body?: string;
  /** Present, and true, when `body` was cut at the limit. */
  readonly bodyTruncated?: true;
  readonly status: number;
  /** The operation the method and path reach (`createPet`), `null` for none. */
  readonly operation: string | null;
  readonly rule: JournalRule;
  /** Milliseconds the mock took to make the response, a delay included; 0 for one made at once, without waiting for a body, a delay or Redis. */
  readonly latencyMs: number;
  /** The label of the key the request held, when that key has one (`--api-key ci:...`). */
  readonly key?: string;
}

/** What the pipeline keeps of one request: references and numbers, formatted into a `JournalEntry` when read. */
export interface JournalRecord {
  /** Epoch milliseconds when it arrived. */
  readonly time: number;
  readonly session: string;
  readonly method: string;
  /** The request-target as sent. */
  readonly target: string;
  readonly contentType: string | undefined;
  readonly accept: string | undefined;
  readonly prefer: string | undefined;
  readonly sessionHeader: string | undefined;
  readonly authorization: string | undefined;
  readonly body: string | undefined;
  /** Whether `body` was cut at the limit (its keys hidden as it was). */
  readonly bodyTruncated: boolean;
  readonly status: number;
  readonly operation: string | undefined;
  readonly rule: JournalRule;
  readonly latencyMs: number;
  readonly keyLabel: string | undefined;
}

/**
 * The session a request's record is filed under: the one it named once it passed the key check, else
 * the default session (a 401, a request answered before its key was read), so that a request without
 * a key opens no journal of its own, whatever `X-Mock-Session` it names.
 * @example
 * journalSession(rule !== 'auth', sessionName(header)); // 'default' for a 401
 */
export function journalSession(passedKeyCheck: boolean, named: string | undefined): string {
  return passedKeyCheck && named !== undefined ? named : DEFAULT_SESSION;
}

/** A record as its published entry, with its id: the key hidden, the body capped. */
export type FormatRecord = (record: JournalRecord, id: number) => JournalEntry;

/**
 * Which entries to list: every field optional, all given must hold.
 * @example
 * const filter: JournalFilter = { method: 'POST', path: '/v1/pets*', status: '2xx', since: 12 };
 */
export interface JournalFilter {
  /** The session's journal; default: `default`. */
  readonly session?: string;
  readonly method?: string;
  /** The path, `*` matching any run of characters: `/v1/pets/*`. */
  readonly path?: string;
  /** A status (`404`, `'404'`) or a class of them (`'4xx'`). */
  readonly status?: number | string;
  /** An operation id: `getPet`. */
  readonly operation?: string;
  /** Only entries with a greater id. */
  readonly since?: number;
}

/**
 * One session's journal as listed: its entries oldest first, and the greatest id the mock has given so
 * far (0 for none): the next poll's `since`. `truncated` is there, and true, when older entries that
 * match were left out to keep the answer within `JOURNAL_PAGE_BYTES`.
 */
export interface JournalPage {
  readonly session: string;
  readonly entries: readonly JournalEntry[];
  readonly last: number;
  readonly truncated?: true;
}

/**
 * The most one read of the journal answers, in bytes of its entries' JSON: the newest entries that fit.
 * A session's ring is bounded in these bytes too (`JOURNAL_SESSION_BYTES`), so a lone mock's answer is
 * cut only when hiding keys lengthened it; a cluster's, which gathers every replica's ring, may be. It
 * stays within what the package reads of an answer (`MAX_RESPONSE_BYTES`, 5 MiB: `expectRequests`).
 */
export const JOURNAL_PAGE_BYTES = ANSWER_BYTES;

/** Where the journal lives: this process's memory, or Redis. */
export interface JournalKeeper {
  /** Keeps a request; never waits, never throws. */
  record(record: JournalRecord): void;
  /** The entries of `filter.session` (default: `default`) that `filter` matches, oldest first. */
  list(filter: JournalFilter): Pending<JournalPage>;
  /** Forgets one session's entries, or every session's. */
  clear(session?: string): Pending<void>;
}

/**
 * A test of a path against a pattern where `*` is any run of characters, everything else itself. Not a
 * RegExp: `*` runs as `.*` backtrack, and `?path=****...x` from any client would hold the process for
 * minutes. Each literal between stars is found leftmost in turn (which is enough when `*` is the only
 * wildcard), so a test takes one pass over the path per literal.
 */
function pathPattern(pattern: string): (path: string) => boolean {
  const parts = pattern.split('*');
  const first = parts[0] ?? '';
  if (parts.length === 1) return (path) => path === first;
  const last = parts[parts.length - 1] ?? '';
  const middle = parts.slice(1, -1).filter((part) => part !== '');
  return (path) => {
    if (path.length < first.length + last.length || !path.startsWith(first) || !path.endsWith(last)) return false;
    let at = first.length;
    const end = path.length - last.length;
    for (const part of middle) {
      const found = path.indexOf(part, at);
      if (found === -1 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}

/** Whether `status` is the filter's status, or in its class (`4xx`). */
function statusMatches(wanted: number | string, status: number): boolean {
  const text = String(wanted).toLowerCase();
  return /^[1-5]xx$/.test(text) ? Math.floor(status / 100) === Number(text[0]) : Number(text) === status;
}

/**
 * A test of entries against `filter` (its session aside).
 * @example
 * entryFilter({ method: 'post' })(entry); // true for a POST
 */
export function entryFilter(filter: JournalFilter): (entry: JournalEntry) => boolean {
  const method = filter.method?.toUpperCase();
  const path = filter.path === undefined ? undefined : pathPattern(filter.path);
  const { status, operation, since } = filter;
  return (entry) =>
    (method === undefined || entry.method === method) &&
    (path === undefined || path(entry.path)) &&
    (status === undefined || statusMatches(status, entry.status)) &&
    (operation === undefined || entry.operation === operation) &&
    (since === undefined || entry.id > since);
}

/**
 * A test of records against the parts of `filter` a record holds as its entry shows them (the method,
 * the status, the operation): a record they exclude is never formatted, which hides keys in its target
 * and is the dear part of a read. The path is the entry's, keys hidden: `entryFilter` tests it.
 */
function recordFilter(filter: JournalFilter): (record: JournalRecord) => boolean {
  const method = filter.method?.toUpperCase();
  const { status, operation } = filter;
  return (record) =>
    (method === undefined || record.method === method) &&
    (status === undefined || statusMatches(status, record.status)) &&
    (operation === undefined || (record.operation ?? null) === operation);
}

/**
 * A filter given in code (`mock.requests(filter)`), held to the rules of the query's filters
 * (`parseJournalFilter`) and to their types, with its `session`: a `TypeError` naming what is wrong,
 * never a method of a number called (`filter.method?.toUpperCase is not a function`).
 * @example
 * journalFilterOf({ method: 'POST', status: '4xx' }); // { method: 'POST', status: '4xx' }
 * journalFilterOf({ status: 'abc' }); // TypeError: requests: status must be a status such as 404, ...
 */
export function journalFilterOf(filter: unknown): JournalFilter {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
    throw new TypeError(
      `requests takes a filter object, such as { method: 'POST', status: '4xx' }, or nothing; got a value of type ${filter === null ? 'null' : typeof filter}`,
    );
  const { session, ...rest } = filter as Record<string, unknown>;
  if (session !== undefined && typeof session !== 'string')
    throw new TypeError(`requests: session must be a session's name, a string; got a value of type ${typeof session}`);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    const numeric = (name === 'status' || name === 'since') && typeof value === 'number' && Number.isInteger(value);
    if (typeof value !== 'string' && !numeric)
      throw new TypeError(
        `requests: ${name} must be a string${name === 'status' || name === 'since' ? ' or a whole number' : ''}; got a value of type ${typeof value}`,
      );
    query.set(name, String(value));
  }
  const parsed = parseJournalFilter(query);
  if ('error' in parsed) throw new TypeError(`requests: ${parsed.error}`);
  return session === undefined ? parsed : { ...parsed, session };
}

/** What is wrong with a filter read from a query (`?method=POST&status=4xx&since=3`), or the filter. */
export function parseJournalFilter(query: URLSearchParams): JournalFilter | { readonly error: string } {
  const known = new Set(['method', 'path', 'status', 'operation', 'since']);
  const unknown = [...query.keys()].find((name) => !known.has(name));
  if (unknown !== undefined) return { error: `${unknown} is not a filter of /__mock/requests; the filters are ${[...known].join(', ')}.` };
  const status = query.get('status');
  if (status !== null && !/^([1-5]\d\d|[1-5]xx)$/i.test(status)) return { error: 'status must be a status such as 404, or a class such as 4xx.' };
  const since = query.get('since');
  if (since !== null && !/^\d{1,15}$/.test(since)) return { error: 'since must be the id of an entry: a whole number, 0 or more.' };
  const filter: Record<string, string | number> = {};
  for (const name of ['method', 'path', 'operation', 'status'] as const) {
    const value = query.get(name);
    if (value !== null) filter[name] = value;
  }
  if (since !== null) filter.since = Number(since);
  return filter;
}

/**
 * The journal of a mock that keeps its state in this process: a ring of `size` records per session
 * (`JournalRings`), numbered as they are recorded.
 * @example
 * const journal = new MemoryJournal({ size: 500, maxRings: 100, format });
 * journal.record(record);
 * journal.list({ method: 'POST' }).entries; // formatted now, not when recorded
 */
export class MemoryJournal implements JournalKeeper {
  readonly #rings: JournalRings;
  readonly #format: FormatRecord;
  #last = 0;

  constructor(options: RingBounds & { readonly format: FormatRecord }) {
    this.#rings = new JournalRings(options);
    this.#format = options.format;
  }

  record(record: JournalRecord): void {
    this.#rings.push(record, ++this.#last);
  }

  list(filter: JournalFilter): JournalPage {
    const session = filter.session ?? 'default';
    return { session, ...newestWithin(newestFormatted(this.#rings.get(session), filter, this.#format)), last: this.#last };
  }

  clear(session?: string): void {
    this.#rings.clear(session);
  }
}

/**
 * The entries of `ring` that `filter` matches, newest first, each formatted only when it is taken: those
 * before `filter.since` never are, so a poller pays for the new ones only, and a page that is full stops
 * the formatting (hiding keys is the dear part of it).
 */
export function* newestFormatted(ring: RecordRing | undefined, filter: JournalFilter, format: FormatRecord): Generator<JournalEntry> {
  const matches = entryFilter(filter);
  const mayMatch = recordFilter(filter);
  const records = ring?.records(filter.since) ?? [];
  for (let i = records.length - 1; i >= 0; i--) {
    const { id, record } = records[i] as (typeof records)[number];
    if (!mayMatch(record)) continue;
    const entry = format(record, id);
    if (matches(entry)) yield entry;
  }
}

// JSON.stringify escapes every control character: what it writes is printable ASCII but for the characters beyond.
const BEYOND_ASCII = /[^ -\x7f]/;

/** The bytes of `entry` in a JSON answer (UTF-8; a surrogate pair counted 6, more than its 4). */
function jsonBytes(entry: JournalEntry): number {
  const text = JSON.stringify(entry);
  if (!BEYOND_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
  }
  return bytes;
}

/**
 * The newest of `newest` (newest first) whose JSON fits in `maxBytes`, oldest first, and whether older
 * ones were left out: the page of a journal read.
 * @example
 * newestWithin(newestFormatted(ring, {}, format)); // { entries: [...] } or { entries: [...], truncated: true }
 */
export function newestWithin(newest: Iterable<JournalEntry>, maxBytes = JOURNAL_PAGE_BYTES): { readonly entries: JournalEntry[]; readonly truncated?: true } {
  const entries: JournalEntry[] = [];
  // The list's brackets, and a comma after each entry.
  let bytes = 2;
  for (const entry of newest) {
    bytes += jsonBytes(entry) + 1;
    if (bytes > maxBytes) return { entries: entries.reverse(), truncated: true };
    entries.push(entry);
  }
  return { entries: entries.reverse() };
}
