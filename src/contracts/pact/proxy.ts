/**
 * The forwarding proxy between the Pact Verifier and the deployment. The Pact Verifier reads
 * whatever it is sent, with no limit on size, decompression or time, and follows redirects; every
 * request of the Pact suite goes through here instead, so both suites are bounded alike: the same
 * body cap (`MAX_RESPONSE_BYTES`, after decompression), no redirect followed, the same --timeout,
 * --rps and --concurrency, and each request counted in the report's totals.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { MAX_RESPONSE_BYTES } from '../../bounds/budget.js';
import { isWrite } from '../../http/methods.js';
import { jsonMediaTypeProblem } from '../../openapi/conformance.js';
import { excerpt } from '../../terminal/excerpt-text.js';
import {
  bodyCapMessage,
  describeFailure,
  type ExchangeObserver,
  KEY_PLACEHOLDER,
  RATE_LIMIT_RETRIES,
  type RecordedRequest,
  rateLimitedMessage,
  retryAfterMs,
  type TransportProblem,
  waitWithin,
} from '../http.js';
import type { Pacer } from '../pace.js';
import { readBody, send, type TransportResponse } from '../transport.js';
import { listenOnLoopback } from './loopback.js';

/** Something the proxy stopped or could not get, reported as the interaction's failure. */
export interface ProxyProblem {
  /** `too-large`, `redirect` and `dropped` are the deployment breaking the contract (see `breaksContract`); the others mean it could not be asked. */
  readonly problem: TransportProblem | 'redirect';
  readonly request: RecordedRequest;
  readonly message: string;
}

/**
 * Whether the deployment responded, but with what petstore-verify never hands on (a body past the
 * cap, a redirect), or stopped answering (`dropped`): the interaction fails. Any other problem means
 * it could not be asked: an error.
 */
export function breaksContract(problem: ProxyProblem): boolean {
  return problem.problem === 'too-large' || problem.problem === 'redirect' || problem.problem === 'dropped';
}

export interface BoundedProxyOptions {
  /** The deployment's base URL, ending in its version prefix. */
  readonly target: string;
  /** The spec's base path (`/v1`): pact paths start with it, the target already ends in it. */
  readonly basePath: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly pacer: Pacer;
  readonly deadline?: AbortSignal | undefined;
  readonly maxBodyBytes?: number;
  /** Writes (requests of a method that is not safe) the run's budget allows the Pact suite: past them none is sent. */
  readonly writesLeft: number;
  /** Called as each request leaves for the deployment, with its method: the run's count. */
  readonly onSend: (method: string) => void;
  /** True while a provider state is set up, so that its requests are not taken for the interaction's. */
  readonly settingUp: () => boolean;
  /** Hears each response read whole, as the deployment sent it (not yet redacted): the run's coverage and HAR. */
  readonly onExchange?: ExchangeObserver;
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

/**
 * Media types are case-insensitive and may have whitespace around `;` (RFC 9110 §8.3.1), but the
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

/** What every forwarded request shares: where it goes, how it is bounded, and where what happened is recorded. */
interface BoundedProxyContext {
  readonly options: BoundedProxyOptions;
  /** The deployment's base URL without a trailing slash. */
  readonly target: string;
  /** Matches the spec's base path at the start of a pact's path: it is dropped, the target already ends in it. */
  readonly basePath: RegExp;
  readonly maxBodyBytes: number;
  readonly problems: ProxyProblem[];
  readonly forwarded: RecordedRequest[];
  /** Writes sent so far, each taken from `writesLeft`. */
  writes: number;
  /** The last request the deployment answered: a crash after an answer most likely came from it. */
  lastAnswered?: RecordedRequest;
}

function proxyContext(options: BoundedProxyOptions): BoundedProxyContext {
  return {
    options,
    target: options.target.replace(/\/+$/, ''),
    basePath: new RegExp(`^${options.basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$|\\?)`),
    maxBodyBytes: options.maxBodyBytes ?? MAX_RESPONSE_BYTES,
    problems: [],
    forwarded: [],
    writes: 0,
  };
}

/** A request of the Pact Verifier as it goes to the deployment, and as the report records it. */
interface OutgoingRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  /** True when the Verifier sent a body larger than the cap: it is not forwarded. */
  readonly bodyTooLarge: boolean;
  readonly recorded: RecordedRequest;
}

