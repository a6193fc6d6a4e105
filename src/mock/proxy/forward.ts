/**
 * One request forwarded to the deployment, its response read within a bound, and that response relayed
 * to the client. Redirects are handed back to the client, never followed: the key goes only to the
 * deployment's origin.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { MAX_RESPONSE_BYTES } from '../../bounds/budget.js';
import { readLimited } from '../../http/read-limited.js';
import { MAX_JSON_NUMBER_CHARS, outlineJsonText } from '../../json/json-text.js';
import { errorResponse, type MockResponse } from '../core/messages.js';
import type { Exchange, Incoming, ProxyContext } from './context.js';
import type { ContractViolation } from './drift-report.js';
import { relayedHeaders } from './relayed-headers.js';
import { proxiedReference } from './relayed-references.js';

/** Headers a client sends that the deployment needs; the rest (cookies, X-Mock-Session, Prefer) stay here. */
const FORWARDED = ['accept', 'accept-language', 'content-type', 'user-agent'];

/** The deployment's response and its body, read. */
export interface Relayable {
  readonly upstream: Response;
  readonly text: string;
}

/**
 * The deployment's response and its body; or, when there is none to relay, the proxy's own 503, with
 * the contract violation it answers for when the deployment's answer broke the spec.
 */
type Forwarded = Relayable | { readonly failure: MockResponse; readonly violation?: string };

/** The client's headers the deployment needs, and the upstream key as a Bearer token, else the client's own Authorization. */
function forwardedHeaders(incoming: IncomingHttpHeaders, upstreamKey: string | undefined): Headers {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = incoming[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  const authorization = upstreamKey === undefined ? incoming.authorization : `Bearer ${upstreamKey}`;
  if (authorization !== undefined) headers.set('authorization', authorization);
  return headers;
}

/** Methods a client may send again when a connection closes before their answer (RFC 9110 9.2.2): the proxy does, once. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * The deployment's answer to one request; an idempotent one is sent once more when the connection fails
 * before any answer (a deployment that closes a kept-alive connection as fetch reuses it: a 503 every
 * other request before).
 */
async function send(context: ProxyContext, { method, headers, body }: Incoming, url: URL): Promise<Response> {
  const signal = AbortSignal.timeout(context.timeoutMs);
  // A HEAD is sent as the GET it stands for (RFC 9110 §9.3.2): the proxy holds to the spec, compares
  // and relays the head of what GET carries (its Content-Length too, RFC 9110 §8.6), never an empty
  // body as if it were the deployment's answer; the client still gets the head alone.
  const sent = method === 'HEAD' ? 'GET' : method;
  const once = () =>
    fetch(url, {
      method: sent,
      headers: forwardedHeaders(headers, context.upstreamKey),
      redirect: 'manual',
      signal,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
    });
  try {
    return await once();
  } catch (error) {
    if (!IDEMPOTENT.has(method) || !(error instanceof TypeError) || signal.aborted) throw error;
    return once();
  }
}

/** Sends the request to `url` and reads the response, at most `MAX_RESPONSE_BYTES` of it, within the context's timeout. */
export async function forward(context: ProxyContext, incoming: Incoming, url: URL): Promise<Forwarded> {
  try {
    const upstream = await send(context, incoming, url);
    const text = await readLimited(upstream.body, MAX_RESPONSE_BYTES);
    if (text === undefined)
      return {
        failure: errorResponse('service_unavailable', `The deployment answered with more than ${MAX_RESPONSE_BYTES} bytes, which no answer of the spec needs.`),
      };
    // A number longer than any the spec holds would block every request for seconds at each step that parses it.
    const overlong = outlineJsonText(text).overlongNumber;
    if (overlong !== undefined) {
      const violation = `the deployment answered ${upstream.status} with a number of ${overlong.length} characters (at character ${overlong.at} of its body), longer than any number of the spec (at most ${MAX_JSON_NUMBER_CHARS}), which the proxy does not read`;
      return { failure: errorResponse('service_unavailable', `${violation[0]?.toUpperCase()}${violation.slice(1)}.`), violation };
    }
    return { upstream, text };
  } catch (error) {
    const reason = error instanceof Error ? error.name : 'an error';
    const { origin, href } = context.upstream;
    return { failure: errorResponse('service_unavailable', `The deployment at ${origin} did not answer (${reason}); the proxy forwards to --proxy ${href}.`) };
  }
}

/**
 * A violation as `X-Contract-Violation` carries it: on one line, at most `max` characters, cut with an
 * ASCII "...". (The host's head makes every value safe besides: src/http/header-value.ts.)
 */
function headerSafe(text: string, max = 400): string {
  const plain = text.replace(/[^\x20-\x7e]+/g, ' ');
  return plain.length > max ? `${plain.slice(0, max - 3)}...` : plain;
}

/**
 * The deployment's response as the client gets it: its headers as relayed-headers.ts lets them pass, with
 * the first violation in `X-Contract-Violation`, and never holding a key the proxy hides or the client's
 * credential, in any form, even from a deployment that echoes them.
 */
export function relayedResponse(
  context: Pick<ProxyContext, 'upstream' | 'basePath'>,
  { upstream, upstreamText, redact, redactBody, operationId }: Exchange,
  violations: readonly ContractViolation[],
): MockResponse {
  const answered = new URL(upstream.url || context.upstream.href);
  const headers = relayedHeaders(upstream.headers, { operationId, status: upstream.status }, redact, (reference) =>
    proxiedReference(reference, answered, context.upstream, context.basePath),
  );
  const [first] = violations;
  if (first !== undefined)
    headers['x-contract-violation'] = headerSafe(`${first.message}${violations.length > 1 ? ` (and ${violations.length - 1} more: GET /__mock/drift)` : ''}`);
  return { status: upstream.status, headers, body: redactBody(upstreamText) };
}
