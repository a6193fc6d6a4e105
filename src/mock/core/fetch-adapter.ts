/** The web `fetch` adapter of the mock: a `Request` in, a `Response` out, around the pipeline's `respond`. */
import { safeHeaderRecord } from '../../http/header-value.js';
import { readLimited } from '../../http/read-limited.js';
import { faultyResponse } from './fault-stream.js';
import { type MockRequest, type MockResponse, unwritableHead, wireBody } from './messages.js';
import type { Pending } from './pending.js';

/** A web `Request` as the handler's `MockRequest`. */
function fromRequest(request: Request): MockRequest {
  // By its fields, not `instanceof`: a Request of another realm (a test DOM, another copy of undici) is one too.
  if (typeof request !== 'object' || request === null || typeof request.url !== 'string' || typeof request.method !== 'string')
    throw new TypeError("fetch takes a Request, such as new Request('http://mock.test/v1/pets'); got another value");
  const url = new URL(request.url);
  return {
    // Fetch leaves the case of methods other than the six it knows as sent: `patch`.
    method: request.method.toUpperCase(),
    target: url.pathname + url.search,
    header: (name) => request.headers.get(name) ?? undefined,
    text: (maxBytes) => readLimited(request.body, maxBytes, true),
  };
}

/** The handler's response as a web `Response`; bodies are dropped where HTTP forbids them. */
function toResponse(response: MockResponse, method: string, sized: boolean): Response {
  const body = wireBody(method, response);
  // A HEAD's head is its GET's, Content-Length too (RFC 9110 §9.3.2, §8.6), as the Node server and the proxy send it;
  // a host that stands for the network (`sized`: MSW) says every body's length, as they do. None on a 204 or a 304.
  const length = (body === '' || sized) && response.body !== '' && response.status !== 204 && response.status !== 304;
  // Every value as HTTP allows it (src/http/header-value.ts): `Headers` throws on others, as Node does.
  const headers = safeHeaderRecord(
    length ? { ...response.headers, 'content-length': String(new TextEncoder().encode(response.body).length) } : response.headers,
  );
  if (response.fault) return faultyResponse(response.fault, response.status, headers, body);
  return new Response(body === '' ? null : body, { status: response.status, headers });
}

/**
 * `respond` as a web handler; `sized` for a host that stands for the network (MSW), whose every answer
 * with a body says its `Content-Length` as a server's does (`mock.fetch` leaves it out of a GET's, so
 * that code that rewrites a body and copies the headers sends no stale length): `(request: Request) => Promise<Response>`, for MSW, Pact and any fetch host.
 * @example
 * const fetchMock = fetchAdapter(mock.respond);
 * await fetchMock(new Request('http://mock.test/v1/pets'));
 */
export function fetchAdapter(respond: (request: MockRequest) => Pending<MockResponse>, sized = false): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await respond(fromRequest(request));
    try {
      return toResponse(response, request.method, sized);
    } catch (error) {
      // A head `Response` refuses (a bug: every value is made safe) is the spec's Error 500, never a throw into the host.
      const reason = error instanceof Error ? error.name : 'an error';
      return toResponse(unwritableHead(reason), request.method, sized);
    }
  };
}
