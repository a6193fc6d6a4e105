/**
 * The Node HTTP server under every mode that listens (the mock's server, each of its workers, and
 * `--proxy`), and what it answers before a mode's handler sees a request. A guarantee kept here is
 * kept by every mode: the limits on slow clients, the body read within 1 MiB and strictly as UTF-8,
 * and the spec's Error JSON for what Node would otherwise answer on its own (a request its parser
 * rejects, an unmet `Expect`, `CONNECT`), each after the mode's own guard (the host guard first).
 */
import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { LONGEST_WAIT_MS, wholeNumberIn } from '../../bounds/option-value.js';
import { NotUtf8Error } from '../../http/read-limited.js';
import { errorResponse, type MockResponse, prepared } from '../core/messages.js';
import { record } from '../core/option-checks.js';
import { parserErrorResponse, rawResponse } from './parser-errors.js';
import { SafeHeadResponse } from './safe-head-response.js';

/** Limits on slow clients, in milliseconds. */
export interface ServerTimeouts {
  /** To receive a request's headers. Default 10 000. */
  readonly headersMs?: number;
  /** To receive a whole request. Default 30 000. */
  readonly requestMs?: number;
  /** An idle keep-alive connection stays open. Default 5 000. */
  readonly keepAliveMs?: number;
  /** A connection whose client takes none of the bytes written to it stays open. Default 10 000. */
  readonly drainMs?: number;
  /**
   * From when the mock has written an answer's last byte (a `fault=slow` trickle ended, a delay over),
   * the client sends its next request or closes within this, or the connection is reset. Default
   * 30 000: 5 MiB, the largest answer, at 170 KiB/s.
   */
  readonly sendMs?: number;
}

/**
 * The limits a server gets for those its options leave out: what docs/guarantees.md promises. A test
 * that cannot wait 10 s per mode lowers them for a whole process, preloaded with NODE_OPTIONS
 * (test/mock/guarantees.test.ts), as the verifier's waits are made instant. They are kept under a
 * registered symbol, as the CLI is bundled with a copy of this module of its own.
 */
const CLIENT_LIMITS: Required<ServerTimeouts> = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  drainMs: 10_000,
  sendMs: 30_000,
  ...Reflect.get(globalThis, Symbol.for('petstore-mock.client-limits')),
};

/**
 * The `timeouts` option of a server (`startMockServer`, `startProxyServer`), checked where it enters:
 * an object whose every field is one of `ServerTimeouts`, in whole milliseconds from 1 to a day.
 * @example
 * checkTimeouts({ keepAliveMs: 300 }); // { keepAliveMs: 300 }
 */
export function checkTimeouts(timeouts: ServerTimeouts | undefined): ServerTimeouts {
  const given = record('timeouts', timeouts, 'an object such as { headersMs: 10_000, keepAliveMs: 5_000 }') ?? {};
  for (const [name, value] of Object.entries(given)) {
    if (!Object.hasOwn(CLIENT_LIMITS, name))
      throw new TypeError(`timeouts: ${name} is none of the server's time-outs, ${Object.keys(CLIENT_LIMITS).join(', ')}`);
    wholeNumberIn(`timeouts.${name}`, value, [1, LONGEST_WAIT_MS], 0);
  }
  // A request's headers are part of it: Node refuses a server whose head may take longer than the whole, in its own words.
  const headersMs = given.headersMs ?? CLIENT_LIMITS.headersMs;
  const requestMs = given.requestMs ?? CLIENT_LIMITS.requestMs;
  if (headersMs > requestMs)
    throw new RangeError(
      `timeouts.headersMs (${headersMs}) must be at most timeouts.requestMs (${requestMs}): the headers are part of the request; raise requestMs too, or lower headersMs`,
    );
  return given;
}

/**
 * Responds to one request. `rejection`, when given, is the response to a request Node would answer
 * itself (an unmet `Expect`): the mode sends it once the request passes its guards.
 */
export type RequestHandler = (request: IncomingMessage, outgoing: ServerResponse, rejection?: MockResponse) => void;

/** The rejection of a request a mode's guards do not let pass (a foreign Host first), or `undefined`. */
export type Guard = (request: IncomingMessage) => MockResponse | undefined;

