/**
 * The forwarding proxy between the Pact Verifier and the deployment. The Pact Verifier reads
 * whatever it is sent, with no limit on size, decompression or time; every request of the Pact
 * suite goes through here instead, so both suites are bounded alike: the same body cap
 * (`MAX_RESPONSE_BYTES`, after decompression), the same --timeout, --rps and --concurrency, and each
 * request counted in the report's totals.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES } from '../../http/limits.js';
import { type JsonValue, parseJson, stringifyJson } from '../../json/lossless.js';
import { jsonMediaTypeProblem } from '../../openapi/conformance.js';
import {
  bodyCapMessage,
  describeFailure,
  KEY_PLACEHOLDER,
  RATE_LIMIT_RETRIES,
  type RecordedRequest,
  rateLimitedMessage,
  retryAfterMs,
  type TransportProblem,
  waitWithin,
} from '../http.js';
import type { Pacer } from '../pace.js';

/** Something the proxy stopped or could not get, reported as the interaction's failure. */
export interface ProxyProblem {
  /** `too-large` is the deployment breaking the contract; the others mean it could not be asked. */
  readonly problem: TransportProblem;
  readonly request: RecordedRequest;
  readonly message: string;
}

export interface BoundedProxyOptions {
  /** The deployment's base URL, ending in its version prefix. */
  readonly target: string;
  /** The spec's base path (`/v1`): pact paths carry it, the target already ends in it. */
  readonly basePath: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly pacer: Pacer;
  readonly deadline?: AbortSignal | undefined;
  readonly maxBodyBytes?: number;
  /** The exact integers beyond 2^53 the provider states handed to the Pact Verifier so far. */
  readonly exactValues: () => Iterable<bigint>;
  /** Called as each request leaves for the deployment, with its method: the run's count. */
  readonly onSend: (method: string) => void;
  /** True while a provider state is set up, so that its requests are not taken for the interaction's. */
  readonly settingUp: () => boolean;
}

export interface BoundedProxy {
  /** `http://127.0.0.1:<port>`: give it to the Pact Verifier as the provider's base URL. */
  readonly url: string;
  /** What was capped or failed, in order. */
  readonly problems: ProxyProblem[];
  /** The Pact Verifier's own requests, as sent to the deployment, in order: the evidence of its findings. */
  readonly forwarded: RecordedRequest[];
  close(): Promise<void>;
}

// Hop-by-hop headers, and those that describe a body as it was on the wire rather than as forwarded.
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host', 'accept-encoding', 'upgrade']);

/** Reads a stream as bytes, or `undefined` (and cancels it) once it passes `maxBytes`. */
async function readBytesLimited(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer | undefined> {
  if (stream === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    // Leaving the loop cancels the stream, and with it the download and any decompression.
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The Pact JS proxy in front of the Verifier parses JSON request bodies with `JSON.parse`, which
 * rounds every integer beyond 2^53. A rounded integer that equals, as a double, an exact value a
 * provider state handed out is put back to that exact value; nothing else is touched.
 */
export function restoreExactIntegers(body: string, exact: Iterable<bigint>): string {
  const known = [...exact];
  if (known.length === 0) return body;
  let json: JsonValue;
  try {
    json = parseJson(body);
  } catch {
    return body;
  }
  let changed = false;
  const restore = (value: JsonValue): JsonValue => {
    if (typeof value === 'bigint') {
      const original = known.find((candidate) => candidate !== value && Number(candidate) === Number(value));
      if (original === undefined) return value;
      changed = true;
      return original;
    }
    if (Array.isArray(value)) return value.map(restore);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, restore(inner)]));
    return value;
  };
  const restored = restore(json);
  return changed ? stringifyJson(restored) : body;
}

/**
 * Media types are case-insensitive and may carry whitespace around `;` (RFC 9110 §8.3.1), but the
 * Pact Verifier matches Content-Type with a case-sensitive regex (`^application\/json(;.*)?$`). A
 * Content-Type the spec suite accepts as JSON is handed on in its canonical form: the media type and
 * parameter names in lower case, no whitespace around `;` and `=`, `charset=utf-8` in lower case.
 * Anything else is handed on as it came, for the Pact Verifier to judge.
 */
