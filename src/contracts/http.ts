import { Budget, MAX_RESPONSE_BYTES } from '../bounds/budget.js';
import { DeadlineError, EXIT, messageOf, PetstoreError, stringField } from '../errors.js';
import { isWrite } from '../http/methods.js';
import { type JsonValue, parseJsonFast } from '../json/lossless.js';
import { SHORT_SECRET_LENGTH } from '../redact/key-patterns.js';
import type { KeyRedactor } from '../redact/key-redactor.js';
import { Pacer, sleepUnlessAborted } from './pace.js';
import { readText, send as sendOverHttp, type TransportRequest, type TransportResponse } from './transport.js';
import { KEY_PLACEHOLDER, verifierRedactor } from './verifier-redactor.js';

export { KEY_PLACEHOLDER } from './verifier-redactor.js';

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
  /** More headers, by lower-case name, each replacing the client's own (`accept`); `null` sends none of that name. Never `authorization`. */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** What is unusual about the request (a variant's name), for the report of a crash it may have caused. */
  readonly what?: string;
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

/**
 * A response as an observer of the run hears it (the coverage report, the HAR file): the request as
 * recorded, the response redacted as every report shows it. Plain data, so that the Pact suite's
 * worker can send it over IPC.
 */
export interface ObservedExchange {
  readonly request: RecordedRequest;
  readonly status: number;
  /** The response's headers in order, values redacted. */
  readonly headers: readonly (readonly [string, string])[];
  readonly text: string;
  /** When the request left, by `Date.now()`. */
  readonly startedAt: number;
  readonly ms: number;
}

/** Hears each response the deployment sends, retries included, as it arrives. */
export type ExchangeObserver = (exchange: ObservedExchange) => void;

/**
 * Why a request got no complete response. `dropped`: the connection was reset, closed or refused after
 * the deployment had answered before in this run, which breaks the contract (a crash, a process that
 * stopped); the same before its first answer is `network` or `refused`, a deployment not reached.
 */
export type TransportProblem = 'timeout' | 'deadline' | 'refused' | 'dns' | 'tls' | 'too-large' | 'network' | 'rate-limited' | 'budget' | 'dropped';

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

/**
 * One request's signal: aborted at its `--timeout` (with a `TimeoutError`) or when the run's deadline
 * falls (with its reason), whichever comes first, and let go once the answer is read. The same as
 * `AbortSignal.any([AbortSignal.timeout(ms), deadline])`, but the timer is cleared: theirs ran out long
 * after each answer, building an error for each request and a signal held by the deadline's, some 4%
 * of a run's CPU. Node's own timer, never `waits` (pace.ts), which a test may make instant.
 */
function requestSignal(timeoutMs: number, deadline: AbortSignal | undefined): { readonly signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
  // As AbortSignal.timeout's: a request in flight keeps the process alive, not its timer.
  timer.unref();
  const fall = () => controller.abort(deadline?.reason);
  if (deadline?.aborted) fall();
  else deadline?.addEventListener('abort', fall, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      deadline?.removeEventListener('abort', fall);
    },
  };
}

/** Sends a request and reads its answer's text within the request's bounds (`requestSignal`), let go of after. */
async function sendWithin(
  url: string,
  init: Omit<TransportRequest, 'signal'>,
  bounds: { readonly timeoutMs: number; readonly deadline?: AbortSignal | undefined; readonly maxBodyBytes: number },
): Promise<{ response: TransportResponse; raw: string | undefined }> {
  const bound = requestSignal(bounds.timeoutMs, bounds.deadline);
  try {
    const response = await sendOverHttp(url, { ...init, signal: bound.signal });
    return { response, raw: await readText(response.body, bounds.maxBodyBytes) };
  } finally {
    bound.done();
  }
}

/** What a request still rejected with 429 after its retries is reported as: a run-level problem, not a contract failure. */
export function rateLimitedMessage(retries: number): string {
  return `rate limited: still answered 429 Too Many Requests after ${retries} retries that honoured its Retry-After; lower --rps (or --concurrency) so the deployment does not limit the verifier`;
}