/**
 * The response to a request whose `Expect` names anything but `100-continue` (which Node handles):
 * Node alone would send a bare 417, without the Error body.
 */
const UNMET_EXPECTATION = prepared(
  errorResponse('expectation_failed', 'The request\'s Expect header names an expectation this mock cannot meet; the one it knows is "Expect: 100-continue".'),
);

/** The response to CONNECT: the mock opens no tunnels, not even as `--proxy`, which forwards requests, not connections. */
const NO_TUNNEL = prepared(errorResponse('bad_request', 'CONNECT is not served: this mock opens no tunnels; send the request to it directly.'));

/**
 * Reads the body up to `maxBytes`; past that it stops reading and resolves `undefined`, as it does at
 * once for a declared `Content-Length` past it, before a byte is read, and marks `unread` (whose
 * connection must then close). A body whose bytes are not UTF-8 rejects with `NotUtf8Error`: JSON must
 * be UTF-8 (RFC 8259), never read with U+FFFD in place.
 */
export function readBody(request: IncomingMessage, maxBytes: number, unread?: { bodyLeftUnread: boolean }): Promise<string | undefined> {
  if (Number(request.headers['content-length']) > maxBytes) {
    if (unread) unread.bodyLeftUnread = true;
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.off('data', onData).off('end', onEnd);
        request.pause();
        if (unread) unread.bodyLeftUnread = true;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      // A small body comes in one chunk, read as it is: no copy.
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      if (isUtf8(body)) resolve(body.toString('utf8'));
      else reject(new NotUtf8Error());
    };
    request.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

/** How long the rest of an oversized body is discarded before the connection is closed. */
const LINGER_MS = 1_000;

/**
 * Before responding to a body that was too large: the response says the connection closes (RFC 9112
 * §9.6; a client would otherwise send its next request on a connection the mock is closing, and see it
 * dropped). Once it is sent, the mock stops writing but reads on, discarding (never buffering) what the
 * client is still sending for a moment, then closes: closing at once would reset the connection while
 * the client is still writing, and a reset can destroy the 413 before the client reads it.
 */
export function lingerThenClose(request: IncomingMessage, outgoing: ServerResponse): void {
  outgoing.shouldKeepAlive = false;
  request.resume();
  const { socket } = request;
  // Node ends a connection that is not kept alive with `destroySoon`, which destroys it as soon as its
  // end is sent: this one ends, then lingers.
  Object.assign(socket, {
    destroySoon: () => {
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    },
  });
}

/**
 * Responds to a request Node's parser rejected with the spec's Error body, unless a response to it
 * has begun (then only closing is left) or the client is gone.
 */
function respondToParserError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const responding: unknown = Reflect.get(socket, '_httpMessage');
  if (!socket.writable || (responding instanceof ServerResponse && responding.headersSent)) {
    socket.destroy();
    return;
  }
  socket.end(rawResponse(parserErrorResponse(error)));
}

/** Responds to CONNECT, which Node would leave unanswered, with an Error (the guard's first), and closes. */
function rejectTunnel(guard: Guard, request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.end(rawResponse(guard(request) ?? NO_TUNNEL));
}

/**
 * One connection's requests, answered one at a time. Node parses every request a client pipelines
 * and hands each to the handler at once, queueing the answers until those before them are sent: a
 * client that pipelines thousands of requests and reads no answer made the mock hold thousands of
 * answers (87 MB grew to 308 MB), on a connection that stayed open for ever. Here the next request of
 * a connection is handled only once the answer before it has left for the network (its `close`,
 * which Node emits a tick after the socket has taken the last byte, or when the connection goes), and while one waits the socket is not
 * read: the bytes queued for a connection are at most one answer's, the requests read ahead of their
 * answers at most one read of the socket (64 KiB). A connection whose client takes none of the bytes
 * written to it for `drainMs` is reset, and one whose client has neither sent its next request nor
 * closed `sendMs` after the mock wrote an answer's last byte is reset: a client that reads a few bytes
 * now and then takes bytes (the drain check passes) and once held a journal answer, and its
 * connection, for hours.
 */
