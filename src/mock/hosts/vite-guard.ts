/**
 * The mock's request guards where the dev server proxies to it. Behind Vite's proxy the mock sees every
 * request come from 127.0.0.1 with its own address as `Host` (`changeOrigin`), so the rules it keeps on
 * its own server would hold nothing there: a malformed `Host`, a `Host` it does not serve (DNS
 * rebinding, when Vite's own check is off), and an admin request from another machine without the key
 * (a dev server bound beyond loopback, `vite --host`). They are applied here, at the dev server's seam,
 * by the mock's own functions, and answered with the mock's Error, before Vite's host check and proxy.
 */
import type { IncomingMessage } from 'node:http';
import type { Connect } from 'vite';
import { climbs } from '../../http/dot-segments.js';
import { isInspectorFile, withoutCors } from '../admin/endpoints.js';
import { errorResponse, type MockResponse } from '../core/messages.js';
import { type AuthProblem, UNAUTHORIZED } from '../pipeline/auth.js';
import { hostRejection, isAdminTarget, joinedHeader } from '../pipeline/host-guard.js';
import { isLoopback } from '../pipeline/server-reach.js';
import { writeResponse } from './node-server.js';

/** What the dev server holds a request for the mock to. */
export interface SeamRules {
  /** Whether the dev server proxies a request-target to the mock (its API or its admin). */
  readonly proxied: (target: string) => boolean;
  /** Whether a `Host` is one the dev server serves: the mock's rule when Vite checks none, else any well-formed one (Vite's check follows). */
  readonly hostServed: (host: string) => boolean;
  /** The check of the mock's keys; `undefined` when the plugin does not know them (`target` without `apiKey`). */
  readonly authorize: ((authorization: string | undefined) => AuthProblem | number) | undefined;
  /** The Error without the mock's keys: the guard may quote the `Host` sent. */
  readonly keyless: (response: MockResponse) => MockResponse;
}

/** Said to another machine asking for the admin of a mock at `target` whose key the plugin was not given. */
const KEY_UNKNOWN = withoutCors(
  errorResponse(
    'forbidden',
    'The admin endpoints answer other machines only with the key, and the dev server was not told the key of the mock at target: give it as petstoreMock({ target, apiKey }), or call the admin from this machine.',
  ),
);

/**
 * Said of a request-target with a dot segment or a hidden slash: Vite's proxy would resolve it, and the
 * mock would receive another route than the one judged here (`/v1/../__mock/reset`, an API path to
 * this guard, is the admin's to the mock, which sees the dev server's loopback address).
 */
const CLIMBS = errorResponse(
  'bad_request',
  'The request path has a dot segment (".", "..", or a percent-encoded form) or an encoded slash, which the dev server\'s proxy would resolve before the mock sees it: send the path as the API names it, without them.',
);

/**
 * Whether a request comes from this machine. The mock asks the admin's key when it is bound beyond
 * loopback (`adminKeyRequired`); behind the dev server it cannot see who asks, so the dev server judges
 * each request by the address it came from, with the same rule (`isLoopback`). A dual-stack server
 * (`::`, `vite --host`) sees an IPv4 client as `::ffff:127.0.0.1`.
 */
function fromThisMachine(remoteAddress: string | undefined): boolean {
  return remoteAddress !== undefined && isLoopback(remoteAddress.replace(/^::ffff:/i, ''));
}

/** The mock's 401 (or, with the key unknown, 403) for an admin request from another machine without the key; the inspector's files need none, as on the mock. */
function adminKeyRejection(rules: SeamRules, request: IncomingMessage, target: string): MockResponse | undefined {
  if (!isAdminTarget(target) || fromThisMachine(request.socket.remoteAddress)) return undefined;
  if (isInspectorFile(request.method ?? 'GET', target.split('?')[0] ?? '')) return undefined;
  if (rules.authorize === undefined) return KEY_UNKNOWN;
  const key = rules.authorize(joinedHeader(request.rawHeaders, 'authorization'));
  return typeof key === 'string' ? withoutCors(UNAUTHORIZED[key]) : undefined;
}

/**
 * The middleware that holds each request the dev server proxies to the mock to the mock's guards: its
 * `Host` rule (`hostRejection`, the Node server's), a path that would not reach the mock as sent, then
 * the admin's key for another machine.
 */
export function seamGuard(rules: SeamRules): Connect.NextHandleFunction {
  return (request, outgoing, next) => {
    const target = request.url ?? '/';
    if (!rules.proxied(target)) return next();
    const rejected = hostRejection(rules.hostServed, request) ?? (climbs(target.split('?')[0] ?? '') ? CLIMBS : adminKeyRejection(rules, request, target));
    if (rejected === undefined) return next();
    // As the mock's server writes an answer: Node sends no body with a HEAD's.
    writeResponse(outgoing, rules.keyless(rejected), false);
  };
}
