import { DeadlineError, EXIT, messageOf, PetstoreError, stringField } from '../errors.js';
import { MAX_RESPONSE_BYTES } from '../http/limits.js';
import { readLimited } from '../http/read-limited.js';
import { type JsonValue, parseJson } from '../json/lossless.js';
import { Pacer, sleepUnlessAborted } from './pace.js';
import { KEY_PLACEHOLDER, Redactor } from './redact-key.js';

export { KEY_PLACEHOLDER };

/** A request to the deployment under test, relative to its base URL. */
export interface ApiRequest {
  readonly method: string;
  /** Path below the base URL, parameters filled in: `/pets/12`. */
  readonly path: string;
  /** Query string without `?`. */
  readonly query?: string;
  /**
   * The `Authorization` header: `undefined` sends the valid key as a bearer token, `null` sends
   * none, a string is sent as it is (a wrong key, another scheme), with `KEY_PLACEHOLDER` in it
   * replaced by the key, or a credential made from the key (see `HttpClient.derive`).
   */
  readonly authorization?: string | null | DerivedCredential;
  readonly body?: string;
  /** Sent with a body; default `application/json`. */
  readonly contentType?: string;
  /** True when `path` starts at the origin rather than below the base URL: another spelling of the base path itself (`/V1/pets`). */
  readonly fromOrigin?: boolean;
}

/**
 * A near miss of the real credential (the key with its case changed, a prefix of it...). It would
 * reveal the key, so reports show `shown` instead; the client's redactor knows its secret, so an
 * echo of it, in any form, is replaced too.
 */
export interface DerivedCredential {
  readonly value: string;
  readonly shown: string;
}

/** A request as reported: the `Authorization` header as a template, `$PETSTORE_API_KEY` where the key went. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One request and the deployment's response. */
export interface Exchange {
  readonly request: RecordedRequest;
  readonly status: number;
  readonly headers: Headers;
  /** The body as text, the key replaced if the deployment echoed it (so is `json`, and so are `headers`). */
  readonly text: string;
  /** The body parsed losslessly; `undefined` when it is empty or not JSON (see `jsonError`). */
  readonly json: JsonValue | undefined;
  readonly jsonError?: string;
  readonly ms: number;
  /** How many times it was sent: more than 1 when an idempotent read was retried. */
  readonly attempts: number;
}

export type TransportProblem = 'timeout' | 'deadline' | 'refused' | 'dns' | 'tls' | 'too-large' | 'network' | 'rate-limited';

/** How many times one request is sent again after a 429 before the run says it is rate limited. */
export const RATE_LIMIT_RETRIES = 8;
/** The longest wait after one 429, whatever its Retry-After says. */
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * How long to wait after a 429, from its `Retry-After` (delay-seconds or an HTTP-date, RFC 9110
 * §10.2.3); 1 s when it gives none, never more than `MAX_RETRY_AFTER_MS`.
 */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  const text = value?.trim() ?? '';
  let ms = 1_000;
  if (/^\d+$/.test(text)) ms = Number(text) * 1_000;
  else if (text !== '' && !Number.isNaN(Date.parse(text))) ms = Math.max(0, Date.parse(text) - now);
  // Up to a second more, at random, so that the requests limited together are not all sent again together.
  return Math.min(ms, MAX_RETRY_AFTER_MS) + Math.floor(Math.random() * 1_000);
}

/** Waits `ms`, or throws `DeadlineError` as soon as the deadline falls (at once if it would fall first). */
export async function waitWithin(ms: number, deadline: AbortSignal | undefined, deadlineAt?: number): Promise<void> {
  if (deadline?.aborted || (deadlineAt !== undefined && Date.now() + ms > deadlineAt)) throw new DeadlineError();
  await sleepUnlessAborted(ms, deadline);
}

/** What a request still rejected with 429 after its retries is reported as: a run-level problem, not a contract failure. */
export function rateLimitedMessage(retries: number): string {
  return `rate limited: still answered 429 Too Many Requests after ${retries} retries that honoured its Retry-After; lower --rps (or --concurrency) so the deployment does not limit the verifier`;
}

/** The request never got a complete response: the deployment could not be asked. */
export class TransportError extends PetstoreError {
  override readonly name = 'TransportError' as const;
  constructor(
    readonly problem: TransportProblem,
    readonly request: RecordedRequest,
    detail: string,
  ) {
    super(`${request.method} ${request.url}: ${detail}`, { exitCode: EXIT.usage });
  }
}

