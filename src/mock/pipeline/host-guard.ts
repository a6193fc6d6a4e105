/**
 * What the Node server rejects before the handler sees a request, because a web page could have
 * sent it: a `Host` the mock does not serve (DNS rebinding: a page on evil.example whose name now
 * points at 127.0.0.1), and admin requests a page on another origin could make. MSW needs none of
 * this: it runs inside the page or the process that uses it, and no other origin reaches it.
 */
import { isIP } from 'node:net';
import { ADMIN_PREFIX, isAdminPath, withoutCors } from '../admin/endpoints.js';
import { memoize } from '../core/memo.js';
import { errorResponse, type MockRequest, type MockResponse, prepared } from '../core/messages.js';

/** The header a page of the mock's own origin sends to show an admin write is meant; a page on another origin cannot send it without a preflight. */
const ADMIN_HEADER = 'x-mock-admin';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The host name of a `Host` header or of an origin's authority, lower-case, without port or IPv6 brackets. */
export function hostName(authority: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(authority)?.[1];
  if (bracketed !== undefined) return bracketed.toLowerCase();
  const colon = authority.indexOf(':');
  return (colon === -1 ? authority : authority.slice(0, colon)).toLowerCase();
}

/**
 * The check of `Host` headers: IP literals (a page cannot rebind an address, only a name), `localhost`
 * and the names in `allowedHosts` pass, with any port.
 * @example
 * const allowed = hostCheck(['mock.internal']);
 * allowed('mock.internal:4010'); // true
 * allowed('attacker.example');   // false
 */
export function hostCheck(allowedHosts: readonly string[]): (host: string) => boolean {
  const names = new Set(['localhost', ...allowedHosts.map((name) => hostName(name))]);
  // Every request of a client names the same Host: it is judged once.
  return memoize((host) => {
    const name = parsedHostOf(host)?.name;
    return name !== undefined && (names.has(name) || isIP(name) !== 0);
  });
}

/** Each value a header was sent with: Node keeps only the first `Host` or `Authorization` in `headers`. */
export function headerValues(rawHeaders: readonly string[], name: string): string[] {
  const values: string[] = [];
  // Names and values alternate: `['Host', 'a', 'host', 'b']`.
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const value = rawHeaders[i + 1];
    const raw = rawHeaders[i];
    // The length first: most names are not the one looked for, and lower-casing each would make a string.
    if (raw?.length === name.length && raw.toLowerCase() === name && value !== undefined) values.push(value);
  }
  return values;
}

/** A header's values joined as fetch joins them, so that a header sent twice reads the same on every host. */
export function joinedHeader(rawHeaders: readonly string[], name: string): string | undefined {
  const values = headerValues(rawHeaders, name);
  return values.length === 0 ? undefined : values.join(', ');
}

/** The rejection of a request whose `Host` the mock does not serve. */
function foreignHost(host: string): MockResponse {
  return errorResponse(
    'forbidden',
    `This mock does not serve the host ${JSON.stringify(host)}: it answers localhost, IP addresses and the names given with --allowed-host (allowedHosts). Start it with --allowed-host ${JSON.stringify(hostName(host))} if that name is meant.`,
  );
}

/** RFC 3986 3.2.2 `reg-name`: unreserved characters, sub-delims and percent-encoded octets, any number of them. */
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** RFC 3986 3.2.2 `IPvFuture`, the other form an IP-literal may take. */
const IP_FUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;

/**
 * A `Host` value read by its grammar, RFC 9110 7.2: `uri-host [ ":" port ]`, where `uri-host` is RFC 3986's
 * `host` (an IP-literal in brackets, an IPv4 address or a reg-name) and `port` is `*DIGIT`, here at most
 * 65535 (leading zeros allowed, as `*DIGIT` allows them: `:080` is port 80). An IP-literal holds an IPv6
 * address or an `IPvFuture`, never a zone id (`[fe80::1%eth0]`, RFC 3986 has none: it names a link of
 * the client's machine, not this server); `[::1` or `[zzzz]` is no host at all. The name comes back
 * lower-case, without brackets; `undefined` when the value is not a `Host`.
 * @example
 * parsedHost('[::1]:4010'); // { name: '::1' }
 * parsedHost('[::1%25evil.example]'); // undefined
 */
function parsedHost(value: string): { readonly name: string } | undefined {
  const literal = value.startsWith('[');
  const end = literal ? value.indexOf(']') + 1 : value.includes(':') ? value.indexOf(':') : value.length;
  if (literal && end === 0) return undefined;
  const host = value.slice(0, end);
  const port = value.slice(end);
  if (port !== '' && !(/^:[0-9]*$/.test(port) && Number(port.slice(1) || 0) <= 65_535)) return undefined;
  if (!literal) return REG_NAME.test(host) ? { name: host.toLowerCase() } : undefined;
  const inner = host.slice(1, -1);
  return (isIP(inner) === 6 && !inner.includes('%')) || IP_FUTURE.test(inner) ? { name: inner.toLowerCase() } : undefined;
}

/** `parsedHost`, read once per distinct value: a client sends the same `Host` with every request. */
const parsedHostOf = memoize(parsedHost);

