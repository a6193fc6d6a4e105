import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wholeNumberIn } from '../../bounds/option-value.js';
import { KeyRedactor } from '../../redact/key-redactor.js';
import { coarseClock } from '../core/coarse-clock.js';
import { idOffsetOf, MOCK_BOUNDS, MOCK_DEFAULTS } from '../core/defaults.js';
import { keylessErrors } from '../core/keyless-errors.js';
import { memoize } from '../core/memo.js';
import { type MockRequest, type MockResponse, wireBody } from '../core/messages.js';
import { checkServerPlace, guardedCallback, optionsObject, text } from '../core/option-checks.js';
import { type MockApi, type MockOptions, mockApiOf } from '../create-mock-api.js';
import { normalizeMockOptions, type ResolvedMockOptions } from '../options.js';
import { guardResponse, hostCheck, joinedHeader } from '../pipeline/host-guard.js';
import { checkTimeouts, createHostServer, lingerThenClose, readBody, type ServerTimeouts } from '../pipeline/http-server.js';
import { writeFault } from '../pipeline/node-faults.js';
import { detailRedactor, targetRedactor } from '../pipeline/request-log.js';
import { displayUrl, namespaceProblem } from '../state/redis/redis-store.js';
import { openSharedState, type SharedState } from '../state/redis/shared-state.js';
import { type OpenStateFile, openStateFile } from '../state/state-file.js';

/**
 * Options of `startMockServer`: those of the mock (`apiKey`, `seed`, `count`, `delay`...), and where to listen.
 * @example
 * const options: MockServerOptions = { port: 0, apiKey: 'test-key', seed: 7, count: 10 };
 */
export interface MockServerOptions extends MockOptions {
  /** TCP port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Interface to bind. Default `127.0.0.1`: only this machine can reach the mock. */
  readonly host?: string;
  /**
   * Host names, besides `localhost` and IP addresses, that requests may name in `Host` (any port).
   * Any other `Host` is rejected with a 403 Error, so that a web page cannot reach the mock through
   * a name it points at this machine (DNS rebinding). Default: none.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * With a `host` beyond loopback, take the public default key `petstore-dev-key` (as the only key, or
   * among `apiKey`/`apiKeys`) instead of throwing: it says the default is meant, as `--allow-default-key`
   * does. Default false.
   */
  readonly allowDefaultKey?: boolean;
  /** Called once per request responded to, with a log line (method, path, status, ms); never holds a key. */
  readonly onRequest?: (line: string) => void;
  /**
   * A JSON file that keeps created pets across restarts: read at start, written durably before each
   * 201, and locked while the server runs so that no second mock writes it. A file that is not a
   * state file, is read-only, sits in a missing or unwritable folder, or is in use by another
   * process is rejected with a `StateFileError`.
   */
  readonly stateFile?: string;
  /** How long a slow client may hold a connection; defaults suit a dev server. */
  readonly timeouts?: ServerTimeouts;
  /**
   * `redis://[user:password@]host:port[/db]`: keep every piece of state in Redis, shared with every
   * other mock on the same Redis and namespace (docs/redis.md). Needs the `ioredis` package. A Redis
   * that does not respond at start rejects with a `StoreUnavailableError`, and so does one whose
   * `maxmemory-policy` may evict keys (its `exitCode` is 2: a setting to change). Default: state in this process.
   */
  readonly store?: string;
  /** The key prefix in Redis, so that several mocks share one Redis. Default: `petstore`. */
  readonly namespace?: string;
  /** Milliseconds a Redis command may take before the request that needs it gets a 503. Default: 3 000. */
  readonly storeTimeout?: number;
}

export { isLoopback } from '../pipeline/server-reach.js';

/**
 * A running Node server hosting the mock's handler.
 * @example
 * const server: MockServer = await startMockServer();
 * server.mock.reset(); // back to the seeded pets
 * await server.close();
 */
