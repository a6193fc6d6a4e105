/**
 * The proxy's response to one request its guards let pass (guard.ts). The admin endpoints stay local:
 * `GET /__mock/drift` is the drift report, `/__mock/requests` the proxy's journal (proxy-journal.ts), the
 * rest are the shadow's. An API request is forwarded to the deployment, held to the spec, sent to the
 * shadow too, and the deployment's response relayed with its violations; a CORS preflight is the
 * shadow's, as the mock's own; a request that forces its response with `Prefer` is answered here, as
 * by the mock (prefer.ts).
 */
import { setTimeout } from 'node:timers/promises';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { journalEndpoint, withoutKeys } from '../admin/endpoints.js';
import { errorResponse, type MockResponse } from '../core/messages.js';
import type { OperationId } from '../operations/operation.js';
import { compareResponses } from '../profile/drift.js';
import { SESSION_HEADER, sessionName } from '../state/sessions.js';
import type { Exchange, Incoming, ProxyContext } from './context.js';
import { forward, type Relayable, relayedResponse } from './forward.js';
import { oneLine } from './hide-credentials.js';
import { parsedBody } from './json-body.js';
import type { Noted } from './proxy-journal.js';
import { preferred } from './proxy-prefer.js';
import { type ShadowResponse, shadowResponse, textRequest } from './shadow.js';
import { upstreamUrl } from './upstream-url.js';
import { recordViolations } from './violations.js';

/**
 * The response to one client request; it rejects only on a fault of the proxy itself. Each step that
 * may respond to an API request first notes its rule for the journal (proxy-journal.ts).
 */
export async function respond(context: ProxyContext, incoming: Incoming, noted: Noted): Promise<MockResponse> {
  const { basePath } = context;
  const path = incoming.target.split('?')[0] ?? '';
  if (path.startsWith('/__mock/')) return adminResponse(context, incoming, path);
  noted.rule = 'route';
  if (path !== basePath && !path.startsWith(`${basePath}/`))
    return errorResponse('not_found', `The proxy forwards only ${basePath}/*; ${path} is not under it.`);
  // A preflight is the mock's, as the guard lets it pass without a key: nothing goes to the deployment.
  if (incoming.method === 'OPTIONS') return context.shadow.mock.respond(textRequest('OPTIONS', incoming.target, '', {}));
  noted.rule = 'validation';
  const there = upstreamUrl(context.upstream, basePath, incoming.target);
  if ('rejection' in there) return errorResponse('bad_request', there.rejection);
  noted.rule = 'prefer';
  const prefers = preferred(context.forcer, context.inputChecks, incoming, context.drawFault);
  if (prefers !== undefined && 'forced' in prefers) return prefers.forced;
  if (prefers?.delay !== undefined) await setTimeout(prefers.delay);
  noted.rule = 'forwarded';
  const forwarded = await forward(context, incoming, there.url);
  if ('failure' in forwarded) {
    const { violation } = forwarded;
    const clean = (text: string) => oneLine(context.hide(incoming.headers.authorization).text(text));
    if (violation !== undefined)
      context.log.addViolation({ request: clean(`${incoming.method} ${incoming.target}`), side: 'response', message: clean(violation) });
    return forwarded.failure;
  }
  const exchange = exchangeOf(context, incoming, noted.operation, forwarded);
  const violations = await recordViolations(context, exchange);
  recordDrifts(context, exchange, await shadowResponse(context.shadow, exchange));
  await context.recorder?.observe(exchange);
  const relayed = relayedResponse(context, exchange, violations);
  if (prefers === undefined) return relayed;
  const headers = prefers.applied === '' ? relayed.headers : { ...relayed.headers, 'preference-applied': prefers.applied };
  return { ...relayed, headers, ...(prefers.fault === undefined ? {} : { fault: prefers.fault }) };
}

/**
 * `GET /__mock/drift` is the proxy's own, and so is its journal (`GET`, `DELETE /__mock/requests`);
 * every other admin endpoint is the shadow's, the journal's too while it is off (its 404 says so).
 * A reset the shadow makes empties the journal of the sessions it resets, as the mock's does. Every
 * answer has the keys the proxy hides taken out, as the mock's admin answers have (`withoutKeys`).
 */
async function adminResponse(context: ProxyContext, incoming: Incoming, path: string): Promise<MockResponse> {
  // The client's credential too when it is the deployment's key (no --upstream-key): the admin quotes what it was sent.
  return withoutKeys(await adminAnswer(context, incoming, path), context.hide(context.upstreamKey === undefined ? incoming.headers.authorization : undefined));
}

async function adminAnswer(context: ProxyContext, { method, target, headers, body }: Incoming, path: string): Promise<MockResponse> {
  if (method === 'GET' && path === '/__mock/drift')
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(context.log.report()) };
  const { journal } = context;
  const session = headers[SESSION_HEADER];
  if (journal !== undefined && path === '/__mock/requests' && (method === 'GET' || method === 'DELETE'))
    return journalEndpoint(journal.keeper, textRequest(method, target, body, typeof session === 'string' ? { [SESSION_HEADER]: session } : {}));
  const response = await context.shadow.mock.respond(textRequest(method, target, body, {}));
  const reset = method === 'POST' && response.status === 200 && /^\/__mock\/(reset|sessions\/[^/]*\/reset)$/.test(path);
  if (journal !== undefined && reset) await journal.keeper.clear(resetSession(path, session));
  return response;
}

/** The session whose journal a reset at `path` empties: the one the path names, else `X-Mock-Session`'s; `undefined` for every one. */
function resetSession(path: string, header: string | string[] | undefined): string | undefined {
  const named = /^\/__mock\/sessions\/([^/]*)\/reset$/.exec(path)?.[1];
  return named ?? (typeof header === 'string' ? sessionName(header) : undefined);
}

/** The exchange of a forwarded request and the deployment's response, with what every step reads of them. */
function exchangeOf(context: ProxyContext, incoming: Incoming, operationId: OperationId | undefined, { upstream, text }: Relayable): Exchange {
  const { method, target, headers } = incoming;
  const hidden = context.hide(headers.authorization);
  const redact = (text: string) => hidden.text(text);
  return {
    ...incoming,
    requestLine: `${method} ${target}`,
    operationId,
    kind: BUNDLED_MODEL.operations.find((operation) => operation.operationId === operationId)?.kind,
    upstream,
    upstreamText: text,
    upstreamJson: parsedBody(text),
    upstreamHeader: (name) => upstream.headers.get(name) ?? undefined,
    redact,
    // Only the string literals of a JSON body: a credential `1` is no part of `"id": 1`.
    redactBody: (body) => hidden.body(body, parsedBody(body) !== undefined),
    clean: (text) => oneLine(redact(text)),
  };
}

/** Every drift of the deployment's response from the shadow's, recorded in the drift log. */
function recordDrifts(context: ProxyContext, exchange: Exchange, shadowed: ShadowResponse): void {
  const { target, upstream, clean } = exchange;
  const query = new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : '');
  const drifts = compareResponses(
    BUNDLED_MODEL,
    exchange.operationId,
    exchange.requestLine,
    query,
    { status: upstream.status, header: exchange.upstreamHeader, json: exchange.upstreamJson },
    { status: shadowed.response.status, header: (name) => shadowed.response.headers[name], json: shadowed.json },
    context.shadow.listOrder,
  );
  for (const drift of drifts)
    context.log.addDrift({
      aspect: drift.aspect,
      upstream: clean(drift.upstream),
      mock: clean(drift.mock),
      message: clean(drift.message),
      request: clean(exchange.requestLine),
    });
}