export interface HttpClientOptions {
  /** Base URL ending in the version prefix: `https://staging.example.com/v1`. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Per request, in milliseconds. */
  readonly timeoutMs: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Largest response body read, after decompression, in bytes. Default `MAX_RESPONSE_BYTES`. */
  readonly maxBodyBytes?: number;
  /** Requests started per second at most; default unlimited. */
  readonly rps?: number;
  /** Aborts every request still running or waiting: the run's global deadline. */
  readonly deadline?: AbortSignal;
  /** Retries of a GET after a network error or a 502, 503 or 504. Default 2. */
  readonly retries?: number;
}

/** Gateway responses that say the deployment is briefly unavailable; a read may be retried after them. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
const RETRY_BACKOFF_MS = 250;

/** What a capped response is reported as, by both suites. */
export function bodyCapMessage(maxBytes: number): string {
  return `a body larger than ${maxBytes} bytes (${+(maxBytes / 1024 / 1024).toFixed(2)} MiB), the most petstore-verify reads of one answer`;
}

/** Why a request got no complete response, in words for the report. */
export function describeFailure(error: unknown, deadline: AbortSignal | undefined, timeoutMs: number): { problem: TransportProblem; detail: string } {
  // fetch puts the network's own error (with its `code`, like ECONNREFUSED) in `cause`.
  const cause: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'cause') : undefined;
  const code = stringField(cause, 'code') ?? '';
  const causeMessage = stringField(cause, 'message');
  const name = stringField(error, 'name');
  if (error instanceof DeadlineError || deadline?.aborted) return { problem: 'deadline', detail: "the run's deadline passed before the answer came" };
  if (name === 'TimeoutError' || name === 'AbortError') return { problem: 'timeout', detail: `no complete answer within ${timeoutMs} ms (--timeout)` };
  if (code === 'ECONNREFUSED') return { problem: 'refused', detail: 'connection refused: is the deployment running at this address?' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { problem: 'dns', detail: 'the host name does not resolve' };
  if (causeMessage === 'bad port')
    return { problem: 'network', detail: 'fetch refuses to connect to this port (one of the ports blocked for safety); serve the deployment on another port' };
  if (/CERT|SSL|TLS/i.test(code) || /certificate|ssl|tls/i.test(causeMessage ?? '')) return { problem: 'tls', detail: `TLS failed: ${causeMessage ?? code}` };
  return { problem: 'network', detail: causeMessage ?? messageOf(error) };
}

/**
 * The verifier's only way to the deployment: fills in the key, bounds concurrency and time, never
 * follows a redirect (so the key is never sent to another host), parses bodies losslessly, and
 * records every request with the key redacted.
 */
export class HttpClient {
  readonly #options: Required<Omit<HttpClientOptions, 'deadline' | 'rps'>> & Pick<HttpClientOptions, 'deadline'>;
  readonly #base: string;
  readonly #pacer: Pacer;
  readonly #redactor: Redactor;
  /** How many requests were sent, retries included. */
  sent = 0;
  /** How many of them were POSTs. */
  posts = 0;
  /** The reads that were retried, as `GET <url> after 503`. */
  readonly retried: string[] = [];

  constructor(options: HttpClientOptions) {
    const { rps, ...rest } = options;
    this.#options = { maxBodyBytes: MAX_RESPONSE_BYTES, retries: 2, ...rest };
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#pacer = new Pacer({ concurrency: options.concurrency, rps, deadline: options.deadline });
    this.#redactor = new Redactor(options.apiKey);
  }

  /** The base URL requests go to, without a trailing slash. */
  get baseUrl(): string {
    return this.#base;
  }