/** The request never got a complete response: the deployment could not be asked, or stopped answering (`dropped`). */
export class TransportError extends PetstoreError {
  override readonly name = 'TransportError' as const;
  constructor(
    readonly problem: TransportProblem,
    readonly request: RecordedRequest,
    detail: string,
  ) {
    super(`${request.method} ${request.url}: ${detail}`, { exitCode: problem === 'dropped' ? EXIT.failed : EXIT.usage });
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
  /** Hears each response, for the reports made of the whole run (coverage, HAR). */
  readonly observe?: ExchangeObserver;
  /**
   * The most writes sent (requests of a method that is not safe, see src/http/methods.ts), each sent
   * again after a 429 counted: past it a write is not sent and `send` throws a `TransportError` of
   * problem `budget`. Default unlimited.
   */
  readonly maxWrites?: number;
}

/**
 * The most retries a run lists one by one (`retried`), and the most bytes of those lines: the first ones;
 * every retry is counted by cause whatever their number. A deployment answering 503 to every read made
 * two lines per read of a fuzz run, kept until its end.
 */
const RETRIED_LINES = 1_000;
const RETRIED_BYTES = 1024 * 1024;

/** Why a request was sent again, counted for the run's one line about retries. */
export type RetryCause = '429' | '502' | '503' | '504' | 'network';

/** The requests sent again, and why, as one line of the report says it. */
export interface Retries {
  /** Each request sent again: `GET <url> after 503`. */
  readonly lines: readonly string[];
  /** How many retries by cause. */
  readonly byCause: Readonly<Partial<Record<RetryCause, number>>>;
  /** How long the run waited for Retry-After in all, in milliseconds. */
  readonly waitedMs: number;
}

/** The statuses of a gateway or a deployment down for now, each the cause of the retry it leads to. */
const RETRY_CAUSES: ReadonlyMap<number, RetryCause> = new Map([
  [502, '502'],
  [503, '503'],
  [504, '504'],
]);
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set(RETRY_CAUSES.keys());
const RETRY_BACKOFF_MS = 250;

/** What a capped response is reported as, by both suites. */
export function bodyCapMessage(maxBytes: number): string {
  return `a body larger than ${maxBytes} bytes (${+(maxBytes / 1024 / 1024).toFixed(2)} MiB), the most petstore-verify reads of one answer`;
}

/** Why a request got no complete response, in words for the report. */
export function describeFailure(error: unknown, deadline: AbortSignal | undefined, timeoutMs: number): { problem: TransportProblem; detail: string } {
  // Node's HTTP client gives the network's own error (with its `code`, like ECONNREFUSED); fetch would put it in `cause`.
  const cause: unknown = typeof error === 'object' && error !== null ? (Reflect.get(error, 'cause') ?? error) : undefined;
  const code = stringField(cause, 'code') ?? '';
  const causeMessage = stringField(cause, 'message');
  const name = stringField(error, 'name');
  if (error instanceof DeadlineError || deadline?.aborted) return { problem: 'deadline', detail: "the run's deadline passed before the answer came" };
  if (name === 'TimeoutError' || name === 'AbortError') return { problem: 'timeout', detail: `no complete answer within ${timeoutMs} ms (--timeout)` };
  if (code === 'ECONNREFUSED') return { problem: 'refused', detail: 'connection refused: is the deployment running at this address?' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { problem: 'dns', detail: 'the host name does not resolve' };
  if (/CERT|SSL|TLS/i.test(code) || /certificate|ssl|tls/i.test(causeMessage ?? '')) return { problem: 'tls', detail: `TLS failed: ${causeMessage ?? code}` };
  return { problem: 'network', detail: causeMessage ?? messageOf(error) };
}

/**
 * The verifier's only way to the deployment: fills in the key, bounds concurrency and time, never
 * follows a redirect (so the key is never sent to another host), parses bodies losslessly, and
 * records every request with the key redacted.
 */
export class HttpClient {
  readonly #options: Required<Omit<HttpClientOptions, 'deadline' | 'rps' | 'observe'>> & Pick<HttpClientOptions, 'deadline' | 'observe'>;
  readonly #base: string;
  /**
   * The base URL and its path, and each as every report shows it: a key written in them
   * (`https://host/<key>/v1`, a host `<key>.tenant.example`) replaced, as everywhere.
   */
  readonly #basePath: string;
  readonly #shownBase: string;
  readonly #shownBasePath: string;
  readonly #pacer: Pacer;
  readonly #redactor: KeyRedactor;
  /** How many requests were sent, retries included. */
  sent = 0;
  /** How many of them were writes. */
  writes = 0;
  /** Writes taken from the budget: counted before they wait for the pacer, so that requests waiting together cannot pass it. */
  #writesTaken = 0;
  /** Writes added to the budget for a suite with one of its own (`grantWrites`). */
  #writesGranted = 0;
  /** How many responses the deployment sent this client: once it has answered, a connection it drops is a breach. */
  #answered = 0;
  /** What the deployment left unanswered once it had answered: see `Unanswered`. */
  readonly #unanswered: { inFlight: UnansweredRequest[]; refused: boolean; lastAnswered: AnsweredRequest[] } = {
    inFlight: [],
    refused: false,
    lastAnswered: [],
  };
  /** The last requests the deployment answered, newest last: a crash right after an answer most likely came from one of them. */
  readonly #lastAnswered: AnsweredRequest[] = [];
  /** The requests that were sent again, as `GET <url> after 503`: the first `RETRIED_LINES`. */
  readonly retried: string[] = [];
  readonly #retriedKept = new Budget({ totalBytes: RETRIED_BYTES, totalCount: RETRIED_LINES }).share();
  readonly #retryCauses: Partial<Record<RetryCause, number>> = {};
  #waitedMs = 0;

  constructor(options: HttpClientOptions) {
    const { rps, ...rest } = options;
    this.#options = { maxBodyBytes: MAX_RESPONSE_BYTES, retries: 2, maxWrites: Number.POSITIVE_INFINITY, ...rest };
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#pacer = new Pacer({ concurrency: options.concurrency, rps, deadline: options.deadline });
    this.#redactor = verifierRedactor(options.apiKey);
    const origin = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(this.#base)?.[0] ?? '';
    this.#basePath = this.#base.slice(origin.length);
    this.#shownBasePath = this.#redactor.text(this.#basePath);
    // A short key in the path only: it would match a digit of an address (a key `1` in 127.0.0.1).
    this.#shownBase = options.apiKey.length >= SHORT_SECRET_LENGTH ? this.#redactor.text(this.#base) : `${origin}${this.#shownBasePath}`;
  }

  /** Writes the budget still allows, retries counted. */
  get writesLeft(): number {
    return this.#options.maxWrites + this.#writesGranted - this.#writesTaken;
  }

  /** Writes taken from the budget so far, retries counted, those sent by another client of the run (`spendWrites`) too. */
  get writesSent(): number {
    return this.#writesTaken;
  }

  /** Adds to the budget the writes of a suite that has a budget of its own besides the run's (the fuzz suite's, the Pact suite's). */
  grantWrites(count: number): void {
    this.#writesGranted += count;
  }

  /** Takes from the budget the writes another client of the run sent (the Pact suite's worker, through its proxy). */
  spendWrites(count: number): void {
    this.#writesTaken += count;
  }

  /** The requests sent again, by cause, and the time spent waiting for Retry-After. */
  get retries(): Retries {
    return { lines: this.retried, byCause: { ...this.#retryCauses }, waitedMs: this.#waitedMs };
  }

  #retriedAfter(request: RecordedRequest, cause: RetryCause, detail: string): void {
    const line = `${request.method} ${request.url} after ${detail}`;
    if (this.#retriedKept.take(2 * line.length, 1) === undefined) this.retried.push(line);
    this.#retryCauses[cause] = (this.#retryCauses[cause] ?? 0) + 1;
  }

  /** Takes a write from the budget, or says none is left. */
  #takeWrite(request: RecordedRequest): void {
    if (!isWrite(request.method)) return;
    if (this.writesLeft <= 0)
      throw new TransportError('budget', request, `not sent: the run has sent its ${this.#writesTaken} writes, its budget, retries after 429 counted`);
    this.#writesTaken++;
  }

  /** The base URL requests go to, without a trailing slash. */
  get baseUrl(): string {
    return this.#base;
  }

  /** Whether the base URL holds the key (a deployment mounted under a secret path or host): then `shown` hides it. */
  get baseHoldsKey(): boolean {
    return this.#shownBase !== this.#base;
  }

  /**
   * A text the run wrote from the base URL (a request's URL, a message naming the base path) as every
   * report shows it: the base URL and its path as the redactor shows them; a long key in any other form too (a URL
   * `new URL` wrote again), and a short one only there, so that the ids and counts of a report keep
   * their digits. As it is when the base URL holds no key.
   */
  shown(text: string): string {
    if (!this.baseHoldsKey) return text;
    let replaced = text.replaceAll(this.#base, this.#shownBase);
    if (this.#basePath !== '') replaced = replaced.replaceAll(this.#basePath, this.#shownBasePath);
    return this.#options.apiKey.length >= SHORT_SECRET_LENGTH ? this.#redactor.text(replaced) : replaced;
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

  /** A response the client did not receive itself (the Pact suite's, through its proxy), redacted as the client's own are. */
  redactExchange(exchange: ObservedExchange): ObservedExchange {
    const headers = exchange.headers.map(([name, value]): [string, string] => [name, this.#redactor.text(value)]);
    return { ...exchange, headers, text: this.#redactedBody(exchange.text).text };
  }

  /** A body parsed losslessly (or why it is not JSON), with the key and every near miss of it sent so far, echoed back in any form, replaced. */
  #redactedBody(raw: string): Pick<Exchange, 'text' | 'json' | 'jsonError'> {
    let json: JsonValue | undefined;
    let jsonError: string | undefined;
    if (raw.trim() !== '') {
      try {
        json = parseJsonFast(raw);
      } catch (error) {
        jsonError = messageOf(error);
      }
    }
    const text = json === undefined ? this.#redactor.body(raw, false) : this.#redactor.parsedBody(raw, json);
    // Parsed again only when the deployment echoed the key, so that `json` holds no more than `text`.
    if (json !== undefined && text !== raw) json = parseJsonFast(text);
    return { text, json, ...(jsonError ? { jsonError: this.redact(jsonError) } : {}) };
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
    for (const [name, given] of Object.entries(request.headers ?? {})) {
      if (given === null) delete headers[name];
      else headers[name] = given;
    }
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
        this.#takeWrite(recorded);
        const exchange = await this.#once(url, request, headers, recorded, attempt);
        // A 429 is the deployment rejecting the request for now (RFC 6585): any method may be sent again once its Retry-After has passed.
        if (exchange.status === 429) {
          if (limited++ >= RATE_LIMIT_RETRIES) throw new TransportError('rate-limited', recorded, rateLimitedMessage(RATE_LIMIT_RETRIES));
          await this.#waitRetryAfter(exchange, recorded, limited);
          this.#retriedAfter(recorded, '429', '429');
          continue;
        }
        const cause = RETRY_CAUSES.get(exchange.status);
        if (!idempotent || attempt - limited > this.#options.retries || cause === undefined) return exchange;
        this.#retriedAfter(recorded, cause, cause);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        if (!idempotent || attempt - limited > this.#options.retries || error.problem !== 'network') throw this.#droppedAfterAnswers(error);
        this.#retriedAfter(recorded, 'network', error.message);
      }
      // Through the verifier's one timer (pace.ts `waits`), so that a test can run the backoff without waiting it; the
      // deadline is left to the next attempt, which reports it as every request does.
      await sleepUnlessAborted(RETRY_BACKOFF_MS * attempt, undefined);
    }
  }

  /** Waits out a 429's Retry-After; a deadline that falls first ends the request as rate limited. */
  async #waitRetryAfter(exchange: Exchange, recorded: RecordedRequest, limited: number): Promise<void> {
    const ms = retryAfterMs(exchange.headers.get('retry-after'));
    try {
      await waitWithin(ms, this.#options.deadline);
    } catch {
      throw new TransportError('rate-limited', recorded, `${rateLimitedMessage(limited - 1)}; the run's deadline fell before its Retry-After passed`);
    }
    this.#waitedMs += ms;
  }

  async #once(url: string, request: ApiRequest, headers: Record<string, string>, recorded: RecordedRequest, attempt: number): Promise<Exchange> {
    try {
      return await this.#pacer.run(async () => {
        this.sent++;
        if (isWrite(request.method)) this.writes++;
        const started = performance.now();
        const startedAt = Date.now();
        const { response, raw } = await sendWithin(url, { method: request.method, headers, body: request.body }, this.#options);
        if (raw === undefined) throw new TransportError('too-large', recorded, bodyCapMessage(this.#options.maxBodyBytes));
        // An answer read whole as the deadline fell is not worked on: the deadline bounds parsing too.
        if (this.#options.deadline?.aborted) throw new DeadlineError();
        const body = this.#redactedBody(raw);
        const exchange: Exchange = {
          request: recorded,
          status: response.status,
          headers: this.#redactor.headers(response.headers),
          ...body,
          ms: performance.now() - started,
          attempts: attempt,
        };
        this.#answered++;
        this.#lastAnswered.push({ request: recorded, ...(request.what === undefined ? {} : { what: request.what }) });
        if (this.#lastAnswered.length > LAST_ANSWERED) this.#lastAnswered.shift();
        this.#options.observe?.({ request: recorded, status: exchange.status, headers: [...exchange.headers], text: body.text, startedAt, ms: exchange.ms });
        return exchange;
      });
    } catch (error) {
      if (error instanceof TransportError) throw error;
      const { problem, detail } = describeFailure(error, this.#options.deadline, this.#options.timeoutMs);
      // Noted as it happens, before any retry: a crash most likely came from a request it left unanswered in flight.
      if (this.#answered > 0 && problem === 'network' && !this.#unanswered.refused)
        this.#unanswered.inFlight.push({ request: recorded, detail, ...(request.what === undefined ? {} : { what: request.what }) });
      if (this.#answered > 0 && problem === 'refused' && !this.#unanswered.refused) {
        this.#unanswered.refused = true;
        this.#unanswered.lastAnswered = [...this.#lastAnswered];
      }
      throw new TransportError(problem, recorded, detail);
    }
  }

  /**
   * A connection reset, closed or refused once the deployment has answered in this run is no network
   * that cannot be reached: the deployment stopped answering (it crashed, or dropped the request), which
   * breaks the contract. Each such error names the first request it left unanswered.
   */
  #droppedAfterAnswers(error: TransportError): TransportError {
    if (this.#answered === 0 || (error.problem !== 'network' && error.problem !== 'refused')) return error;
    const detail = error.message.slice(error.request.method.length + error.request.url.length + 3);
    const unanswered = this.#unanswered;
    return new DroppedError(error.request, detail, this.#answered, () => ({
      inFlight: [...unanswered.inFlight],
      refused: unanswered.refused,
      lastAnswered: [...unanswered.lastAnswered],
    }));
  }
}

/** A request the deployment left no answer to, and why: `socket hang up`, `read ECONNRESET`. */
export interface UnansweredRequest {
  readonly request: RecordedRequest;
  readonly detail: string;
  /** The variant it was, when a check named one. */
  readonly what?: string;
}

/** A request the deployment answered, and the variant it was when a check named one. */
export interface AnsweredRequest {
  readonly request: RecordedRequest;
  readonly what?: string;
}

/** How many of its last answers the client remembers, for the report of a crash that came after one. */
const LAST_ANSWERED = 3;

/**
 * What the deployment left unanswered once it had answered: the requests in flight whose connections it
 * reset or closed (a crash came from one of them: the client cannot tell which, so it names them all),
 * and whether it then refused new connections (it was down).
 */
export interface Unanswered {
  readonly inFlight: readonly UnansweredRequest[];
  readonly refused: boolean;
  /** The last requests it answered before it first refused a connection, newest last. */
  readonly lastAnswered: readonly AnsweredRequest[];
}

/** A request the deployment left unanswered after it had answered: see `HttpClient`. */
export class DroppedError extends TransportError {
  constructor(
    request: RecordedRequest,
    /** Why it got no answer: `socket hang up`, `connection refused...`. */
    readonly detail: string,
    /** How many answers the deployment had sent before. */
    readonly answered: number,
    /** What the deployment left unanswered in the run, as known when asked: once the check is over, every reset at a crash has come in. */
    readonly unanswered: () => Unanswered,
  ) {
    super('dropped', request, `no answer (${detail}), after the deployment had answered ${answered} requests of this run`);
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