interface Connection {
  /** The answer being made for a request of this connection, not yet sent; `undefined` when none is. */
  answering: ServerResponse | undefined;
  /** The requests read while one was busy, each waiting to be handled, in order. */
  readonly waiting: (() => void)[];
  /** Checks, every `drainMs` while the connection is busy, that its client takes bytes. */
  watch: NodeJS.Timeout | undefined;
  /** The bytes the socket had handed to the network at the last check. */
  sent: number;
  /** The socket is paused again whenever it resumes while requests wait. */
  held: boolean;
  /**
   * Resets the connection unless the client takes the last answer, and another, or closes first
   * (`armSendDeadline`): one timer per connection, rescheduled for each answer (`refresh`), where a
   * timer made and cleared per answer cost each request an allocation and two updates of the timer list.
   */
  deadline: NodeJS.Timeout | undefined;
  /** Whether `deadline` counts: it is disarmed, not cleared, when the client sends its next request. */
  armed: boolean;
  /** Listens for the `close` of the answer in the making: the connection's next request goes in then. */
  readonly onClose: (this: ServerResponse) => void;
  /** Listens for the `prefinish` of the answer in the making: its last byte is written, the send deadline starts. */
  readonly onWritten: (this: ServerResponse) => void;
}

const connections = new WeakMap<Duplex, Connection>();

/** How late a check may run before the mock counts its own event loop as having been busy meanwhile, in milliseconds. */
const STALL_MS = 100;

/** The share of a drain check's interval the event loop may spend busy before the mock counts the stall its own. */
const BUSY_LOOP = 0.5;

/** The bytes a socket has handed to the network: those written less those it still holds. */
const sentBy = (socket: Socket) => socket.bytesWritten - socket.writableLength;

/** Closes the connection when, busy with an answer, its socket holds bytes and has sent none since the last check. */
function watchDrain(socket: Socket, connection: Connection, drainMs: number): void {
  if (connection.watch !== undefined) return;
  connection.sent = sentBy(socket);
  let due = performance.now() + drainMs;
  let loop = performance.eventLoopUtilization();
  connection.watch = setInterval(() => {
    if (connection.answering === undefined || socket.destroyed) {
      clearInterval(connection.watch);
      connection.watch = undefined;
      return;
    }
    const sent = sentBy(socket);
    // The socket writes only while the mock's event loop is free: a check that runs late, or one after an
    // interval the loop spent mostly busy (large journal reads being made, ten at once), found the mock's own
    // stall, not the client's. The send deadline still bounds such a connection once its answer is written.
    const busy = performance.eventLoopUtilization(loop).utilization > BUSY_LOOP;
    loop = performance.eventLoopUtilization();
    const stalled = busy || performance.now() - due > STALL_MS;
    due = performance.now() + drainMs;
    // A reset, not a close: closed, the socket would leave the kernel sending what it holds (an answer of
    // megabytes) at the client's pace, for as long as the client lives.
    if (socket.writableLength > 0 && sent === connection.sent && !stalled) socket.resetAndDestroy();
    connection.sent = sent;
  }, drainMs).unref();
}

/**
 * Resets the connection `sendMs` from now unless the client first sends its next request or closes.
 * Node's `finish` says only that the kernel took an answer's bytes, and its close frees the socket while
 * the kernel goes on sending them at the client's pace: a client reading a few bytes now and then once
 * held twenty journal answers (2 MB each) for as long as it liked. A reset, not a close: the kernel
 * drops what it holds.
 */
function armSendDeadline(socket: Socket, connection: Connection, sendMs: number): void {
  connection.armed = true;
  if (connection.deadline !== undefined) {
    connection.deadline.refresh();
    return;
  }
  connection.deadline = setTimeout(() => {
    if (connection.armed && !socket.destroyed) socket.resetAndDestroy();
  }, sendMs).unref();
}

/**
 * Ends a connection the mock is done with (after an answer that closes it, or when it has been idle for
 * the keep-alive limit): the socket says it is ending (FIN, after the bytes the kernel still holds)
 * and stays the mock's until the client closes too, or its send deadline resets it. Node would free it at
 * once, leaving the kernel to send the rest for as long as the client reads.
 */
