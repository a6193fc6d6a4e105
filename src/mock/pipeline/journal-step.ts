/**
 * What the pipeline gives the request journal (src/mock/state/journal.ts): the record of a request,
 * made from what the steps learned, and the one way a record becomes an entry, with keys hidden exactly
 * as the request log hides them (request-log.ts) and the body capped.
 */

import { memoize } from '../core/memo.js';
import type { FormatRecord, JournalKeeper, JournalRecord } from '../state/journal.js';
import { targetRedactor, textRedactor } from './request-log.js';

/** The journal as the pipeline writes it: where records go, and how long a body is kept. */
export interface PipelineJournal {
  readonly keeper: JournalKeeper;
  /** Characters of a body an entry shows. */
  readonly bodyLimit: number;
  /** Hides keys in a body: one too long is cut as it is recorded, its keys hidden first (a key cut in two would show its half). */
  readonly redactBody: (body: string) => string;
  /** The mock's clock (`now`), for when a request arrived: the Node server's reads the real clock at most once a millisecond. */
  readonly now: () => number;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * The first `limit` characters of a long body, as a string of its own: a slice of the body would keep
 * the whole body alive for as long as the record lives.
 */
function cut(body: string, limit: number): string {
  return utf8Decoder.decode(utf8Encoder.encode(body.slice(0, limit)));
}

/**
 * The body a record keeps of one longer than the limit (`isLong`): its keys hidden and cut now. A body
 * within the limit is kept as it is, and formatted when read.
 */
export function longBody(journal: PipelineJournal, body: string): string {
  return cut(journal.redactBody(body), journal.bodyLimit);
}

const BEARER_SHOWN = 'Bearer ***';

/**
 * The `Authorization` header a record keeps: its scheme and `***`, never the credential, whatever the
 * scheme (a Basic one too), so that the ring holds no credential: the one string `Bearer ***` for the
 * usual form. The scheme is checked for keys when read, and counts in the ring's bytes as any header.
 */
export function keptAuthorization(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  if (authorization.startsWith('Bearer ')) return BEARER_SHOWN;
  const space = authorization.indexOf(' ');
  return space === -1 ? '***' : `${authorization.slice(0, space)} ***`;
}

/** `Bearer ***`: the scheme shown (unless it holds a key), never the credential. */
function authorizationShown(value: string, redact: (text: string) => string): string {
  const space = value.indexOf(' ');
  if (space === -1) return '***';
  const scheme = value.slice(0, space);
  return redact(scheme) === scheme ? `${scheme} ***` : '***';
}

/** The headers of a record as an entry shows them, those sent only. */
function headersOf(record: JournalRecord, redact: (text: string) => string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (record.authorization !== undefined) headers.authorization = authorizationShown(record.authorization, redact);
  if (record.contentType !== undefined) headers['content-type'] = redact(record.contentType);
  if (record.accept !== undefined) headers.accept = redact(record.accept);
  if (record.prefer !== undefined) headers.prefer = redact(record.prefer);
  if (record.sessionHeader !== undefined) headers['x-mock-session'] = redact(record.sessionHeader);
  return headers;
}

/**
 * How the journal of a mock that accepts `keys` under `basePath` formats its records.
 * @example
 * const format = journalFormat(['s3cret'], '/v1');
 * format(record, 1).path; // '/v1/pets', a key in it as ***
 */
export function journalFormat(keys: readonly string[], basePath: string): FormatRecord {
  // Targets, session names and header values repeat from request to request (a body seldom does):
  // each is hidden once, not once per entry, which is what a journal written to Redis pays for every request.
  const redactTarget = memoize(targetRedactor(keys, basePath));
  const redactBody = textRedactor(keys);
  const redact = memoize(redactBody);
  return (record, id) => {
    const target = redactTarget(record.target);
    const mark = target.indexOf('?');
    return {
      id,
      time: new Date(record.time).toISOString(),
      // A session's name is a word the client chose; it may be a key too.
      session: redact(record.session),
      method: record.method,
      path: mark === -1 ? target : target.slice(0, mark),
      query: mark === -1 ? '' : target.slice(mark + 1),
      headers: headersOf(record, redact),
      ...(record.body === undefined ? {} : { body: redactBody(record.body) }),
      ...(record.bodyTruncated ? { bodyTruncated: true as const } : {}),
      status: record.status,
      operation: record.operation ?? null,
      rule: record.rule,
      latencyMs: Math.round(record.latencyMs * 10) / 10,
      ...(record.keyLabel === undefined ? {} : { key: record.keyLabel }),
    };
  };
}
