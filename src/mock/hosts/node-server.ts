import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { coarseClock } from '../core/coarse-clock.js';
import { idOffsetOf, MOCK_DEFAULTS } from '../core/defaults.js';
import type { MockRequest, MockResponse } from '../core/messages.js';
import { type MockApi, type MockOptions, mockApiOf } from '../create-mock-api.js';
import { normalizeMockOptions } from '../options.js';
import { adminProblem, foreignHost, headerValues, hostCheck, isAdminTarget, MISSING_HOST } from '../pipeline/host-guard.js';
import { openSharedState } from '../state/redis/shared-state.js';
import { openStateFile } from '../state/state-file.js';
import { parserErrorAnswer, rawResponse } from './parser-errors.js';
import { targetRedactor } from './request-log.js';

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
   * Any other `Host` is refused with a 403 Error, so that a web page cannot reach the mock through
   * a name it points at this machine (DNS rebinding). Default: none.
   */
  readonly allowedHosts?: readonly string[];
  /** Called once per answered request with a log line (method, path, status, ms); never holds a key. */
  readonly onRequest?: (line: string) => void;
  /**
   * A JSON file that keeps created pets across restarts: read at start, written durably before each
   * 201, and locked while the server runs so that no second mock writes it. A file that is not a
   * state file, is read-only, sits in a missing or unwritable folder, or is in use by another
   * process is refused with a `StateFileError`.
   */
  readonly stateFile?: string;
  /** How long a slow client may hold a connection; defaults suit a dev server. */
  readonly timeouts?: ServerTimeouts;
  /**
   * `redis://[user:password@]host:port[/db]`: keep every piece of state in Redis, shared with every
   * other mock on the same Redis and namespace (docs/redis.md). Needs the `ioredis` package. A Redis
   * that does not answer at start rejects with a `StoreUnavailableError`. Default: state in this process.
   */
  readonly store?: string;
  /** The key prefix in Redis, so that several mocks share one Redis. Default: `petstore`. */
  readonly namespace?: string;
}

/** Limits on slow clients, in milliseconds. */
export interface ServerTimeouts {
  /** To receive a request's headers. Default 10 000. */
  readonly headersMs?: number;
  /** To receive a whole request. Default 30 000. */
  readonly requestMs?: number;
  /** An idle keep-alive connection stays open. Default 5 000. */
  readonly keepAliveMs?: number;
}

export { isLoopback } from '../options.js';

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

/** Reads the body up to `maxBytes`; past that it stops reading and reports the body as too large. */
function readBody(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.off('data', onData).off('end', onEnd);
        request.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size).toString('utf8'));
    request.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

