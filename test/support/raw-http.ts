/**
 * HTTP/1.1 over a raw socket, as a client that pipelines does: several requests written in one write,
 * and every byte the server sends until it ends the connection, split into the responses it holds.
 * Node's client and fetch never pipeline, so a server that leaves a queued response hanging is only
 * seen this way.
 */
import { connect } from 'node:net';

/** One response read off the wire: its status, its headers (lower-case names) and the bytes of its body. */
interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Whether the body holds every byte `Content-Length` declares. */
  readonly whole: boolean;
}

/** What a connection carried: the responses, any bytes after them that are no response, and how it ended. */
export interface WireExchange {
  readonly responses: readonly WireResponse[];
  /** Bytes after the last response that do not begin one (`fault=garbage`). */
  readonly rest: Buffer;
  /** `end` for a close, an error code (`ECONNRESET`) for a reset, `open` when it was still open after `withinMs`. */
  readonly ended: string;
}

/** One request as bytes: the request line, `Host`, the given header lines and, when given, a body. */
export function rawRequest(method: string, target: string, headers: readonly string[] = [], body?: string): string {
  const length = body === undefined ? [] : [`Content-Length: ${Buffer.byteLength(body)}`];
  return `${method} ${target} HTTP/1.1\r\n${['Host: 127.0.0.1', ...headers, ...length].join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/** The responses `bytes` holds, in order; `methods` says which requests were HEADs, whose responses have no body. */
function splitResponses(bytes: Buffer, methods: readonly string[]): { responses: WireResponse[]; rest: Buffer } {
  const responses: WireResponse[] = [];
  let at = 0;
  while (at < bytes.length && bytes.subarray(at, at + 5).toString('latin1') === 'HTTP/') {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const [statusLine = '', ...fields] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const field of fields) headers[field.slice(0, field.indexOf(':')).toLowerCase()] = field.slice(field.indexOf(':') + 1).trim();
    const declared = methods[responses.length] === 'HEAD' ? 0 : Number(headers['content-length'] ?? 0);
    const body = bytes.subarray(end + 4, end + 4 + declared);
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body, whole: body.length === declared });
    at = end + 4 + body.length;
  }
  return { responses, rest: bytes.subarray(at) };
}

/**
 * Writes `requests` to `port` in one write and reads until the server ends the connection, or until
 * `withinMs` (a wide bound: a server that keeps a connection open forever is what it finds).
 */
/**
 * Whether this Node's client reports a reset that comes right after a whole answer as the reset
 * (ECONNRESET). Node 22's reports it as an end: against the mock on Node 22, a Python client sees the
 * reset where a Node 22 client sees an end; Node 24 and 26 report it as it is. Where it cannot tell, a
 * test leaves that one observation out rather than take an end for a reset.
 */
export const CLIENT_SEES_RESET = Number(process.versions.node.split('.')[0]) >= 24;

export function pipeline(port: number, requests: readonly string[], withinMs = 10_000): Promise<WireExchange> {
  const methods = requests.map((request) => request.slice(0, request.indexOf(' ')));
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let ended = 'end';
    const timer = setTimeout(() => {
      ended = 'open';
      socket.destroy();
    }, withinMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      ended = error.code ?? error.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...splitResponses(Buffer.concat(chunks), methods), ended });
    });
    socket.write(requests.join(''));
  });
}

/**
 * An exchange in a few words, to compare with what docs/mock-faults.md says: each response's status
 * (`cut` when its body is short of its `Content-Length`), `garbage` for bytes that are no response,
 * and how the connection ended. `200,200 cut end`: two responses, the second cut short, then a close.
 */
export function exchangeOutline({ responses, rest, ended }: WireExchange): string {
  const statuses = responses.map((response) => `${response.status}${response.whole ? '' : ' cut'}`).join(',');
  return [statuses, rest.length > 0 ? 'garbage' : '', ended].filter(Boolean).join(' ');
}

/** What a client that read nothing for a while got once it read: the answers, and whether the server had ended the connection. */
export interface UnreadExchange {
  /** The status lines received, counted. */
  readonly answers: number;
  /** `end` or an error code when the server had ended the connection; `open` when it still answered after `readForMs`. */
  readonly ended: string;
}

/**
 * Writes `request` `count` times in one write and reads nothing until `hold` resolves, as a client
 * that pipelines and never reads; then reads what is there until the server ends the connection, or
 * `readForMs` passes (a server that kept it open answers on, and it is found `open`).
 */
export function unreadPipeline(port: number, request: string, count: number, hold: Promise<unknown>, readForMs = 10_000): Promise<UnreadExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    let answers = 0;
    let tail = '';
    let ended = 'end';
    socket.on('error', (error: NodeJS.ErrnoException) => {
      ended = error.code ?? error.message;
    });
    socket.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      answers += text.split('HTTP/1.1 ').length - 1;
      tail = text.slice(-8);
    });
    socket.on('close', () => resolve({ answers, ended }));
    socket.write(request.repeat(count));
    void hold.then(() => {
      socket.resume();
      setTimeout(() => {
        ended = 'open';
        socket.destroy();
      }, readForMs).unref();
    });
  });
}