/** The rejection of a `Host` that is not well formed: a 400, as RFC 9112 3.2 asks for an invalid `Host`. */
function malformedHost(host: string): MockResponse {
  return errorResponse(
    'bad_request',
    `The Host header ${JSON.stringify(host)} is malformed: it is a host name or IP address (IPv6 in brackets, without a zone id), then at most a port of digits from 0 to 65535, as in localhost:4010 or [::1]:4010.`,
  );
}

/** The rejection of an HTTP/1.1 request without `Host`, as HTTP/1.1 requires one. */
const MISSING_HOST = prepared(errorResponse('bad_request', 'An HTTP/1.1 request must carry a Host header.'));

/** True for paths of the admin endpoints. */
export function isAdminTarget(target: string): boolean {
  const mark = target.indexOf('?');
  return isAdminPath(mark === -1 ? target : target.slice(0, mark));
}

function adminRejection(message: string): MockResponse {
  return withoutCors(errorResponse('forbidden', message));
}

/** What `Sec-Fetch-Site` says of a request a page on another origin made: it was sent from another site, or from another origin of this one. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

/**
 * The rejection of an admin request, or `undefined` when it may go on. A page on another origin
 * can send a "simple" POST (form or `text/plain` body, no custom header, `sendBeacon`) without asking
 * first, but a browser always sends `Origin` with a POST or DELETE a page makes (`Origin: null` after
 * a redirect or from a sandbox), and `Sec-Fetch-Site: cross-site` or `same-site` when the page is
 * elsewhere. So a request with neither is a script's (curl, Playwright's `request`, Cypress's
 * `cy.request`) and goes on; a foreign `Origin`, a preflight, or a write marked as coming from
 * another site is rejected. A write from the mock's own origin still needs a JSON body or
 * `X-Mock-Admin`, as it did.
 */
export function adminProblem(request: MockRequest, host: string | undefined): MockResponse | undefined {
  if (request.method === 'OPTIONS') {
    return adminRejection("The admin endpoints answer no CORS preflight: only scripts and pages of the mock's own origin may call them.");
  }
  const origin = request.header('origin');
  if (origin !== undefined && origin.toLowerCase() !== `http://${host?.toLowerCase()}`) {
    return adminRejection(
      `The admin endpoints refuse requests from pages on other origins (Origin: ${origin}); call them from a script or the mock's own origin.`,
    );
  }
  if (SAFE_METHODS.has(request.method)) return undefined;
  const site = request.header('sec-fetch-site')?.toLowerCase();
  if (site !== undefined && FOREIGN_SITES.has(site)) {
    return adminRejection(
      `The admin endpoints refuse requests from pages on other origins (Sec-Fetch-Site: ${site}); call them from a script or the mock's own origin.`,
    );
  }
  if (origin === undefined) return undefined;
  const contentType = request.header('content-type');
  if (request.header(ADMIN_HEADER) !== undefined || (contentType !== undefined && JSON_MEDIA_TYPE.test(contentType))) return undefined;
  return adminRejection(
    `${request.method} ${ADMIN_PREFIX}... changes the mock: send it with Content-Type: application/json or the header X-Mock-Admin: 1, which a web page on another origin cannot send unasked.`,
  );
}

/** What a Node server knows of a request beyond a `MockRequest`: each header as sent, and the HTTP version. */
export interface RawRequest {
  readonly rawHeaders: readonly string[];
  readonly httpVersion: string;
}

/**
 * The rejection of a request by its `Host` alone: malformed (a port that is no number), one the host
 * does not serve, or none on HTTP/1.1; `undefined` when it may go on. The Vite plugin applies it where
 * the dev server proxies to the mock, which sees its own address as `Host` there (src/mock/hosts/vite-guard.ts).
 */
export function hostRejection(hostAllowed: (host: string) => boolean, raw: RawRequest): MockResponse | undefined {
  return hostsRejection(hostAllowed, raw, headerValues(raw.rawHeaders, 'host'));
}

function hostsRejection(hostAllowed: (host: string) => boolean, raw: RawRequest, hosts: readonly string[]): MockResponse | undefined {
  if (hosts.length === 0 && raw.httpVersion === '1.1') return MISSING_HOST;
  // Plain loops, by index: every request passes here, and a callback to `find` is a closure made per
  // request, a `for...of` an iterator where the code is not yet fully optimized.
  for (let i = 0; i < hosts.length; i++) if (parsedHostOf(hosts[i] as string) === undefined) return malformedHost(hosts[i] as string);
  for (let i = 0; i < hosts.length; i++) if (!hostAllowed(hosts[i] as string)) return foreignHost(hosts[i] as string);
  return undefined;
}

/**
 * The response a Node host gives before anything else sees the request: a malformed `Host` (a port
 * that is no number), a `Host` it does not serve, an HTTP/1.1 request without one, or an admin request a page could have forged; `undefined` when
 * the request may go on. The mock's server and the proxy both pass every request through here.
 */
export function guardResponse(hostAllowed: (host: string) => boolean, request: MockRequest, raw: RawRequest): MockResponse | undefined {
  const hosts = headerValues(raw.rawHeaders, 'host');
  const rejected = hostsRejection(hostAllowed, raw, hosts);
  if (rejected !== undefined) return rejected;
  return isAdminTarget(request.target) ? adminProblem(request, hosts[0]) : undefined;
}
