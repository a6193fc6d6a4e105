/**
 * How the verifier's requests travel: Node's own HTTP client rather than WHATWG fetch, which refuses
 * outright the ports on its "bad ports" list (5060, 5061, 6000, 6665 to 6669...), for a browser's
 * safety against cross-protocol attacks. A command-line tool asked to check the deployment on such a
 * port must reach it. Like fetch: the body is decoded per its Content-Encoding (and the client says
 * which it accepts), a redirect is never followed, and the signal aborts the request and its body.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export interface TransportRequest {
  readonly method: string;
  readonly headers: Headers | Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array | null | undefined;
  readonly signal: AbortSignal;
}

/** The part of a fetch `Response` the verifier reads. */
export interface TransportResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body, decoded per its Content-Encoding: read it with `readBody`. */
  readonly body: Readable;
}

/** The codings fetch decodes, and what decodes each. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** What the client accepts, as fetch says it. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    if (name === undefined || value === undefined) continue; // never: i + 1 is in the list
    try {
      headers.append(name, value);
    } catch {
      // A header name or value fetch would not hold either: left out, as fetch leaves it out.
    }
  }
  return headers;
}

/** The body undone from each coding it lists, last applied first; a coding fetch does not know leaves it as sent. */
function decoded(response: IncomingMessage, headers: Headers): Readable {
  const codings = (headers.get('content-encoding') ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const decoders = codings.flatMap((coding) => DECODERS[coding] ?? []);
  const known = decoders.length === codings.length;
  let stream: Readable = response;
  for (const decoderOf of known ? decoders.reverse() : []) {
    const decoder = decoderOf();
    stream.on('error', (error) => decoder.destroy(error));
    stream = stream.pipe(decoder);
  }
  // A body given up on (past the cap) closes the connection, as fetch does, rather than leave it half read.
  stream.once('close', () => {
    if (!response.complete) response.destroy();
  });
  return stream;
}

/** A request reset on a kept-alive connection the client had used before, before any answer: see `send`. */
class StaleConnectionError extends Error {
  constructor(readonly error: Error) {
    super(error.message);
  }
}

/**
 * Sends one request and resolves once the response's headers are in; its body is read from the stream.
 * A request reset before any answer on a kept-alive connection used before is sent once more, on a new
 * connection: the server may have closed the idle connection just as the request left (the race Node's
 * documentation gives for `request.reusedSocket`), so the deployment never saw it. Any other reset, and
 * that one when the new connection is refused too (the deployment went down with it), is the
 * deployment's: the caller judges it.
 */
export async function send(url: string, init: TransportRequest): Promise<TransportResponse> {
  try {
    return await sendOnce(url, init);
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error;
    return sendOnce(url, init).catch((again: unknown) => {
      // Refused on a new connection: the deployment is down, and the reset was its going down with the request in flight.
      const refused = typeof again === 'object' && again !== null && 'code' in again && again.code === 'ECONNREFUSED';
      throw again instanceof StaleConnectionError || refused ? error.error : again;
    });
  }
}

function sendOnce(url: string, init: TransportRequest): Promise<TransportResponse> {
  const target = new URL(url);
  const headers = new Headers(init.headers);
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', ACCEPT_ENCODING);
  const body = typeof init.body === 'string' ? Buffer.from(init.body) : (init.body ?? undefined);
  if (body !== undefined) headers.set('content-length', String(body.byteLength));
  const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method: init.method, headers: Object.fromEntries(headers) });
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const abort = () => {
      // The signal's own reason (a TimeoutError, the deadline's), so that the caller tells a timeout from a dropped connection.
      const reason: unknown = init.signal.reason;
      const error = reason instanceof Error ? reason : new Error(String(reason));
      response?.destroy(error);
      request.destroy(error);
    };
    if (init.signal.aborted) {
      abort();
      return;
    }
    init.signal.addEventListener('abort', abort, { once: true });
    // Every failure comes here, an abort's too (the request is destroyed with the signal's reason).
    request.once('error', (error) => {
      init.signal.removeEventListener('abort', abort);
      // Before any response, on a reused connection, and not aborted: the connection may have gone stale.
      const stale = response === undefined && request.reusedSocket && !init.signal.aborted && 'code' in error && error.code === 'ECONNRESET';
      reject(stale ? new StaleConnectionError(error) : error);
    });
    request.once('response', (incoming) => {
      response = incoming;
      incoming.once('close', () => init.signal.removeEventListener('abort', abort));
      const responseHeaders = headersOf(incoming);
      resolve({
        status: incoming.statusCode ?? 0,
        headers: responseHeaders,
        // A response to HEAD, a 204 or a 304 has no content (RFC 9110 §6.4.1) whatever its Content-Encoding says: nothing to decode.
        body: init.method === 'HEAD' || incoming.statusCode === 204 || incoming.statusCode === 304 ? incoming : decoded(incoming, responseHeaders),
      });
    });
    request.end(body);
  });
}

/**
 * Reads a body as UTF-8 text (bytes that are not UTF-8 become U+FFFD, as fetch's `text()` reads
 * them), or `undefined` once it passes `maxBytes`. Each chunk is decoded as it comes and let go, so a
 * body of megabytes is never held twice, as bytes and as text.
 */
export async function readText(body: Readable, maxBytes: number): Promise<string | undefined> {
  const decoder = new StringDecoder('utf8');
  let size = 0;
  let text = '';
  for await (const chunk of body) {
    const bytes: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += bytes.byteLength;
    if (size > maxBytes) return undefined;
    text += decoder.write(bytes);
  }
  return text + decoder.end();
}

/**
 * Reads a body as bytes, or `undefined` once it passes `maxBytes`: reading stops there, and the
 * download and any decompression with it. The Node stream is read a chunk at a time, as the
 * socket gives it (a web stream made of it with `Readable.toWeb` would take in all the deployment
 * sends, as fast as it sends it, whatever was read of it).
 */
export async function readBody(body: Readable, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += bytes.byteLength;
    // Leaving the loop destroys the stream, and with it the download and any decompression.
    if (size > maxBytes) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}