export interface MockServer {
  /** The API's base URL, ending in `/v1`: `http://127.0.0.1:4010/v1`. */
  readonly url: string;
  readonly port: number;
  /** The mock behind the server: its store and `reset()`. */
  readonly mock: MockApi;
  /** Stops accepting connections, lets requests in flight finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** The clock requests are timed by, read once: Node's global `performance` is a getter that costs more than the `now()` it is read for. */
const clock = performance;

/** A Node request as the handler's `MockRequest`: one object per request, its methods shared. */
class NodeRequest implements MockRequest {
  readonly method: string;
  readonly target: string;
  /** Set when the body was too large to read: the connection must then be closed after the response. */
  bodyLeftUnread = false;
  /** When the request arrived (`performance.now()`), for the request log and the journal; 0 when neither times it. */
  readonly started: number;
  readonly #request: IncomingMessage;
  // Node's `headers` is a getter: the object is fetched once, not on every header read.
  readonly #headers: IncomingMessage['headers'];

  constructor(request: IncomingMessage, started: number) {
    this.#request = request;
    this.#headers = request.headers;
    this.started = started;
    this.method = request.method ?? 'GET';
    this.target = request.url ?? '/';
  }

  header(name: string): string | undefined {
    // Node keeps only the first of several Authorization headers; fetch joins them, and so does this,
    // so that an ambiguous credential is rejected on every host.
    if (name === 'authorization') return joinedHeader(this.#request.rawHeaders, name);
    const value = this.#headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  text(maxBytes: number): Promise<string | undefined> {
    return readBody(this.#request, maxBytes, this);
  }
}

function flatten(headers: MockResponse['headers']): (string | number)[] {
  const flat: (string | number)[] = ['content-length', 0];
  for (const [name, value] of Object.entries(headers)) flat.push(name, value);
  return flat;
}

/**
 * A response's headers as the flat `['content-length', <length>, name, value, ...]` list `writeHead`
 * takes fastest: the list of its prepared headers, made once for many responses; made for this
 * response when it has none, or when its headers are no longer the prepared ones.
 */
export function headerList(response: MockResponse, closeConnection: boolean): (string | number)[] {
  const { prepared } = response;
  const flat = prepared !== undefined && prepared.record === response.headers ? prepared.list : flatten(response.headers);
  return closeConnection ? [...flat, 'connection', 'close'] : flat;
}

/** Writes `response` as the mock's server writes every answer: its prepared head, its true Content-Length, its fault if it has one. */
export function writeResponse(outgoing: ServerResponse, response: MockResponse, closeConnection: boolean): void {
  const headers = headerList(response, closeConnection);
  // writeHead copies the list into the head it writes before it returns: a shared list is free again at once.
  // A HEAD's Content-Length is the GET's (RFC 9110 9.3.2), though Node sends no body with it.
  headers[1] = Buffer.byteLength(response.body);
  if (response.fault) writeFault(outgoing, response.fault, response.status, [...headers], wireBody(outgoing.req.method ?? 'GET', response));
  else {
    outgoing.writeHead(response.status, headers);
    outgoing.end(response.body);
  }
}

/** The URL clients reach a server bound to `host` by: a wildcard address is reached on loopback. */
export function serverUrl(host: string, port: number, basePath: string): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}${basePath}`;
}

/** What every request of one server needs: the mock, who may reach it, the request log, and whether it is closing. */
interface ServerContext {
  readonly mock: MockApi;
  readonly onRequest: ((line: string) => void) | undefined;
  /** Whether a request is stamped when it arrives: for the request log, or for the journal's latency, which starts at the same moment. */
  readonly timed: boolean;
  /** The request-target as the log shows it, without keys. */
  readonly redact: (target: string) => string;
  /** The log's detail (`key=ci session=NAME`) without keys. */
  readonly redactDetail: (detail: string) => string;
  /** The guard's rejection of a request, an Error without the mock's keys: it may quote the `Host` or `Origin` sent. */
  readonly guard: (received: MockRequest, request: IncomingMessage) => MockResponse | undefined;
  /** Set once `close` begins: every response after that asks the client to close its connection. */
  closing: boolean;
}

/** The state file's lock and the connection to Redis a server holds, and how to let both go. */
interface HeldState {
  readonly state: OpenStateFile | undefined;
  readonly shared: SharedState | undefined;
  release(): Promise<void>;
}

/** At most one of the two: a locked state file, or the state in Redis (which has no file to save). */
async function openState(options: MockServerOptions, settings: ResolvedMockOptions): Promise<HeldState> {
  const { stateFile, store } = options;
  const state =
    stateFile === undefined
      ? undefined
      : await openStateFile(stateFile, {
          seed: settings.seed,
          count: settings.count,
          idOffset: idOffsetOf(settings.bigIds),
          data: settings.data,
          model: settings.spec.model,
        });
  const shared =
    store === undefined
      ? undefined
      : await openSharedState({
          ...settings,
          url: store,
          ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
          ...(options.storeTimeout === undefined ? {} : { commandTimeoutMs: options.storeTimeout }),
        });
  return {
    state,
    shared,
    release: async () => {
      await state?.close();
      await shared?.close();
    },
  };
}

/** The mock over the held state; a mock that cannot be made lets the state go. */
async function createMock(settings: ResolvedMockOptions, held: HeldState): Promise<MockApi> {
  const { state, shared } = held;
  try {
    return mockApiOf({
      ...settings,
      ...(shared ? { shared } : {}),
      ...(state ? { restore: state.saved, persist: (saved) => state.writer.save(saved) } : {}),
    });
  } catch (error) {
    await held.release();
    throw error;
  }
}

/**
 * Milliseconds to a tenth, as the journal rounds its latency (`Math.round`), so that the log and the
 * journal show one figure: in a third of the time `toFixed(1)` takes, which the log paid on every line.
 */
function tenthsOf(ms: number): string {
  const tenths = Math.round(ms * 10);
  return `${Math.trunc(tenths / 10)}.${tenths % 10}`;
}

/** Writes the response, closes the connection when the body was left unread, and logs the request. */
function sendResponse(context: ServerContext, request: IncomingMessage, received: NodeRequest, outgoing: ServerResponse, response: MockResponse): void {
  if (received.bodyLeftUnread) lingerThenClose(request, outgoing);
  writeResponse(outgoing, response, context.closing);
  const { onRequest } = context;
  if (onRequest) {
    onRequest(
      `${request.method} ${context.redact(received.target)} ${response.status}${response.fault ? ` fault=${response.fault.kind}` : ''} ${tenthsOf(clock.now() - received.started)}ms${response.logDetail ? ` ${context.redactDetail(response.logDetail)}` : ''}`,
    );
  }
}

/**
 * Responds to one request: with the server's own rejection, or else with `rejection` when one is
 * given (a request the mock cannot serve), or else with the mock's response once it is made.
 */
function handleRequest(context: ServerContext, request: IncomingMessage, outgoing: ServerResponse, rejection?: MockResponse): void {
  const received = new NodeRequest(request, context.timed ? clock.now() : 0);
  // Before the handler: a Host the server does not serve, or an admin request a page could have forged.
  const rejected = context.guard(received, request) ?? rejection;
  if (rejected) {
    sendResponse(context, request, received, outgoing, rejected);
    return;
  }
  const response = context.mock.respond(received);
  if (response instanceof Promise) void response.then((made) => sendResponse(context, request, received, outgoing, made));
  else sendResponse(context, request, received, outgoing, response);
}

/** Listens on `port` and `host`, and resolves to the port listened on (a free one for 0). */
async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Safe: a server listening on a TCP port, not a pipe, has an AddressInfo for its address.
  return (server.address() as AddressInfo).port;
}

/** Stops accepting connections, lets requests in flight finish for at most `graceMs`, then lets the state go. */
function closeServer(context: ServerContext, server: Server, held: HeldState, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    context.closing = true;
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      // The lock goes, and Redis is let go, once no request can save any more.
      void held.release().then(resolve);
    });
    server.closeIdleConnections();
  });
}

/**
 * The server's own options checked where they enter, before any file or Redis is opened (the mock's
 * options are `normalizeMockOptions`'): where it listens (`checkServerPlace`), its time-outs, the state
 * file's path, and the store's URL (`parseUserUrl`, in `displayUrl`), namespace and time-out.
 */
export function checkedServerOptions(given: MockServerOptions, where = 'startMockServer'): MockServerOptions {
  const options = optionsObject(where, given);
  checkServerPlace(where, options);
  checkTimeouts(options.timeouts);
  if (text('stateFile', options.stateFile, "'./pets-state.json'") === '')
    throw new TypeError('stateFile must name a file, such as ./pets-state.json; got an empty string');
  if (text('store', options.store, "'redis://127.0.0.1:6379'") !== undefined) displayUrl(options.store as string);
  const namespace = text('namespace', options.namespace, "'petstore'");
  const problem = namespace === undefined ? undefined : namespaceProblem(namespace);
  if (problem !== undefined) throw new TypeError(`namespace: ${problem}`);
  wholeNumberIn('storeTimeout', options.storeTimeout, MOCK_BOUNDS.storeTimeout, 0);
  return options;
}

/**
 * Starts the mock on a real HTTP port, for a dev server or a test suite's global setup.
 * @example
 * // vitest globalSetup
 * const server = await startMockServer({ port: 0 });
 * process.env.API_URL = server.url; // http://127.0.0.1:<port>/v1
 * // ... later
 * await server.close();
 */
export async function startMockServer(given: MockServerOptions = {}): Promise<MockServer> {
  const options = checkedServerOptions(given);
  const host = options.host ?? MOCK_DEFAULTS.host;
  if (options.stateFile !== undefined && options.store !== undefined) {
    throw new TypeError('stateFile and store cannot go together: with a store, Redis keeps the pets (see its AOF settings in docs/redis.md).');
  }
  const settings = normalizeMockOptions(
    { ...options, now: options.now ?? coarseClock() },
    {
      host,
      allowedHosts: options.allowedHosts,
      allowDefaultKey: options.allowDefaultKey,
    },
  );
  const held = await openState(options, settings);
  const mock = await createMock(settings, held);
  // The seed drawn before the server listens (faker loads for a seed or count not drawn already): a seed
  // that cannot be drawn (a variant's x-faker asking for values no create accepts) stops the start with
  // its sentence, where every request would have been a 500.
  await mock.ready;
  // Whether a `Host` names this server: localhost, an IP address, the bound name (one its clients use) or an allowed one.
  const hostAllowed = hostCheck([...(options.allowedHosts ?? []), host]);
  const keyless = keylessErrors(new KeyRedactor(mock.options.apiKeys, { shortAsToken: true }));
  const context: ServerContext = {
    mock,
    onRequest: guardedCallback('onRequest', options.onRequest, '(line) => console.log(line)'),
    timed: options.onRequest !== undefined || mock.options.journalSize > 0,
    // Hiding keys is the log's dearest step, and a pure function of the text: paid once per distinct target or detail.
    redact: memoize(targetRedactor(mock.options.apiKeys, mock.options.basePath)),
    redactDetail: memoize(detailRedactor(mock.options.apiKeys)),
    guard: (received, request) => {
      const rejected = guardResponse(hostAllowed, received, request);
      return rejected && keyless(rejected);
    },
    closing: false,
  };
  const server = createHostServer(
    checkTimeouts(options.timeouts),
    (request) => context.guard(new NodeRequest(request, 0), request),
    (request, outgoing, rejection) => handleRequest(context, request, outgoing, rejection),
  );
  const port = await listen(server, options.port ?? 0, host).catch(async (error: unknown) => {
    await held.release();
    throw error;
  });
  return {
    url: serverUrl(host, port, mock.options.basePath),
    port,
    mock,
    close: (graceMs = 5_000) => closeServer(context, server, held, graceMs),
  };
}
