/**
 * What the proxy rejects before it reads a body or forwards anything, by the mock's own rules rather
 * than copies of them: the host guard and the admin guard every Node host passes through
 * (src/mock/pipeline/host-guard.ts), and the bearer check with the mock's 401 (src/mock/pipeline/auth.ts).
 * So the proxy is no open relay: the upstream key goes only with a request that holds one of the
 * mock's keys, from a script or a page of this machine.
 */
import { withoutCors } from '../admin/endpoints.js';
import { errorResponse, type MockRequest, type MockResponse } from '../core/messages.js';
import { UNAUTHORIZED } from '../pipeline/auth.js';
import { guardResponse, hostName, isAdminTarget, type RawRequest } from '../pipeline/host-guard.js';
import { isLoopback } from '../pipeline/server-reach.js';
import type { ProxyContext } from './context.js';

/**
 * Whether a request must hold one of the mock's keys. An admin request, when the proxy is reachable
 * beyond this machine, as for the mock. An API request, whenever the proxy sends its own key to the
 * deployment; without one, the client's own Authorization goes there and the deployment decides. A CORS
 * preflight never holds a key: the proxy responds to it as the mock does, and forwards nothing.
 */
function keyRequired(context: ProxyContext, request: MockRequest): boolean {
  if (isAdminTarget(request.target)) return context.adminKeyRequired;
  return context.upstreamKey !== undefined && request.method !== 'OPTIONS';
}

/** The mock's 401 for a request that must hold one of its keys and does not; an admin 401 without CORS, as the mock's. */
function credentialRejection(context: ProxyContext, request: MockRequest): MockResponse | undefined {
  if (!keyRequired(context, request)) return undefined;
  const key = context.authorize(request.header('authorization'));
  if (typeof key !== 'string') return undefined;
  return isAdminTarget(request.target) ? withoutCors(UNAUTHORIZED[key]) : UNAUTHORIZED[key];
}

/** Whether `origin` is a page of this machine (a dev server on `localhost:5173`) or of a name the proxy serves; `null` is neither. */
function pageOfHere(context: ProxyContext, origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const name = hostName(new URL(origin).host);
  return isLoopback(name) || context.pageHosts.has(name);
}

/**
 * The rejection of an API request, its preflight included, from a page elsewhere while the proxy holds
 * the upstream key. The mock's own API lets every origin in, as it lends no credential; the proxy
 * lends the deployment's, and the mock's default key is public, so any web page the developer visits
 * could otherwise drive the deployment through it. Scripts send no `Origin` and pass.
 */
function originRejection(context: ProxyContext, request: MockRequest): MockResponse | undefined {
  const origin = request.header('origin');
  if (context.upstreamKey === undefined || isAdminTarget(request.target) || origin === undefined || pageOfHere(context, origin)) return undefined;
  return withoutCors(
    errorResponse(
      'forbidden',
      `The proxy sends the deployment's key (--upstream-key), so it serves only scripts and pages of this machine, not a page of ${JSON.stringify(origin)}. Serve the page from localhost, or name its host with --allowed-host.`,
    ),
  );
}

/** The proxy's own rejection of a request its Host guard lets pass: a page elsewhere (403), or no key of the mock's (401); or `undefined`. */
export function keyRejection(context: ProxyContext, request: MockRequest): MockResponse | undefined {
  return originRejection(context, request) ?? credentialRejection(context, request);
}

/** The proxy's response to a request it must not serve (403 for a foreign Host, a forged admin request or a page elsewhere; 400 without Host; 401), or `undefined`. */
export function guardRejection(context: ProxyContext, request: MockRequest, raw: RawRequest): MockResponse | undefined {
  return guardResponse(context.hostAllowed, request, raw) ?? keyRejection(context, request);
}
