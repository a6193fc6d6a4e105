/**
 * What the proxy relays of a deployment's response headers. Its answer is the deployment's data served
 * from the mock's origin, so nothing in it may act as that origin or on it:
 * - the connection's own fields go (RFC 9110 7.6.1: `Connection`, the fields it names, `Keep-Alive`,
 *   `Proxy-*`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`), and so do those fetch already acted on
 *   (`Content-Length`, `Content-Encoding`: the body relayed is decoded, its length counted again);
 * - the fields that act on the origin that serves them go: the deployment's CORS (`Access-Control-*`;
 *   the mock's own CORS stands instead, as on every API answer), its cookies (`Set-Cookie`, never
 *   sent back: the proxy forwards no cookie) and `Clear-Site-Data`;
 * - every relayed answer is data, never a page: `X-Content-Type-Options: nosniff`, and a
 *   `Content-Security-Policy: sandbox` that puts even an HTML page of the deployment in an origin of
 *   its own, without scripts, so it cannot read or drive the mock.
 */
import { CORS_HEADERS } from '../core/messages.js';

/** The connection's fields (RFC 9110 7.6.1) and those fetch acted on; `Proxy-*` is matched by its prefix. */
const CONNECTION_FIELDS = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length', 'content-encoding']);

/** Fields that would act on the mock's origin were they relayed; `Access-Control-*` is matched by its prefix. */
const ORIGIN_FIELDS = new Set(['set-cookie', 'clear-site-data']);

/** What makes the answer data: no sniffing it into a page, and a page in a sandbox of its own. */
const AS_DATA = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' };

/** The field names `Connection` lists (RFC 9110 7.6.1): each belongs to the connection and goes with it. */
function namedByConnection(headers: Headers): Set<string> {
  return new Set(
    (headers.get('connection') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** Whether a field of the deployment's answer is relayed. */
function relayed(name: string, named: ReadonlySet<string>): boolean {
  return !(
    CONNECTION_FIELDS.has(name) ||
    named.has(name) ||
    name.startsWith('proxy-') ||
    ORIGIN_FIELDS.has(name) ||
    name.startsWith('access-control-') ||
    Object.hasOwn(AS_DATA, name)
  );
}

/**
 * The deployment's response headers as the proxy relays them, each value passed through `hide` (which
 * takes out a key the deployment echoed), with the mock's CORS and what makes the answer data.
 * @example
 * relayedHeaders(new Headers({ connection: 'x-trace', 'x-trace': '1', 'content-type': 'text/html' }), (v) => v);
 * // { 'content-type': 'text/html', 'access-control-allow-origin': '*', ..., 'content-security-policy': 'sandbox' }
 */
export function relayedHeaders(upstream: Headers, hide: (value: string) => string): Record<string, string> {
  const named = namedByConnection(upstream);
  const headers: Record<string, string> = {};
  upstream.forEach((value, name) => {
    if (relayed(name, named)) headers[name] = hide(value);
  });
  return { ...headers, ...CORS_HEADERS, ...AS_DATA };
}