  /**
   * A near miss of the credential: `change` makes the `Authorization` value from the key. Undefined
   * when the change leaves the valid credential as it is (the key has no letters to change the case of).
   */
  derive(shown: string, change: (key: string) => { value: string; secret: string }): DerivedCredential | undefined {
    const made = change(this.#options.apiKey);
    if (made.value === `Bearer ${this.#options.apiKey}`) return undefined;
    // Known before it is sent: the deployment may echo it in any response from then on, in any form.
    this.#redactor.know(made.secret);
    return { value: made.value, shown };
  }

  /** Replaces the key, and each near miss of it sent so far, in a text the deployment sent back (a header value, a message), in each form it may be echoed in. */
  redact(text: string): string {
    return this.#redactor.text(text);
  }

  async send(request: ApiRequest): Promise<Exchange> {
    const url = `${request.fromOrigin ? new URL(this.#base).origin : this.#base}${request.path}${request.query ? `?${request.query}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    const given = request.authorization;
    const derived = typeof given === 'object' && given !== null ? given : undefined;
    // The header is recorded as its template (or a near miss as its description): the key never enters the record, whatever its length.
    const template = given === undefined ? `Bearer ${KEY_PLACEHOLDER}` : typeof given === 'object' && given !== null ? given.shown : given;
    const value = derived ? derived.value : template?.replaceAll(KEY_PLACEHOLDER, this.#options.apiKey);
    if (value !== null && value !== undefined) headers.authorization = value;
    if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
    const recorded: RecordedRequest = {
      method: request.method,
      url,
      headers: { ...headers, ...(template === null ? {} : { authorization: template }) },
      ...(request.body === undefined ? {} : { body: request.body }),
    };

    const idempotent = request.method === 'GET';
    let limited = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const exchange = await this.#once(url, request, headers, recorded, attempt);
        // A 429 is the deployment rejecting the request for now (RFC 6585): any method may be sent again once its Retry-After has passed.
        if (exchange.status === 429) {
          if (limited++ >= RATE_LIMIT_RETRIES) throw new TransportError('rate-limited', recorded, rateLimitedMessage(RATE_LIMIT_RETRIES));
          this.retried.push(`${request.method} ${recorded.url} after 429`);
          try {
            await waitWithin(retryAfterMs(exchange.headers.get('retry-after')), this.#options.deadline);
          } catch {
            throw new TransportError('rate-limited', recorded, `${rateLimitedMessage(limited - 1)}; the run's deadline fell before its Retry-After passed`);
          }
          continue;
        }
        if (!idempotent || attempt - limited > this.#options.retries || !RETRYABLE_STATUSES.has(exchange.status)) return exchange;
        this.retried.push(`${request.method} ${recorded.url} after ${exchange.status}`);
      } catch (error) {
        if (!idempotent || attempt - limited > this.#options.retries || !(error instanceof TransportError) || error.problem !== 'network') throw error;
        this.retried.push(`${request.method} ${recorded.url} after ${error.message}`);
      }
      // Through the verifier's one timer (pace.ts `waits`), so that a test can run the backoff without waiting it; the
      // deadline is left to the next attempt, which reports it as every request does.
      await sleepUnlessAborted(RETRY_BACKOFF_MS * attempt, undefined);
    }
  }

  async #once(url: string, request: ApiRequest, headers: Record<string, string>, recorded: RecordedRequest, attempt: number): Promise<Exchange> {
    try {
      return await this.#pacer.run(async () => {
        this.sent++;
        if (request.method === 'POST') this.posts++;
        const started = performance.now();
        const timeout = AbortSignal.timeout(this.#options.timeoutMs);
        const signal = this.#options.deadline ? AbortSignal.any([timeout, this.#options.deadline]) : timeout;
        const response = await fetch(url, { method: request.method, headers, body: request.body ?? null, redirect: 'manual', signal });
        const raw = await readLimited(response.body, this.#options.maxBodyBytes);
        if (raw === undefined) throw new TransportError('too-large', recorded, bodyCapMessage(this.#options.maxBodyBytes));
        let json: JsonValue | undefined;
        let jsonError: string | undefined;
        if (raw.trim() !== '') {
          try {
            json = parseJson(raw);
          } catch (error) {
            jsonError = messageOf(error);
          }
        }
        // The key and every near miss of it sent so far, echoed back in any form, are replaced.
        const text = this.#redactor.body(raw, json !== undefined);
        // Parsed again only when the deployment echoed the key, so that `json` holds no more than `text`.
        if (json !== undefined && text !== raw) json = parseJson(text);
        return {
          request: recorded,
          status: response.status,
          headers: this.#redactor.headers(response.headers),
          text,
          json,
          ...(jsonError ? { jsonError: this.redact(jsonError) } : {}),
          ms: performance.now() - started,
          attempts: attempt,
        };
      });
    } catch (error) {
      if (error instanceof TransportError) throw error;
      const { problem, detail } = describeFailure(error, this.#options.deadline, this.#options.timeoutMs);
      throw new TransportError(problem, recorded, detail);
    }
  }
}

/** The key's shell variable, braced: `$` then `{PETSTORE_API_KEY}`. */
const BRACED_KEY_VARIABLE = `$${'{'}PETSTORE_API_KEY}`;

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The request as a curl command to paste into a shell with `PETSTORE_API_KEY` set. */
export function toCurl(request: RecordedRequest): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept') continue;
    // Double quotes so that the shell expands $PETSTORE_API_KEY.
    // `${PETSTORE_API_KEY}` with braces, so that a character after it (a suffix of a near miss) is not taken as part of the variable's name.
    parts.push(
      '-H',
      value.includes(KEY_PLACEHOLDER)
        ? `"${name}: ${value.replaceAll('"', '\\"').replaceAll(KEY_PLACEHOLDER, BRACED_KEY_VARIABLE)}"`
        : shellQuote(`${name}: ${value}`),
    );
  }
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body.length > 2000 ? `${request.body.slice(0, 2000)}…` : request.body));
  return parts.join(' ');
}
