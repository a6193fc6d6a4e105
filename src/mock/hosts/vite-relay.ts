/**
 * The dev server's proxy to the mock, made to relay the mock's answers as the mock gave them. Vite's
 * proxy (http-proxy) makes a broken answer a 502 after 6 s and a stack in the log, leaves the app's
 * connection open for good after a truncated body, and copies the mock's `Connection: close` (a field
 * of the connection it was sent on, RFC 9110 7.6.1) onto the app's, which drops the requests pipelined
 * behind. The app must see what it would see from the mock itself (docs/mock-faults.md): the same break
 * on its own connection, each fault in its order, the connection otherwise kept.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ProxyOptions } from 'vite';
import { MAX_RESPONSE_BYTES } from '../../bounds/budget.js';
import { LONGEST_WAIT_MS, wholeNumberIn } from '../../bounds/option-value.js';
import { MOCK_BOUNDS } from '../core/defaults.js';
import { type FaultKind, MAX_TRICKLE_MS } from '../core/faults.js';
import { errorResponse, type MockResponse } from '../core/messages.js';
import { writeFault } from '../pipeline/node-faults.js';
import { writeResponse } from './node-server.js';

/** `Preference-Applied` naming the truncate fault. */
const TRUNCATED = /(?:^|,)\s*fault=truncate\s*(?:,|$)/;

type HttpProxy = Parameters<NonNullable<ProxyOptions['configure']>>[0];

/**
 * The fault the mock made, by how the connection to it broke before an answer: Node says `read
 * ECONNRESET` for a reset, `socket hang up` for a close, an `HPE_` code for bytes that are not HTTP.
 * Anything else is the mock not reached.
 */
function faultOf(error: NodeJS.ErrnoException): FaultKind | undefined {
  if (error.code?.startsWith('HPE_')) return 'garbage';
  if (error.code !== 'ECONNRESET') return undefined;
  return error.syscall === 'read' ? 'reset' : 'close';
}

/** Runs `then` with the response's socket once it has one: a response pipelined behind others waits for it. */
function withSocket(response: ServerResponse, then: (socket: Socket) => void): void {
  if (response.socket) then(response.socket);
  // Node emits 'socket' before it flushes what was written while waiting; what `then` does comes after.
  else response.once('socket', (socket: Socket) => setImmediate(() => then(socket)));
}

/** The fields of the mock's connection (RFC 9110 7.6.1): `Connection` and those it names. */
function dropConnectionFields(upstream: IncomingMessage): void {
  const named = String(upstream.headers.connection ?? '').split(',');
  for (const name of ['connection', 'keep-alive', ...named]) delete upstream.headers[name.trim().toLowerCase()];
}

/**
 * The answer when the mock was not reached (a `target` not started yet, restarting, or stopped): the
 * spec's Error, as `--proxy` answers for a deployment that does not answer, where Vite would send a bare
 * 502 and print the request's URL (a key in its query) with a stack.
 */
function notReached(response: ServerResponse, error: NodeJS.ErrnoException, origin: string, keyless: (response: MockResponse) => MockResponse): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const reason = error.code ?? error.name;
  const message = `The mock at ${origin} did not answer (${reason}): the dev server sends /v1 and /__mock/ to it; start it, or point petstoreMock({ target }) at a running one.`;
  // The origin is the user's `target`, whose host may be named after the key: hidden as the seam's Errors hide it.
  writeResponse(response, keyless(errorResponse('service_unavailable', message)), false);
}

/**
 * The longest a mock's whole answer may take by its own rules: its longest `--delay`, then a trickle
 * (`fault=slow`) at its longest, and the 10 s `--proxy` gives a deployment besides. A target that takes
 * the request and never answers (stopped in a debugger, a port another server holds) held the app's
 * request for good, and one sending a byte a second or without end was relayed for as long (red team 13 #3).
 */
export const RELAY_ANSWER_MS = MOCK_BOUNDS.delay[1] + MAX_TRICKLE_MS + 10_000;

/** `petstoreMock({ target, answerMs })`, checked where it enters. */
export function checkAnswerMs(answerMs: unknown): number {
  return wholeNumberIn('petstoreMock: answerMs', answerMs, [1, LONGEST_WAIT_MS], RELAY_ANSWER_MS);
}

/**
 * Ends the exchange with the mock past `answerMs`, or past the most the package reads of an answer
 * (`MAX_RESPONSE_BYTES`, above any answer a mock makes): before its head, the spec's 503 Error (as a
 * mock not reached); after it, the app's connection ends, as after a truncated answer.
 */
function boundExchanges(proxy: HttpProxy, answerMs: number): void {
  proxy.on('proxyReq', (proxyRequest) => {
    const late = () => proxyRequest.destroy(Object.assign(new Error(`no whole answer within ${answerMs} ms`), { name: 'TimeoutError' }));
    const timer = setTimeout(late, answerMs);
    proxyRequest.once('close', () => clearTimeout(timer));
  });
  proxy.on('proxyRes', (upstream) => {
    let bytes = 0;
    upstream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_RESPONSE_BYTES) upstream.destroy();
    });
  });
}

/** Has `proxy` relay the mock's faults and keep the app's connection its own (for `configure`), each exchange within `answerMs`. */
export function relayAsMock(proxy: HttpProxy, options: ProxyOptions, keyless: (response: MockResponse) => MockResponse, answerMs = RELAY_ANSWER_MS): void {
  const origin = String(options.target);
  boundExchanges(proxy, answerMs);
  proxy.on('proxyRes', (upstream, request, response) => {
    const mockCloses = /(?:^|,)\s*close\s*(?:,|$)/i.test(String(upstream.headers.connection ?? ''));
    dropConnectionFields(upstream);
    const endConnection = () => withSocket(response, (socket) => socket.destroySoon());
    const endAfterAnswer = () =>
      withSocket(response, (socket) => (response.writableFinished ? socket.destroySoon() : response.once('finish', () => socket.destroySoon())));
    // An answer before the request's body came whole (the mock's 408 to a slow sender, its 413): the
    // mock ended its connection after it, and so does the proxy, as the rest of the body is no request;
    // the app's connection was held, the client still sending, until Node's 300 s request timeout.
    if (mockCloses && !request.complete) endAfterAnswer();
    // A truncated body: the app's connection ends after the half that came, as the mock's did.
    upstream.on('close', () => {
      if (!upstream.complete) endConnection();
    });
    // A truncated HEAD has no body to cut, and the mock closes its connection after the head: so does
    // the proxy, when the answer says it was asked for (a fault drawn by `faults` says nothing of itself).
    // Node takes the socket from a response as it finishes, so it is held from before.
    if (TRUNCATED.test(String(upstream.headers['preference-applied'] ?? ''))) endAfterAnswer();
  });
  // A fault is the mock's answer, not the proxy's error: it is made on the app's connection; a mock not
  // reached is the spec's Error. Vite's error listener (a 502, the URL and a stack in the log) never hears of either.
  const emitter = proxy as unknown as { emit(event: string | symbol, ...args: unknown[]): boolean };
  const emit = emitter.emit.bind(emitter);
  emitter.emit = (event, ...args) => {
    const [error, , response] = args;
    if (event !== 'error' || !(error instanceof Error) || !(response instanceof Object) || !('req' in response)) return emit(event, ...args);
    const kind = faultOf(error);
    if (kind === undefined) notReached(response as ServerResponse, error, origin, keyless);
    else writeFault(response as ServerResponse, { kind, trickleMs: 0 }, 0, [], '');
    return true;
  };
}
