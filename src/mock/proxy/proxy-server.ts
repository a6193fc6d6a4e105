/**
 * `petstore-mock --proxy <base url>`: a validating proxy for working against a real deployment. Every
 * API request is forwarded to the deployment (the admin endpoints `/__mock/*` stay local); the request
 * and the response are held to spec/openapi.yaml, each violation logged on one line, added to the
 * response as `X-Contract-Violation` and kept; and the response is compared with the mock's response,
 * with its profile, to the same request in the same state (shadow.ts): the drift report, `GET /__mock/drift`.
 *
 * Every request first passes the mock's own guards (guard.ts): Host, the admin's origin rules, and,
 * when the proxy holds an upstream key, the mock's key from a script or a page of this machine. The key (`upstreamKey`, or the client's own
 * Authorization) goes only to the deployment's origin and under its base path (upstream-url.ts,
 * forward.ts), and never into what the proxy logs, keeps or relays (redact.ts).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_BYTES } from '../../openapi/facts.js';
import { keylessErrors } from '../core/keyless-errors.js';
import { bodyText, errorResponse, type MockRequest, type MockResponse, wireBody } from '../core/messages.js';
import { guardResponse, isAdminTarget, joinedHeader } from '../pipeline/host-guard.js';
import { createHostServer, lingerThenClose, readBody } from '../pipeline/http-server.js';
import { writeFault } from '../pipeline/node-faults.js';
import { checkedProxyOptions, createProxyContext, type ProxyContext, type ProxyOptions } from './context.js';
import type { DriftReport } from './drift-report.js';
import { guardRejection, keyRejection } from './guard.js';
import { journalAnswered, type Noted, operationReached } from './proxy-journal.js';
import { respond } from './respond.js';

export type { ProxyOptions } from './context.js';
export type { ContractViolation, DriftReport } from './drift-report.js';

export interface ProxyServer {
  /** The proxy's base URL, ending in `/v1`. */
  readonly url: string;
  readonly port: number;
  report(): DriftReport;
  close(): Promise<void>;
}

/** A client's request as the mock's guards read it: each header as sent, two of them joined as fetch joins them. */
function receivedRequest(request: IncomingMessage): MockRequest {
  return {
    method: request.method ?? 'GET',
    target: request.url ?? '/',
    header: (name) => joinedHeader(request.rawHeaders, name),
    text: (maxBytes) => readBody(request, maxBytes),
  };
}

/**
 * The response to a request: the guards' rejection, before a byte of the body is read; else
 * `rejection` (an unmet `Expect`) when given; else the forwarded exchange's. A body that is not UTF-8
 * is the mock's 400, forwarded nowhere. Rejects when the client goes away while it sends its body.
 * What the journal keeps of it goes in `noted`: an API request is journalled by the rule of the step
 * that responds, each setting it before it may; the Host guard's rejection and the admin's requests are
 * not, as by the mock.
 */
