/**
 * `Prefer` through the proxy (docs/mock-prefer.md), which a deployment does not know. A request that
 * forces its answer (`code=`, `auth=expired`, or their `__name` query twins) is answered by the proxy
 * itself, by the mock's own pipeline, exactly as the plain mock answers it (`Retry-After` on a 429 or
 * 503, `Preference-Applied`, a `delay=` beside it), and never reaches the deployment: a forced 500 on
 * `POST /v1/pets` adds no pet there. A `Prefer` the mock would reject is rejected the same way. A
 * `delay=` alone delays the forwarded request. A network fault (`fault=`, docs/mock-faults.md) is the
 * proxy's own, as the mock's: one that breaks the connection before a response (`reset`, `close`,
 * `garbage`) is made here and nothing is forwarded; `truncate` and `slow` break or trickle the
 * deployment's response as it is relayed.
 */

import type { ProfileDocument } from '../../profile/profile.js';
import { breaksBeforeResponse, DEFAULT_TRICKLE_MS, type FaultKind, type NetworkFault } from '../core/faults.js';
import type { MockResponse } from '../core/messages.js';
import type { Pending } from '../core/pending.js';
import { createMockApi, type MockApi } from '../create-mock-api.js';
import { appliedPreferences, brokenConnection, type Preferences, parsePreferences } from '../pipeline/prefer.js';
import { type Router, reachedBy } from '../pipeline/router.js';
import type { Incoming } from './context.js';
import { textRequest } from './shadow.js';

/** The forcing mock's own key: it never leaves the process. */
const FORCER_KEY = 'petstore-proxy-forcer-key';

/**
 * The mock that makes forced responses: no pets, as a forced response reads no state, and the profile's
 * form of responses, so that a forced answer looks like the deployment's own.
 */
export function createForcer(profile: ProfileDocument | undefined): MockApi {
  return createMockApi({ count: 0, apiKey: FORCER_KEY, ...(profile === undefined ? {} : { profile }) });
}

/**
 * What a request prefers, as the proxy honours it: a response it forces, made here; or what it does to
 * the forwarded request, a delay before it and a fault of its response (`truncate`, `slow`), with the
 * `Preference-Applied` it earns (none for a fault `--faults` drew).
 */
type Preferred = { readonly forced: Pending<MockResponse> } | { readonly delay?: number; readonly fault?: NetworkFault; readonly applied: string } | undefined;

/** Whether `preferences` ask for a response made without the deployment: a forced status, or a fault that leaves no response to relay. */
function forces(preferences: Preferences): boolean {
  return preferences.code !== undefined || preferences.auth !== undefined || (preferences.fault !== undefined && breaksBeforeResponse(preferences.fault));
}

/**
 * What `incoming` prefers, by the mock's own parsing (none without `forcer`: `--no-prefer`), and the
 * fault `drawFault` (`--faults`) draws for a request that asks for none, as the mock's pipeline draws it:
 * `undefined` for a request that reaches no operation, or that prefers nothing and draws nothing.
 */
export function preferred(
  forcer: MockApi | undefined,
  inputChecks: Router,
  incoming: Incoming,
  drawFault: (() => FaultKind | undefined) | undefined,
): Preferred {
  const { method, target, headers, body } = incoming;
  const reached = inputChecks.target(target);
  const operationId = reachedBy(reached, method)?.operation.id;
  if (operationId === undefined) return undefined;
  const prefer = Array.isArray(headers.prefer) ? headers.prefer.join(', ') : headers.prefer;
  const preferences = forcer === undefined ? undefined : parsePreferences(prefer, reached.query, operationId);
  if (forcer !== undefined && preferences !== undefined && ('error' in preferences || forces(preferences))) {
    const contentType = headers['content-type'];
    const sent = {
      authorization: `Bearer ${FORCER_KEY}`,
      ...(prefer === undefined ? {} : { prefer }),
      ...(contentType ? { 'content-type': contentType } : {}),
    };
    return { forced: forcer.respond(textRequest(method, target, body, sent)) };
  }
  const asked = preferences === undefined || 'error' in preferences ? undefined : preferences;
  const { delay, fault, trickle } = asked ?? {};
  const applied = asked === undefined ? '' : appliedPreferences(asked);
  // A fault drawn by --faults counts as asked for, as by the mock (its pipeline's step 6), without a Preference-Applied.
  const drawn = fault === undefined ? drawFault?.() : undefined;
  if (drawn !== undefined && breaksBeforeResponse(drawn))
    return { forced: { ...brokenConnection(drawn, operationId), fault: { kind: drawn, trickleMs: DEFAULT_TRICKLE_MS } } };
  const kind = fault ?? drawn;
  if (delay === undefined && kind === undefined) return undefined;
  return {
    ...(delay === undefined ? {} : { delay }),
    ...(kind === undefined ? {} : { fault: { kind, trickleMs: (fault === undefined ? undefined : trickle) ?? DEFAULT_TRICKLE_MS } }),
    applied,
  };
}