/** The request's headers to forward: hop-by-hop ones dropped, the placeholder key replaced by the real one. */
function forwardedHeaders(context: BoundedProxyContext, incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  if (headers.has('authorization')) headers.set('authorization', `Bearer ${context.options.apiKey}`);
  return headers;
}

async function outgoingRequest(context: BoundedProxyContext, incoming: IncomingMessage): Promise<OutgoingRequest> {
  const method = (incoming.method ?? 'GET').toUpperCase();
  const url = `${context.target}${(incoming.url ?? '/').replace(context.basePath, '')}`;
  const headers = forwardedHeaders(context, incoming);
  // The pact holds a placeholder key; the deployment gets the real one, the record its template.
  const authorized = headers.has('authorization');
  const raw = await readBody(incoming, context.maxBodyBytes);
  const body = raw === undefined || raw.byteLength === 0 ? undefined : raw.toString('utf8');
  const recorded: RecordedRequest = {
    method,
    url,
    headers: { ...Object.fromEntries(headers), ...(authorized ? { authorization: `Bearer ${KEY_PLACEHOLDER}` } : {}) },
    ...(body === undefined ? {} : { body }),
  };
  return { method, url, headers, body, bodyTooLarge: raw === undefined, recorded };
}

/** Why the proxy sends the Verifier a 502 instead of the deployment's response. */
interface Rejection {
  readonly problem: ProxyProblem['problem'];
  readonly message: string;
}

/** The deployment's response, its body read up to the cap (`undefined` past it). */
interface BoundedResponse {
  readonly response: TransportResponse;
  readonly bytes: Buffer | undefined;
}

/** Sends the request once, paced with the run's other requests, and counted as it leaves. */
function sendOnce(context: BoundedProxyContext, request: OutgoingRequest): Promise<BoundedResponse> {
  const { options } = context;
  return options.pacer.run(async () => {
    options.onSend(request.method);
    const [startedAt, started] = [Date.now(), performance.now()];
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.deadline ? AbortSignal.any([timeout, options.deadline]) : timeout;
    const response = await send(request.url, { method: request.method, headers: request.headers, body: request.body, signal });
    const bytes = await readBody(response.body, context.maxBodyBytes);
    if (bytes !== undefined)
      options.onExchange?.({
        request: request.recorded,
        status: response.status,
        headers: [...response.headers],
        text: bytes.toString('utf8'),
        startedAt,
        ms: performance.now() - started,
      });
    return { response, bytes };
  });
}

/** Takes a write from the Pact suite's budget, each one sent again after a 429 counted, or says none is left. */
function budgetSpent(context: BoundedProxyContext, request: OutgoingRequest): Rejection | undefined {
  if (!isWrite(request.method) || context.writes++ < context.options.writesLeft) return undefined;
  return {
    problem: 'budget',
    message: `${request.method} ${request.url} not sent: the run has sent the ${context.options.writesLeft} writes its budget allows the Pact suite`,
  };
}

/** A 429 is sent again once its Retry-After has passed, as the spec suite does; still limited, the run is told to slow down. */
async function sendPastRateLimits(context: BoundedProxyContext, request: OutgoingRequest): Promise<BoundedResponse | Rejection> {
  const where = `${request.method} ${request.url}`;
  for (let limited = 0; ; limited++) {
    const spent = budgetSpent(context, request);
    if (spent) return spent;
    const sent = await sendOnce(context, request);
    if (sent.response.status !== 429) return sent;
    if (limited >= RATE_LIMIT_RETRIES) return { problem: 'rate-limited', message: `${where}: ${rateLimitedMessage(RATE_LIMIT_RETRIES)}` };
    try {
      await waitWithin(retryAfterMs(sent.response.headers.get('retry-after')), context.options.deadline);
    } catch {
      return { problem: 'rate-limited', message: `${where}: ${rateLimitedMessage(limited)}; the run's deadline fell before its Retry-After passed` };
    }
  }
}

