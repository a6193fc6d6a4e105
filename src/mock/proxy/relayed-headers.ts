/**
 * What the proxy relays of a deployment's response headers. Its answer is the deployment's data served
 * from the mock's origin, so nothing in it may act as that origin or on it:
 * - the connection's own fields go (RFC 9110 7.6.1: `Connection`, the fields it names, `Keep-Alive`,
 *   `Proxy-*`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`), and so do those fetch already acted on
 *   (`Content-Length`, `Content-Encoding`: the body relayed is decoded, its length counted again);
 * - the fields that act on the origin that serves them go: the deployment's CORS (`Access-Control-*`;
 *   the mock's own CORS stands instead, as on every API answer), its cookies (`Set-Cookie`, never
 *   sent back: the proxy forwards no cookie), `Clear-Site-Data`, `Refresh` (a navigation, HTML's, not
 *   HTTP's) and `Service-Worker-Allowed` (which widens a worker's scope on the origin);
 * - the fields that hold URI references (`Location`, `Content-Location`, `Link`) keep only those naming
 *   a resource of the API the proxy relays, rewritten to the proxy's base path (relayed-references.ts);
 * - every relayed answer is data, never a page: `X-Content-Type-Options: nosniff`, and a
 *   `Content-Security-Policy: sandbox` that puts even an HTML page of the deployment in an origin of
 *   its own, without scripts, so it cannot read or drive the mock.
 */
import { CORS_HEADERS } from '../core/messages.js';
import { proxiedLinks } from './relayed-references.js';

/** The connection's fields (RFC 9110 7.6.1) and those fetch acted on; `Proxy-*` is matched by its prefix. */
const CONNECTION_FIELDS = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length', 'content-encoding']);

/** Fields that would act on the mock's origin were they relayed; `Access-Control-*` is matched by its prefix. */
const ORIGIN_FIELDS = new Set(['set-cookie', 'clear-site-data', 'refresh', 'service-worker-allowed']);

/** Fields whose value is one URI reference. */
const REFERENCE_FIELDS = new Set(['location', 'content-location']);

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

/** A field's value as relayed: a URI reference rewritten by `rebase`, or dropped (`undefined`) when it leaves the API. */
function relayedValue(name: string, value: string, rebase: (reference: string) => string | undefined): string | undefined {
  if (REFERENCE_FIELDS.has(name)) return rebase(value);
  return name === 'link' ? proxiedLinks(value, rebase) : value;
}

/**
 * The deployment's response headers as the proxy relays them, each value passed through `hide` (which
 * takes out a key the deployment echoed), its URI references through `rebase` (`proxiedReference`),
 * with the mock's CORS and what makes the answer data.
 * @example
 * relayedHeaders(new Headers({ connection: 'x-trace', 'x-trace': '1', 'content-type': 'text/html' }), (v) => v, () => undefined);
 * // { 'content-type': 'text/html', 'access-control-allow-origin': '*', ..., 'content-security-policy': 'sandbox' }
 */
export function relayedHeaders(upstream: Headers, hide: (value: string) => string, rebase: (reference: string) => string | undefined): Record<string, string> {
  const named = namedByConnection(upstream);
  const headers: Record<string, string> = {};
  upstream.forEach((value, name) => {
    const shown = relayed(name, named) ? relayedValue(name, value, rebase) : undefined;
    if (shown !== undefined) headers[name] = hide(shown);
  });
  return { ...headers, ...CORS_HEADERS, ...AS_DATA };
}
