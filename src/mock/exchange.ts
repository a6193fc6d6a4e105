import { ERROR_CODES, type ErrorCode } from '../spec/facts.js';

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
  /** The body as UTF-8 text, or `undefined` once it grows past `maxBytes` (the host stops reading then). */
  text(maxBytes: number): Promise<string | undefined>;
}

/** A response as the handler makes it; hosts write it out. `body` is JSON text, or empty. */
export interface MockResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** What a host's request log may add after the status: `key=ci session=worker-1`; never a key. */
  readonly logDetail?: string;
}

export const JSON_CONTENT_TYPE = 'application/json';

/** What lets a browser page on another origin read every answer, and the headers it needs. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Deprecation, Sunset, Link, WWW-Authenticate, Preference-Applied',
};

/** Header objects made once and given to many answers; see `sharedHeaders`. */
const SHARED_HEADERS = new WeakSet<object>();

/**
 * Headers made once and given to many answers, frozen. A host may keep what it derives from them (the
 * Node server keeps the list it writes) for as long as they live; headers made for one answer never.
 * @example
 * const DEPRECATED = sharedHeaders({ ...ANSWER_HEADERS, deprecation: '@1748736000' });
 */
export function sharedHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  SHARED_HEADERS.add(Object.freeze(headers));
  return headers;
}

/** Whether `headers` were made by `sharedHeaders`, so that what a host derives from them may be kept. */
export function isShared(headers: MockResponse['headers']): boolean {
  return SHARED_HEADERS.has(headers);
}

/** The headers every answer carries, shared by those that carry no others. */
export const ANSWER_HEADERS = sharedHeaders({ 'content-type': JSON_CONTENT_TYPE, ...CORS_HEADERS });

/**
 * An answer made once and given to many requests, whole: its status, its shared headers and its body.
 * @example
 * const UNAUTHORIZED: PreparedAnswer = prepared(errorResponse('unauthorized', 'Missing credential.'));
 */
export interface PreparedAnswer extends MockResponse {
  readonly prepared: true;
}

/** `response` as an answer made once for many requests; its headers become shared. */
export function prepared(response: MockResponse): PreparedAnswer {
  return Object.freeze({ status: response.status, headers: sharedHeaders({ ...response.headers }), body: response.body, prepared: true });
}

/** A response with a JSON body, and with `headers` beside those every answer carries. */
export function jsonResponse(status: number, body: string, headers?: Readonly<Record<string, string>>): MockResponse {
  return { status, headers: headers === undefined ? ANSWER_HEADERS : { ...ANSWER_HEADERS, ...headers }, body };
}

/**
 * An Error response of the spec: `{ code, message, status }`, the status read from the spec's
 * catalogue of codes so that the body and the HTTP status always agree.
 */
export function errorResponse(code: ErrorCode, message: string, headers?: Readonly<Record<string, string>>): MockResponse {
  const status = ERROR_CODES[code].status;
  return jsonResponse(status, JSON.stringify({ code, message, status }), headers);
}
