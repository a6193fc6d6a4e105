import { vouchedHeaderList, withHeader } from '../../http/header-value.js';
import { NotUtf8Error } from '../../http/read-limited.js';
import { ERROR_CODES, type ErrorCode } from '../../openapi/facts.js';
import type { NetworkFault } from './faults.js';

/**
 * A request as the handler sees it, independent of the host: Node's `http`, MSW, or a `fetch`
 * `Request`. Hosts adapt to this shape instead of building web `Request`s they do not need.
 */
export interface MockRequest {
  /** The method in upper case, as hosts must give it: `GET`. */
  readonly method: string;
  /** The request-target as sent, path and query, still percent-encoded: `/v1/pets?limit=5&status=sold`. */
  readonly target: string;
  /** A header by lower-case name. */
  header(name: string): string | undefined;
  /**
   * The body as UTF-8 text, or `undefined` once it grows past `maxBytes` (the host stops reading then).
   * Bytes that are not UTF-8 reject with `NotUtf8Error` (src/http/read-limited.ts), on every host.
   */
  text(maxBytes: number): Promise<string | undefined>;
  /**
   * When the host received the request (`performance.now()`), if it timed it (0 or absent otherwise):
   * the journal's latency then starts where the host's request log does, and the two agree.
   */
  readonly started?: number;
}

/** A response as the handler makes it; hosts write it out. `body` is JSON text, or empty. */
export interface MockResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** What a host's request log may add after the status: `key=ci session=worker-1`; never a key. */
  readonly logDetail?: string;
  /**
   * The headers as made once for many answers, when they were (`prepareHeaders`): `prepared.record`
   * is then `headers`, and a host may write `prepared.list` as it is, deriving nothing per answer.
   */
  readonly prepared?: PreparedHeaders;
  /**
   * A network fault the host makes instead of writing the response plainly (`Prefer: fault=reset`, `--faults`):
   * the connection reset or closed, garbage, the body cut short or trickled. See src/mock/core/faults.ts.
   */
  readonly fault?: NetworkFault;
}

/**
 * The body a response to `method` carries on the wire: none to a `HEAD`, none with a 204 or a 304
 * (RFC 9110 6.4.1, 9.3.2). Every host writes this, and a network fault breaks or trickles only this.
 */
export function wireBody(method: string, response: MockResponse): string {
  return response.status === 204 || response.status === 304 || method.toUpperCase() === 'HEAD' ? '' : response.body;
}

/**
 * Headers made once and given to many answers, with the list a host writes them from, made once too.
 * @example
 * const NOTICE: PreparedHeaders = prepareHeaders({ deprecation: '@1748736000' });
 */
export interface PreparedHeaders {
  readonly record: Readonly<Record<string, string>>;
  /**
   * `['content-length', 0, name, value, ...]`, the form Node's `writeHead` takes fastest. A host sets
   * the length (index 1) just before it writes: `writeHead` copies the list before it returns.
   */
  readonly list: (string | number)[];
}

/** `record` as headers made once for many answers, frozen, with their list, whose values are made safe once (src/http/header-value.ts). */
export function prepareHeaders(record: Readonly<Record<string, string>>): PreparedHeaders {
  const list: (string | number)[] = ['content-length', 0];
  for (const [name, value] of Object.entries(record)) list.push(name, value);
  return Object.freeze({ record: Object.freeze({ ...record }), list: vouchedHeaderList(list) });
}

/** An answer whose headers are prepared ones: no header is made for it. */
export function preparedResponse(status: number, headers: PreparedHeaders, body: string): MockResponse & { readonly prepared: PreparedHeaders } {
  return { status, headers: headers.record, body, prepared: headers };
}

/**
 * `base` and one header more, for one answer (a create's `Location`): its list is `base`'s with two
 * entries after it, so that a host writes it as it writes prepared headers, deriving none from a record.
 * @example
 * preparedWith(JSON_RESPONSE_HEADERS, 'location', '/v1/pets/51').list.at(-1); // '/v1/pets/51'
 */
export function preparedWith(base: PreparedHeaders, name: string, value: string): PreparedHeaders {
  // Set after the copy, not as a computed key of the literal: V8 defines such a key through a runtime call, on every create.
  const record: Record<string, string> = { ...base.record };
  record[name] = value;
  return { record, list: withHeader(base.list, name, value) };
}

const mergedHeaders = new WeakMap<PreparedHeaders, WeakMap<PreparedHeaders, PreparedHeaders>>();

/**
 * `base` with `extra` over it, prepared once for the pair and kept as long as both live (both are made once, as the mock starts).
 * @example
 * mergePrepared(JSON_RESPONSE_HEADERS, NOTICE).record.deprecation; // '@1748736000'
 */
