/**
 * The proxy's response to one request its guards let pass (guard.ts). The admin endpoints stay local:
 * `GET /__mock/drift` is the drift report, the rest are the shadow's. An API request is forwarded to
 * the deployment, held to the spec, sent to the shadow too, and the deployment's response relayed with
 * its violations; a CORS preflight is the shadow's, as the mock's own; a request that forces its
 * response with `Prefer` is answered here, as by the mock (prefer.ts).
 */
import { setTimeout } from 'node:timers/promises';
import { errorResponse, type MockResponse } from '../core/messages.js';
import { appliedPreferences } from '../pipeline/prefer.js';
import { compareResponses } from '../profile/drift.js';
import type { Exchange, Incoming, ProxyContext } from './context.js';
import { forward, relayedResponse } from './forward.js';
import { bearerToken, oneLine, redactor } from './hide-credentials.js';
import { parsedBody } from './json-body.js';
import { preferred } from './prefer.js';
import { type ShadowResponse, shadowResponse, textRequest } from './shadow.js';
import { upstreamUrl } from './upstream-url.js';
import { recordViolations } from './violations.js';

/** The response to one client request; it rejects only on a fault of the proxy itself. */
export async function respond(context: ProxyContext, incoming: Incoming): Promise<MockResponse> {
  const { basePath } = context;
  const path = incoming.target.split('?')[0] ?? '';
  if (path.startsWith('/__mock/')) return adminResponse(context, incoming, path);
  if (path !== basePath && !path.startsWith(`${basePath}/`))
    return errorResponse('not_found', `The proxy forwards only ${basePath}/*; ${path} is not under it.`);
  // A preflight is the mock's, as the guard lets it pass without a key: nothing goes to the deployment.
  if (incoming.method === 'OPTIONS') return context.shadow.mock.respond(textRequest('OPTIONS', incoming.target, '', {}));
  const there = upstreamUrl(context.upstream, basePath, incoming.target);
  if ('rejection' in there) return errorResponse('bad_request', there.rejection);
  const prefers = preferred(context.forcer, context.inputChecks, incoming);
  if (prefers !== undefined && 'forced' in prefers) return prefers.forced;
  if (prefers !== undefined) await setTimeout(prefers.delay);
  const forwarded = await forward(context, incoming, there.url);
  if ('failure' in forwarded) return forwarded.failure;
  const exchange = exchangeOf(context, incoming, forwarded.upstream, forwarded.text);
  const violations = await recordViolations(context, exchange);
  recordDrifts(context, exchange, await shadowResponse(context.shadow, exchange));
  await context.recorder?.observe(exchange);
  const relayed = relayedResponse(context.upstreamKey, forwarded.upstream, forwarded.text, violations);
  return prefers === undefined ? relayed : { ...relayed, headers: { ...relayed.headers, 'preference-applied': appliedPreferences(prefers) } };
}

/** `GET /__mock/drift` is the proxy's own; every other admin endpoint is the shadow's. */
async function adminResponse(context: ProxyContext, { method, target, body }: Incoming, path: string): Promise<MockResponse> {
  if (method === 'GET' && path === '/__mock/drift')
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(context.log.report()) };
  return context.shadow.mock.respond(textRequest(method, target, body, {}));
}

/** The exchange of a forwarded request and the deployment's response, with what every step reads of them. */
function exchangeOf(context: ProxyContext, incoming: Incoming, upstream: Response, text: string): Exchange {
  const { method, target, headers } = incoming;
  const redact = redactor([context.upstreamKey, bearerToken(headers.authorization)]);
  return {
    ...incoming,
    requestLine: `${method} ${target}`,
    operationId: context.inputChecks.target(target).operations.get(method)?.operation.id,
    upstream,
    upstreamText: text,
    upstreamJson: parsedBody(text),
    upstreamHeader: (name) => upstream.headers.get(name) ?? undefined,
    clean: (text) => oneLine(redact(text)),
  };
}

/** Every drift of the deployment's response from the shadow's, recorded in the drift log. */
function recordDrifts(context: ProxyContext, exchange: Exchange, shadowed: ShadowResponse): void {
  const { target, upstream, clean } = exchange;
  const query = new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : '');
  const drifts = compareResponses(
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