function endWithinDeadline(socket: Socket, sendMs: number): void {
  const connection = connections.get(socket);
  if (connection === undefined) {
    socket.destroy();
    return;
  }
  socket.end();
  if (!connection.armed) armSendDeadline(socket, connection, sendMs);
}

/**
 * Whether a request asks to upgrade (RFC 9110 7.8: `Upgrade`, named in `Connection`). Node's
 * `request.upgrade` says so only to a server that listens for upgrades, which this one does not.
 */
function asksToUpgrade(request: IncomingMessage): boolean {
  return request.headers.upgrade !== undefined && /(^|,)\s*upgrade\s*(,|$)/i.test(request.headers.connection ?? '');
}

/** Stops reading a socket while requests wait; Node may resume it when an answer drains, so it is paused again then. */
function holdReading(socket: Socket, connection: Connection): void {
  socket.pause();
  if (connection.held) return;
  connection.held = true;
  socket.on('resume', () => {
    if (connection.waiting.length > 0) socket.pause();
  });
}

/** The state of a new connection, with its listeners, made once for all of its requests. */
function newConnection(socket: Socket, sendMs: number, next: (socket: Socket, connection: Connection) => void): Connection {
  const connection: Connection = {
    answering: undefined,
    waiting: [],
    watch: undefined,
    sent: 0,
    held: false,
    deadline: undefined,
    armed: false,
    // `close` follows the answer's `finish` (a tick later), or the connection's end before it: one listener for both.
    onClose() {
      if (connection.answering !== this) return;
      connection.answering = undefined;
      next(socket, connection);
    },
    onWritten() {
      if (connection.answering === this) armSendDeadline(socket, connection, sendMs);
    },
  };
  connections.set(socket, connection);
  socket.once('close', () => clearTimeout(connection.deadline));
  // Node closes a connection after an answer that says so with `destroySoon`.
  Object.assign(socket, { destroySoon: () => endWithinDeadline(socket, sendMs) });
  return connection;
}

/**
 * `handle`, with each connection's requests handled one at a time (`Connection`): a request read
 * while another of its connection is busy waits, and the socket is not read meanwhile. The listeners
 * an answer gets are its connection's, made once: `on`, not `once`, as an answer emits each event once
 * and is dropped after, where `once` wraps a listener in a closure of its own per answer.
 */
function oneAtATime(handle: RequestHandler, drainMs: number, sendMs: number): RequestHandler {
  const next = (socket: Socket, connection: Connection) => {
    if (socket.destroyed) connection.waiting.length = 0;
    const waiting = connection.waiting.shift();
    // The last one waiting may have a body still to come: the socket is read again before it is handled.
    if (connection.waiting.length === 0) socket.resume();
    waiting?.();
  };
  const run = (connection: Connection, request: IncomingMessage, outgoing: ServerResponse, rejection: MockResponse | undefined) => {
    connection.answering = outgoing;
    // The client sent its next request: it has read the answers before (it could not have, pipelining, and those are covered by this one's).
    connection.armed = false;
    outgoing.on('close', connection.onClose).on('prefinish', connection.onWritten);
    watchDrain(request.socket, connection, drainMs);
    // Node's parser reads nothing after a request asking to upgrade (what follows would be another
    // protocol's), and the mock upgrades to none: the request is answered, and the connection closed,
    // so that a request pipelined behind it is not left unanswered on an open connection.
    if (asksToUpgrade(request)) outgoing.shouldKeepAlive = false;
    handle(request, outgoing, rejection);
  };
  return (request, outgoing, rejection) => {
    const socket = request.socket;
    const connection = connections.get(socket) ?? newConnection(socket, sendMs, next);
    if (connection.answering === undefined && connection.waiting.length === 0) run(connection, request, outgoing, rejection);
    else {
      connection.waiting.push(() => run(connection, request, outgoing, rejection));
      holdReading(socket, connection);
    }
  };
}

/**
 * A Node server that hands `handle` each request, with the limits on slow clients (`timeouts`, else
 * `CLIENT_LIMITS`), and responds itself, with the spec's Error, to requests its parser rejects, to
 * unmet expectations (through `handle`, so the mode's guards come first) and to CONNECT (after `guard`).
 */