export function canonicalJsonContentType(contentType: string): string {
  if (jsonMediaTypeProblem(contentType) !== undefined) return contentType;
  const [essence = '', ...parameters] = contentType.split(';');
  const canonical = parameters
    .filter((parameter) => parameter.trim() !== '')
    .map((parameter) => {
      const equals = parameter.indexOf('=');
      const name = (equals < 0 ? parameter : parameter.slice(0, equals)).trim().toLowerCase();
      const value = equals < 0 ? '' : parameter.slice(equals + 1).trim();
      return name === 'charset' ? 'charset=utf-8' : `${name}=${value}`;
    });
  return [essence.trim().toLowerCase(), ...canonical].join(';');
}

function errorBody(message: string): string {
  return JSON.stringify({ code: 'petstore_verify_proxy', message, status: 502 });
}

/** Starts the proxy on 127.0.0.1, on a free port. */
export async function startBoundedProxy(options: BoundedProxyOptions): Promise<BoundedProxy> {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_RESPONSE_BYTES;
  const target = options.target.replace(/\/+$/, '');
  const prefix = new RegExp(`^${options.basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$|\\?)`);
  const problems: ProxyProblem[] = [];
  const forwarded: RecordedRequest[] = [];

  async function forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const method = (incoming.method ?? 'GET').toUpperCase();
    const url = `${target}${(incoming.url ?? '/').replace(prefix, '')}`;
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value === undefined || NOT_FORWARDED.has(name)) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    // The pact carries a placeholder key; the deployment gets the real one, the record its template.
    const authorized = headers.has('authorization');
    if (authorized) headers.set('authorization', `Bearer ${options.apiKey}`);
    const raw = await readRequestBody(incoming, maxBodyBytes);
    const body = raw === undefined || raw.byteLength === 0 ? undefined : restoreExactIntegers(raw.toString('utf8'), options.exactValues());
    const recorded: RecordedRequest = {
      method,
      url,
      headers: { ...Object.fromEntries(headers), ...(authorized ? { authorization: `Bearer ${KEY_PLACEHOLDER}` } : {}) },
      ...(body === undefined ? {} : { body }),
    };
    if (!options.settingUp()) forwarded.push(recorded);
    const refuse = (problem: TransportProblem, message: string) => {
      problems.push({ problem, request: recorded, message });
      const text = errorBody(message);
      outgoing.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      outgoing.end(text);
    };
    if (raw === undefined) return refuse('too-large', `the Pact Verifier sent a request body larger than ${maxBodyBytes} bytes`);

    try {
      const once = () =>
        options.pacer.run(async () => {
          options.onSend(method);
          const timeout = AbortSignal.timeout(options.timeoutMs);
          const signal = options.deadline ? AbortSignal.any([timeout, options.deadline]) : timeout;
          const response = await fetch(url, { method, headers, body: body ?? null, redirect: 'manual', signal });
          return { response, bytes: await readBytesLimited(response.body, maxBodyBytes) };
        });
      let answer = await once();
      // A 429 is sent again once its Retry-After has passed, as the spec suite does; still limited, the run is told to slow down.
      for (let limited = 0; answer.response.status === 429; limited++) {
        if (limited >= RATE_LIMIT_RETRIES) return refuse('rate-limited', `${method} ${url}: ${rateLimitedMessage(RATE_LIMIT_RETRIES)}`);
        try {
          await waitWithin(retryAfterMs(answer.response.headers.get('retry-after')), options.deadline);
        } catch {
          return refuse('rate-limited', `${method} ${url}: ${rateLimitedMessage(limited)}; the run's deadline fell before its Retry-After passed`);
        }
        answer = await once();
      }
      if (answer.bytes === undefined) return refuse('too-large', `${method} ${url} answered with ${bodyCapMessage(maxBodyBytes)}`);
      const headersBack = [...answer.response.headers]
        .filter(([name]) => !NOT_FORWARDED.has(name) && name !== 'set-cookie')
        .map(([name, value]): [string, string] => [name, name === 'content-type' ? canonicalJsonContentType(value) : value]);
      for (const cookie of answer.response.headers.getSetCookie()) headersBack.push(['set-cookie', cookie]);
      headersBack.push(['content-length', String(answer.bytes.byteLength)]);
      outgoing.writeHead(answer.response.status, headersBack.flat());
      outgoing.end(answer.bytes);
    } catch (error) {
      const { problem, detail } = describeFailure(error, options.deadline, options.timeoutMs);
      refuse(problem, `${method} ${url}: ${detail}`);
    }
  }

  const server: Server = createServer((incoming, outgoing) => {
    forward(incoming, outgoing).catch((error: Error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
      outgoing.end(errorBody(`petstore-verify's proxy failed: ${error.message}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    problems,
    forwarded,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