export function mergePrepared(base: PreparedHeaders, extra: PreparedHeaders): PreparedHeaders {
  let byExtra = mergedHeaders.get(base);
  if (byExtra === undefined) {
    byExtra = new WeakMap();
    mergedHeaders.set(base, byExtra);
  }
  let merged = byExtra.get(extra);
  if (merged === undefined) {
    merged = prepareHeaders({ ...base.record, ...extra.record });
    byExtra.set(extra, merged);
  }
  return merged;
}

export const JSON_CONTENT_TYPE = 'application/json';

/** What lets a browser page on another origin read every answer, and the headers it needs. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Deprecation, Sunset, Link, WWW-Authenticate, Preference-Applied, Retry-After',
};

/** The headers every answer carries, prepared for those that carry no others. */
export const JSON_RESPONSE_HEADERS: PreparedHeaders = prepareHeaders({ 'content-type': JSON_CONTENT_TYPE, ...CORS_HEADERS });

/**
 * An answer made once and given to many requests, whole: its status, its prepared headers and its body.
 * @example
 * const UNAUTHORIZED: PreparedResponse = prepared(errorResponse('unauthorized', 'Missing credential.'));
 */
export interface PreparedResponse extends MockResponse {
  readonly prepared: PreparedHeaders;
}

/** `response` as an answer made once for many requests, its headers prepared. */
export function prepared(response: MockResponse): PreparedResponse {
  return Object.freeze(preparedResponse(response.status, prepareHeaders(response.headers), response.body));
}

/** A response with a JSON body, and with `headers` beside those every answer carries. */
export function jsonResponse(status: number, body: string, headers?: Readonly<Record<string, string>>): MockResponse {
  return headers === undefined
    ? preparedResponse(status, JSON_RESPONSE_HEADERS, body)
    : { status, headers: { ...JSON_RESPONSE_HEADERS.record, ...headers }, body };
}

/**
 * What the spec's 429 and 503 tell a client: send the request again after a second (`Retry-After`).
 * Every one the mock makes has it, forced or real, so that a client's retry is tested against the mock.
 */
const RETRY_AFTER: Readonly<Record<string, string>> = { 'retry-after': '1' };

/**
 * An Error response of the spec: `{ code, message, status }`, the status read from the spec's
 * catalogue of codes so that the body and the HTTP status always agree; a 429 or 503 says when to retry.
 */
export function errorResponse(code: ErrorCode, message: string, headers?: Readonly<Record<string, string>>): MockResponse {
  const status = ERROR_CODES[code].status;
  const retry = status === 429 || status === 503;
  return jsonResponse(status, JSON.stringify({ code, message, status }), retry ? { ...RETRY_AFTER, ...headers } : headers);
}

/**
 * The answer in place of one whose head a host refused to write (a character HTTP forbids, a status
 * out of range): every value is made safe before (src/http/header-value.ts), so this is a bug's.
 * `reason` names the error, never the value, which may be a deployment's text.
 */
export function unwritableHead(reason: string): MockResponse {
  return errorResponse('internal_error', `The mock could not write the head of its answer (${reason}). This is a bug in petstore-mock; please report it.`);
}

/**
 * `next` of a request's body as text (`undefined` once past `maxBytes`), or the 400 rejecting a body
 * whose bytes are not UTF-8, which JSON must be (RFC 8259). `whole` names the body in the message.
 * One `then` on the host's read, not an `async` chain: a create waits for its body and nothing else.
 * @example
 * const parsed = await textThen(request, MAX_BODY_BYTES, 'The request body', (text) => parse(text));
 * if ('rejection' in parsed) return parsed.rejection;
 */
export function textThen<T>(
  request: MockRequest,
  maxBytes: number,
  whole: string,
  next: (text: string | undefined) => T,
): Promise<T | { readonly rejection: MockResponse }> {
  return request.text(maxBytes).then(next, (error: unknown) => {
    if (!(error instanceof NotUtf8Error)) throw error;
    return { rejection: errorResponse('bad_request', `${whole} is not UTF-8, which JSON requires (RFC 8259): send its text encoded as UTF-8.`) };
  });
}

/**
 * A request's body as text (`undefined` once past `maxBytes`), or the 400 rejecting a body whose bytes
 * are not UTF-8 (`textThen`).
 * @example
 * const body = await bodyText(request, MAX_BODY_BYTES, 'The request body');
 * if ('rejection' in body) return body.rejection;
 */
export function bodyText(
  request: MockRequest,
  maxBytes: number,
  whole: string,
): Promise<{ readonly text: string | undefined } | { readonly rejection: MockResponse }> {
  return textThen(request, maxBytes, whole, (text) => ({ text }));
}