/** The deployment's response headers as handed to the Verifier: hop-by-hop ones dropped, JSON's Content-Type canonical. */
function responseHeaders(response: TransportResponse, bytes: Buffer): string[] {
  const headers = [...response.headers]
    .filter(([name]) => !NOT_FORWARDED.has(name) && name !== 'set-cookie')
    .map(([name, value]): [string, string] => [name, name === 'content-type' ? canonicalJsonContentType(value) : value]);
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  headers.push(['content-length', String(bytes.byteLength)]);
  return headers.flat();
}

/**
 * A redirect is never handed to the Verifier: its HTTP client would follow the Location itself,
 * straight to wherever it points, past this proxy and so past every bound (a 307 sends the POST body
 * along, and the new host's response would be judged as the deployment's). Any 3xx with a Location
 * is one; a 3xx without it (304) leads nowhere and goes through.
 */
function redirection(request: OutgoingRequest, response: TransportResponse): Rejection | undefined {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || location === null) return undefined;
  return {
    problem: 'redirect',
    message: `the deployment redirected ${request.method} ${request.url} (${response.status}) to ${location}; petstore-verify never follows a redirect, so the request went no further`,
  };
}

/** Records the rejection as the interaction's problem and tells the Verifier with a 502. */
function reject(context: BoundedProxyContext, outgoing: ServerResponse, request: OutgoingRequest, { problem, message }: Rejection): void {
  context.problems.push({ problem, request: request.recorded, message });
  const text = errorBody(message);
  outgoing.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  outgoing.end(text);
}

/** Forwards one request of the Verifier to the deployment and hands the response back, or a 502 saying why not. */
async function forward(context: BoundedProxyContext, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const request = await outgoingRequest(context, incoming);
  if (!context.options.settingUp()) context.forwarded.push(request.recorded);
  const { method, url } = request;
  if (request.bodyTooLarge)
    return reject(context, outgoing, request, {
      problem: 'too-large',
      message: `the Pact Verifier sent a request body larger than ${context.maxBodyBytes} bytes`,
    });
  try {
    const sent = await sendPastRateLimits(context, request);
    if ('problem' in sent) return reject(context, outgoing, request, sent);
    if (sent.bytes === undefined)
      return reject(context, outgoing, request, { problem: 'too-large', message: `${method} ${url} answered with ${bodyCapMessage(context.maxBodyBytes)}` });
    const redirected = redirection(request, sent.response);
    if (redirected) return reject(context, outgoing, request, redirected);
    context.lastAnswered = request.recorded;
    outgoing.writeHead(sent.response.status, responseHeaders(sent.response, sent.bytes));
    outgoing.end(sent.bytes);
  } catch (error) {
    const { problem, detail } = describeFailure(error, context.options.deadline, context.options.timeoutMs);
    // The Pact suite runs once the deployment has answered the run's first request: a connection it resets, closes or refuses now is a breach.
    if (problem === 'network' || problem === 'refused')
      return reject(context, outgoing, request, {
        problem: 'dropped',
        message: `${method} ${url}: no answer (${detail}), after the deployment had answered this run's requests: it stopped answering (it crashed, or dropped the connection)${lastAnswerNamed(context, problem)}`,
      });
    reject(context, outgoing, request, { problem, message: `${method} ${url}: ${detail}` });
  }
}

/**
 * A refused connection with the deployment gone: the request it answered last, with its body, for a
 * process that dies from work a request started after its answer is refused on the request after it.
 */
function lastAnswerNamed(context: BoundedProxyContext, problem: string): string {
  const last = context.lastAnswered;
  if (problem !== 'refused' || last === undefined) return '';
  const body = last.body === undefined ? '' : ` with the body ${excerpt(last.body)}`;
  return `; the last request it answered was ${last.method} ${last.url}${body}, which may have crashed it after its answer`;
}

/** Starts the proxy on 127.0.0.1, on a free port. */
export async function startBoundedProxy(options: BoundedProxyOptions): Promise<BoundedProxy> {
  const context = proxyContext(options);
  const server: Server = createServer((incoming, outgoing) => {
    forward(context, incoming, outgoing).catch((error: Error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
      outgoing.end(errorBody(`petstore-verify's proxy failed: ${error.message}`));
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, problems: context.problems, forwarded: context.forwarded, close };
}