export function createHostServer(timeouts: ServerTimeouts, guard: Guard, handle: RequestHandler): Server {
  const headersMs = timeouts.headersMs ?? CLIENT_LIMITS.headersMs;
  const sendMs = timeouts.sendMs ?? CLIENT_LIMITS.sendMs;
  const serve = oneAtATime(handle, timeouts.drainMs ?? CLIENT_LIMITS.drainMs, sendMs);
  const server = createServer(
    {
      headersTimeout: headersMs,
      requestTimeout: timeouts.requestMs ?? CLIENT_LIMITS.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs ?? CLIENT_LIMITS.keepAliveMs,
      // Node looks for expired requests every 30 s by default; a slow client would hold on that long.
      connectionsCheckingInterval: Math.min(1_000, headersMs),
      // A request without Host gets the guard's response, with an Error body, not Node's bare 400.
      requireHostHeader: false,
      // Every head written through it: only values HTTP allows, and a head Node refuses answers a 500 instead of throwing.
      ServerResponse: SafeHeadResponse,
    },
    serve,
  );
  return (
    server
      .on('clientError', respondToParserError)
      // The keep-alive limit: Node emits it here and, with a listener, leaves the closing to it.
      .on('timeout', (socket: Socket) => endWithinDeadline(socket, sendMs))
      .on('checkExpectation', (request: IncomingMessage, outgoing: ServerResponse) => serve(request, outgoing, UNMET_EXPECTATION))
      .on('connect', (request: IncomingMessage, socket: Duplex) => rejectTunnel(guard, request, socket))
  );
}

/**
 * The limits on slow clients of `createHostServer`, kept on the requests a server of another's hands
 * the mock (the Vite dev server, for the requests its proxy relays): each such request of a connection
 * is handled one at a time, its connection reset when its client takes no byte for `drainMs` or has
 * not sent its next request `sendMs` after an answer's last byte; when the server is given (the host
 * owns it: not Vite's `middlewareMode`, where the app's server is the app's), an idle connection is ended
 * within the send deadline, a request's head must come within `headersMs` (checked every second, as on
 * the mock's own server) and a late or malformed one is answered the spec's Error (`respondToParserError`). Behind the dev server's proxy a client that
 * pipelined journal reads and read nothing kept megabytes queued in the dev server for good, where the
 * mock's own server reset it. `then` handles the request (the dev server's next middleware).
 */
export function clientLimitedSeam(
  server: Server | HttpsServer | undefined,
  timeouts: ServerTimeouts,
): (request: IncomingMessage, outgoing: ServerResponse, then: () => void) => void {
  const sendMs = timeouts.sendMs ?? CLIENT_LIMITS.sendMs;
  if (server) {
    // Server-wide, as a request's head tells which seam it is for only once whole: a client trickling
    // one held Vite's connection 60 s and more. Its body, once proxied, is the mock's own server's to time.
    const headersMs = timeouts.headersMs ?? CLIENT_LIMITS.headersMs;
    server.headersTimeout = headersMs;
    // As the mock's own server: Node looks for late heads every 30 s unless told (read when it starts listening).
    Object.assign(server, { connectionsCheckingInterval: Math.min(1_000, headersMs) });
    server.keepAliveTimeout = timeouts.keepAliveMs ?? CLIENT_LIMITS.keepAliveMs;
    // A late head, or bytes that are not HTTP, answered as the mock's own server answers them: the spec's
    // Error, where the host's own listener (Vite's) wrote a bare `408` with no body at 23-84 s.
    server.removeAllListeners('clientError').on('clientError', respondToParserError);
    // Without a listener Node destroys an idle socket at once, and the kernel sends what it holds at the client's pace.
    server.on('timeout', (socket: Socket) => endWithinDeadline(socket, sendMs));
  }
  const handlers = new WeakMap<IncomingMessage, () => void>();
  const serve = oneAtATime((request) => handlers.get(request)?.(), timeouts.drainMs ?? CLIENT_LIMITS.drainMs, sendMs);
  return (request, outgoing, then) => {
    handlers.set(request, then);
    serve(request, outgoing);
  };
}
