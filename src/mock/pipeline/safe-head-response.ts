/**
 * The response every Node host of the mock writes (the mock's server, each of `--workers`, `--proxy`):
 * Node's, with the one place its head is written made safe. Every header value passes `headerValue`
 * (src/http/header-value.ts), so that no text from outside (a deployment's answer, a client's request)
 * puts a character HTTP forbids in a head; and a head Node still refuses (a status out of its range,
 * a bug) never throws out of the host, which once ended the `--proxy` process: the answer becomes the
 * spec's Error 500 instead, and its connection ends.
 */
import { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { headerValue, safeHeaderList } from '../../http/header-value.js';
import { unwritableHead } from '../core/messages.js';

type Head = OutgoingHttpHeaders | OutgoingHttpHeader[];

function safeValue(value: OutgoingHttpHeader | undefined): OutgoingHttpHeader | undefined {
  if (typeof value === 'string') return headerValue(value);
  return Array.isArray(value) ? value.map(headerValue) : value;
}

/** `head` in any form `writeHead` takes (a flat list, a list of pairs, a record) with every value safe. */
function safeHead(head: Head): Head {
  if (!Array.isArray(head)) return Object.fromEntries(Object.entries(head).map(([name, value]) => [name, safeValue(value)]));
  if (head.length > 0 && Array.isArray(head[0])) return (head as unknown as string[][]).map(([name = '', ...values]) => [name, ...values.map(headerValue)]);
  return safeHeaderList(head as (string | number)[]) as OutgoingHttpHeader[];
}

/** Why a head could not be written, without the value it held (which may be a deployment's text). */
function reasonOf(error: unknown): string {
  const code = error instanceof Error ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'an error';
}

/** Node's `ServerResponse` whose `writeHead` writes only safe values and never throws; see the module's comment. */
export class SafeHeadResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Set once the head asked for was refused and the Error 500 sent in its place: what the host writes after it is dropped. */
  #replaced = false;

  // Each override takes the arguments Node's method takes, each named: a rest list and its spread cost every answer an array.
  override writeHead(statusCode: number, reasonOrHead?: unknown, givenHead?: unknown): this {
    const message = typeof reasonOrHead === 'string' ? reasonOrHead : undefined;
    const head = (message === undefined ? reasonOrHead : givenHead) as Head | undefined;
    const safe = head === undefined ? undefined : safeHead(head);
    try {
      return message === undefined ? super.writeHead(statusCode, safe) : super.writeHead(statusCode, message, safe);
    } catch (error) {
      this.#replace(error);
      return this;
    }
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    if (this.#replaced) return callBack(chunk, encoding, callback);
    return (super.write as (...all: unknown[]) => boolean)(chunk, encoding, callback);
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (this.#replaced) {
      callBack(chunk, encoding, callback);
      return this;
    }
    return (super.end as (...all: unknown[]) => this)(chunk, encoding, callback);
  }

  /** Sends the spec's Error 500 instead of a head Node refused, and ends the connection. */
  #replace(error: unknown): void {
    if (this.headersSent) {
      this.destroy();
      return;
    }
    // A head refused half way leaves the headers set before the bad one: none of them belongs to the 500.
    for (const name of this.getHeaderNames()) this.removeHeader(name);
    const failure = unwritableHead(reasonOf(error));
    const body = Buffer.from(failure.body);
    this.shouldKeepAlive = false;
    super.writeHead(failure.status, { ...failure.headers, 'content-length': body.length, connection: 'close' });
    super.end(body);
    this.#replaced = true;
  }
}

/** Calls the callback a `write` or an `end` was given (its last argument that is a function), as Node would once the bytes left: none are written. */
function callBack(...args: readonly unknown[]): boolean {
  const last = args.findLast((arg) => typeof arg === 'function');
  if (last !== undefined) queueMicrotask(() => (last as () => void)());
  return true;
}
