/**
 * The responses to requests Node's HTTP parser rejects before the handler can see them (a method it
 * does not know, a space or raw non-ASCII in the target, both Transfer-Encoding and Content-Length,
 * headers over 16 KiB, a client too slow to send its request). Node would respond with a bare
 * status line; the mock responds to every request with the spec's Error body and the API's CORS.
 */
import { STATUS_CODES } from 'node:http';
import { errorResponse, type MockResponse } from '../core/messages.js';

/** What Node's parser says went wrong: its `HPE_*` code and, for those, a fixed English reason (never the bytes sent). */
function reasonOf(error: Error): string {
  const reason = 'reason' in error && typeof error.reason === 'string' ? error.reason : error.message;
  return reason.replace(/\.$/, '');
}

/**
 * The Error response to a request the parser rejected with `error` (the `clientError` event's).
 * @example
 * server.on('clientError', (error, socket) => socket.end(rawResponse(parserErrorResponse(error))));
 */
export function parserErrorResponse(error: NodeJS.ErrnoException): MockResponse {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return errorResponse('request_header_fields_too_large', 'The request headers are larger than 16 KiB: send fewer or shorter headers.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errorResponse('request_timeout', 'The request took too long to arrive: send its headers and body without pausing.');
    case 'HPE_INVALID_METHOD':
      return errorResponse('bad_request', 'The request method is not one HTTP defines, in upper case: GET, POST, OPTIONS...');
    default:
      return errorResponse(
        'bad_request',
        `The request is not valid HTTP/1.1 (${reasonOf(error)}): percent-encode spaces and non-ASCII characters in the target, and send either Content-Length or Transfer-Encoding, not both.`,
      );
  }
}

/** A response as the bytes of an HTTP/1.1 response that closes the connection, for a socket the parser gave up on. */
export function rawResponse(response: MockResponse): string {
  const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  for (const name in response.headers) head.push(`${name}: ${response.headers[name]}`);
  head.push(`content-length: ${Buffer.byteLength(response.body)}`, 'connection: close');
  return `${head.join('\r\n')}\r\n\r\n${response.body}`;
}