async function responseTo(
  context: ProxyContext,
  request: IncomingMessage,
  outgoing: ServerResponse,
  noted: Noted,
  rejection?: MockResponse,
): Promise<MockResponse> {
  const received = receivedRequest(request);
  const refused = guardResponse(context.hostAllowed, received, request) ?? rejection;
  if (refused !== undefined) return refused;
  const { method, target } = received;
  if (!isAdminTarget(target)) {
    noted.operation = operationReached(context, method, target);
    noted.rule = 'auth';
  }
  const rejected = keyRejection(context, received);
  if (rejected !== undefined) return rejected;
  if (noted.rule !== undefined) noted.rule = 'validation';
  const read = await bodyText(received, MAX_BODY_BYTES, 'The request body');
  if ('rejection' in read) return read.rejection;
  const body = read.text;
  if (body === undefined) {
    // The rest of a body too large to read is discarded, and the connection closed, as by the mock.
    lingerThenClose(request, outgoing);
    return errorResponse('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB); the proxy does not forward it.`);
  }
  // The body it forwards or answers: none for a GET or a HEAD, which forward none.
  if (body !== '' && method !== 'GET' && method !== 'HEAD') noted.body = body;
  return respond(context, { method, target, headers: request.headers, body }, noted);
}

/**
 * The client's credential to hide beside the keys the proxy knows, in what it answers and logs: the
 * deployment's own key when the proxy holds none and relays the client's. With `--upstream-key` the
 * proxy relays only a request holding one of the mock's keys, which it hides anyway, and makes no
 * redactor for every credential a refused client could send (each one compiles its patterns).
 */
function credentialToHide(context: ProxyContext, request: IncomingMessage): string | undefined {
  return context.upstreamKey === undefined ? request.headers.authorization : undefined;
}

/** A fault of the proxy itself, as a 500 Error response. */
function proxyFailure(error: unknown): MockResponse {
  return errorResponse(
    'internal_error',
    `The proxy failed: ${error instanceof Error ? error.message : String(error)}. This is a bug in petstore-mock; please report it.`,
  );
}

async function handle(
  context: ProxyContext,
  options: ProxyOptions,
  request: IncomingMessage,
  response: ServerResponse,
  rejection?: MockResponse,
): Promise<void> {
  const started = performance.now();
  const arrived = context.journal === undefined ? 0 : Date.now();
  context.log.countRequest();
  const noted: Noted = { rule: undefined, operation: undefined, body: undefined };
  const answered = await responseTo(context, request, response, noted, rejection).catch((error: unknown) => {
    if (noted.rule !== undefined) noted.rule = 'error';
    return proxyFailure(error);
  });
  // Its own Errors (a path, a Host, the --proxy URL it names) and those of the mock it answers with, without a key it hides.
  const hidden = context.hide(credentialToHide(context, request));
  const made = keylessErrors(hidden)(answered);
  // The deployment's time is the proxy's: a forwarded request's latency is the client's wait.
  const latencyMs = performance.now() - started;
  // A client that went away while it sent its body (a reset, or cut off as too slow) is owed nothing.
  if (request.socket.destroyed) return;
  const { method = 'GET', url = '/', headers } = request;
  const head = [...Object.entries(made.headers).flat(), 'content-length', Buffer.byteLength(made.body)];
  // A fault asked for (`Prefer: fault=`) breaks or trickles the answer on the socket, as the mock's server does.
  if (made.fault) {
    writeFault(response, made.fault, made.status, head, wireBody(method, made));
    // The journal names the fault, as the mock's does: it decides how the answer arrived, if it did.
    if (noted.rule !== undefined) noted.rule = 'fault';
  } else {
    response.writeHead(made.status, head);
    response.end(made.body);
  }
  journalAnswered(context, { method, target: url, headers, arrived, latencyMs, response: made }, noted);
  const target = context.logTarget(url);
  options.onRequest?.(
    `${method} ${context.upstreamKey === undefined && headers.authorization !== undefined ? hidden.text(target) : target} ${made.status}${made.fault ? ` fault=${made.fault.kind}` : ''} ${latencyMs.toFixed(1)}ms`,
  );
}

/** Listens on `port` and `host`, and resolves to the port listened on (a free one for 0). */
function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      // A server listening on a TCP port, not a pipe, has an AddressInfo for its address.
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts the validating proxy in front of `upstream`.
 * @example
 * const proxy = await startProxyServer({ upstream: 'https://staging.example.com/v1', upstreamKey: key });
 * // point the front end at proxy.url; then
 * proxy.report().drift.count;
 */
export async function startProxyServer(given: ProxyOptions): Promise<ProxyServer> {
  const options = checkedProxyOptions(given);
  const context = createProxyContext(options);
  await context.recorder?.start();
  // The mock's own server: its limits on slow clients, and its Error JSON for what Node would answer.
  const server = createHostServer(
    options.timeouts ?? {},
    (request) => {
      const rejected = guardRejection(context, receivedRequest(request), request);
      return rejected && keylessErrors(context.hide(credentialToHide(context, request)))(rejected);
    },
    (request, response, rejection) => void handle(context, options, request, response, rejection),
  );
  const { host } = context;
  const port = await listen(server, options.port ?? 0, host);
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${context.basePath}`,
    port,
    report: () => context.log.report(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
