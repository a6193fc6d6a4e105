import { type JsonValue, parseJson } from '../json/lossless.js';
import { readLimited } from '../web/read-limited.js';

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
   * replaced by the key.
   */
  readonly authorization?: string | null;
  readonly body?: string;
  /** Sent with a body; default `application/json`. */
  readonly contentType?: string;
}

/** A request as reported: the key replaced by `$PETSTORE_API_KEY`. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One request and the deployment's answer. */
export interface Exchange {
  readonly request: RecordedRequest;
  readonly status: number;
  readonly headers: Headers;
  /** The body as text, the key scrubbed if the deployment echoed it. */
  readonly text: string;
  /** The body parsed losslessly; `undefined` when it is empty or not JSON (see `jsonError`). */
  readonly json: JsonValue | undefined;
  readonly jsonError?: string;
  readonly ms: number;
}

export type TransportProblem = 'timeout' | 'refused' | 'dns' | 'tls' | 'too-large' | 'network';

/** The request never got a complete answer: the deployment could not be asked. */
export class TransportError extends Error {
  override readonly name = 'TransportError' as const;
  constructor(
    readonly problem: TransportProblem,
    readonly request: RecordedRequest,
    detail: string,
  ) {
    super(`${request.method} ${request.url}: ${detail}`);
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
  /** Largest response body read, in bytes. */
  readonly maxBodyBytes?: number;
}

export const KEY_PLACEHOLDER = '$PETSTORE_API_KEY';
const DEFAULT_MAX_BODY = 5 * 1024 * 1024;

function classify(error: unknown): { problem: TransportProblem; detail: string } {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') return { problem: 'timeout', detail: 'no answer within the timeout' };
  if (code === 'ECONNREFUSED') return { problem: 'refused', detail: 'connection refused: is the deployment running at this address?' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { problem: 'dns', detail: 'the host name does not resolve' };
  if (cause?.message === 'bad port')
    return { problem: 'network', detail: 'fetch refuses to connect to this port (one of the ports blocked for safety); serve the deployment on another port' };
  if (/CERT|SSL|TLS/i.test(code) || /certificate|ssl|tls/i.test(cause?.message ?? ''))
    return { problem: 'tls', detail: `TLS failed: ${cause?.message ?? code}` };
  return { problem: 'network', detail: cause?.message ?? (error as Error).message };
}

/**
 * The verifier's only way to the deployment: fills in the key, bounds concurrency and time, never
 * follows a redirect (so the key is never sent to another host), reads bodies losslessly, and
 * records every request with the key redacted.
 */
export class HttpClient {
  readonly #options: Required<HttpClientOptions>;
  readonly #base: string;
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];
  /** How many requests were sent. */
  sent = 0;

  constructor(options: HttpClientOptions) {
    this.#options = { maxBodyBytes: DEFAULT_MAX_BODY, ...options };
    this.#base = options.baseUrl.replace(/\/+$/, '');
  }

  /** The base URL requests go to, without a trailing slash. */
  get baseUrl(): string {
    return this.#base;
  }

  /** Replaces the key wherever it appears. */
  redact(text: string): string {
    return text.replaceAll(this.#options.apiKey, KEY_PLACEHOLDER);
  }

  async send(request: ApiRequest): Promise<Exchange> {
    const url = `${this.#base}${request.path}${request.query ? `?${request.query}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    const authorization =
      request.authorization === undefined ? `Bearer ${this.#options.apiKey}` : request.authorization?.replaceAll(KEY_PLACEHOLDER, this.#options.apiKey);
    if (authorization !== null && authorization !== undefined) headers.authorization = authorization;
    if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
    const recorded: RecordedRequest = {
      method: request.method,
      url: this.redact(url),
      headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.redact(value)])),
      ...(request.body === undefined ? {} : { body: this.redact(request.body) }),
    };

    await this.#acquire();
    const started = performance.now();
    try {
      this.sent++;
      const signal = AbortSignal.timeout(this.#options.timeoutMs);
      const response = await fetch(url, { method: request.method, headers, body: request.body ?? null, redirect: 'manual', signal });
      const raw = await readLimited(response.body, this.#options.maxBodyBytes);
      if (raw === undefined) throw new TransportError('too-large', recorded, `the response body is larger than ${this.#options.maxBodyBytes} bytes`);
      const text = this.redact(raw);
      let json: JsonValue | undefined;
      let jsonError: string | undefined;
      if (raw.trim() !== '') {
        try {
          json = parseJson(raw);
        } catch (error) {
          jsonError = (error as Error).message;
        }
      }
      return {
        request: recorded,
        status: response.status,
        headers: response.headers,
        text,
        json,
        ...(jsonError ? { jsonError } : {}),
        ms: performance.now() - started,
      };
    } catch (error) {
      if (error instanceof TransportError) throw error;
      const { problem, detail } = classify(error);
      throw new TransportError(problem, recorded, detail);
    } finally {
      this.#release();
    }
  }

  async #acquire(): Promise<void> {
    if (this.#inFlight < this.#options.concurrency) {
      this.#inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#inFlight--;
  }
}

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
    parts.push('-H', value.includes(KEY_PLACEHOLDER) ? `"${name}: ${value.replaceAll('"', '\\"')}"` : shellQuote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body.length > 2000 ? `${request.body.slice(0, 2000)}…` : request.body));
  return parts.join(' ');
}