/** A Node request as the handler's `MockRequest`: one object per request, its methods shared. */
class NodeRequest implements MockRequest {
  readonly method: string;
  readonly target: string;
  /** Set when the body was too large to read: the connection must then be closed after the answer. */
  bodyLeftUnread = false;
  /** When the request arrived (`performance.now()`), for the request log; 0 when nothing logs. */
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
    // so that an ambiguous credential is refused on every host.
    if (name === 'authorization') {
      const values = headerValues(this.#request.rawHeaders, name);
      return values.length === 0 ? undefined : values.join(', ');
    }
    const value = this.#headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  async text(maxBytes: number): Promise<string | undefined> {
    // A declared length past the limit is refused before a byte of the body is read.
    const declared = Number(this.#headers['content-length']);
    const text = declared > maxBytes ? undefined : await readBody(this.#request, maxBytes);
    if (text === undefined) this.bodyLeftUnread = true;
    return text;
  }
}

function flatten(headers: MockResponse['headers']): (string | number)[] {
  const flat: (string | number)[] = ['content-length', 0];
  for (const name in headers) flat.push(name, headers[name] as string);
  return flat;
}

/**
 * An answer's headers as the flat `['content-length', <length>, name, value, ...]` list `writeHead`
 * takes fastest: the list its prepared headers carry, made once for many answers; made for this
 * answer when it has none, or when its headers are no longer the prepared ones.
 */
export function headerList(answer: MockResponse, closeConnection: boolean): (string | number)[] {
  const { prepared } = answer;
  const flat = prepared !== undefined && prepared.record === answer.headers ? prepared.list : flatten(answer.headers);
  return closeConnection ? [...flat, 'connection', 'close'] : flat;
}

function writeResponse(response: ServerResponse, answer: MockResponse, closeConnection: boolean): void {
  const headers = headerList(answer, closeConnection);
  // writeHead copies the list into the head it writes before it returns: a shared list is free again at once.
  headers[1] = Buffer.byteLength(answer.body);
  response.writeHead(answer.status, headers);
  response.end(answer.body);
}

/** How long the rest of an oversized body is discarded before the connection is closed. */
const LINGER_MS = 1_000;

/**
 * After answering a body that was too large, discards (never buffers) what the client is still
 * sending for a moment, then closes. Closing at once would reset the connection while the client
 * is still writing, and a reset can destroy the 413 before the client reads it.
 */
function lingerThenClose(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  response.once('finish', () => setTimeout(() => request.socket.destroy(), LINGER_MS).unref());
}

/**
 * Answers a request Node's parser refused with the spec's Error body, unless an answer to it has
 * begun (then only closing is left) or the client is gone.
 */
function answerParserError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const answering: unknown = Reflect.get(socket, '_httpMessage');
  if (!socket.writable || (answering instanceof ServerResponse && answering.headersSent)) {
    socket.destroy();
    return;
  }
  socket.end(rawResponse(parserErrorAnswer(error)));
}

/** The URL clients reach a server bound to `host` by: a wildcard address is reached on loopback. */
export function serverUrl(host: string, port: number, basePath: string): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}${basePath}`;
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
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? MOCK_DEFAULTS.host;
  const { stateFile } = options;
  if (stateFile !== undefined && options.store !== undefined) {
    throw new TypeError('stateFile and store cannot go together: with a store, Redis keeps the pets (see its AOF settings in docs/redis.md).');
  }
  const settings = normalizeMockOptions({ ...options, now: options.now ?? coarseClock() }, { host });
  const { seed, count } = settings;
  // At most one of the two: a locked state file, or the state in Redis (which has no file to save).
  const state = stateFile === undefined ? undefined : await openStateFile(stateFile, seed, count, idOffsetOf(settings.bigIds));
  const shared =
    options.store === undefined
      ? undefined
      : await openSharedState({
          ...settings,
          url: options.store,
          ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
        });
  /** Lets go of the state file's lock and the connection to Redis. */
  const release = async (): Promise<void> => {
    await state?.close();
    await shared?.close();
  };
  let mock: MockApi;
  try {
    mock = mockApiOf({
      ...settings,
      ...(shared ? { shared } : {}),
      ...(state ? { restore: state.created, persist: (created) => state.writer.save(created) } : {}),
    });
  } catch (error) {
    await release();
    throw error;
  }
  const { onRequest } = options;
  const redact = targetRedactor(mock.options.apiKeys, mock.options.basePath);
  // The name the mock was bound by is one its clients use.
  const hostAllowed = hostCheck([...(options.allowedHosts ?? []), host]);

  /** The answer the server gives itself, before the handler: a Host it does not serve, or an admin request a page could have forged. */
  function refusal(request: IncomingMessage, received: NodeRequest): MockResponse | undefined {
    const hosts = headerValues(request.rawHeaders, 'host');
    if (hosts.length === 0 && request.httpVersion === '1.1') return MISSING_HOST;
    const foreign = hosts.find((host) => !hostAllowed(host));
    if (foreign !== undefined) return foreignHost(foreign);
    return isAdminTarget(received.target) ? adminProblem(received, hosts[0]) : undefined;
  }

  const timeouts = options.timeouts ?? {};
  let closing = false;

  function finish(request: IncomingMessage, received: NodeRequest, response: ServerResponse, answer: MockResponse): void {
    writeResponse(response, answer, closing);
    if (received.bodyLeftUnread) lingerThenClose(request, response);
    if (onRequest) {
      onRequest(
        `${request.method} ${redact(received.target)} ${answer.status} ${(performance.now() - received.started).toFixed(1)}ms${answer.logDetail ? ` ${answer.logDetail}` : ''}`,
      );
    }
  }
  const server: Server = createServer(
    {
      headersTimeout: timeouts.headersMs ?? 10_000,
      requestTimeout: timeouts.requestMs ?? 30_000,
      keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
      // Node looks for expired requests every 30 s by default; a slow client would hold on that long.
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs ?? 1_000),
      // A request without Host is answered by `refusal`, with an Error body.
      requireHostHeader: false,
    },
    (request, response) => {
      const received = new NodeRequest(request, onRequest ? performance.now() : 0);
      const refused = refusal(request, received);
      if (refused) return finish(request, received, response, refused);
      const answer = mock.respond(received);
      if (answer instanceof Promise) void answer.then((made) => finish(request, received, response, made));
      else finish(request, received, response, answer);
    },
  );
  server.on('clientError', answerParserError);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: serverUrl(host, port, mock.options.basePath),
    port,
    mock,
    close: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        closing = true;
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          // The lock goes, and Redis is let go, once no request can save any more.
          void release().then(resolve);
        });
        server.closeIdleConnections();
      }),
  };
}
