/**
 * The contract violations of one exchange: the request's, by the spec's own input checks (without
 * state, so whatever the profile), and the deployment's response's, by spec/openapi.yaml.
 */
import { isJsonObject, type JsonValue } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { UNKNOWN_PROFILE } from '../../profile/profile.js';
import { mockOperations } from '../operations/kinds.js';
import type { OperationEnv } from '../operations/operation.js';
import { createRouter, type Router, reachedBy } from '../pipeline/router.js';
import { Coverage } from '../state/coverage.js';
import { unsavedChange } from '../state/saved-changes.js';
import type { Exchange, ProxyContext } from './context.js';
import type { ContractViolation } from './drift-report.js';
import { parsedBody } from './json-body.js';
import { textRequest } from './shadow.js';

/** The mock's operations over no state and the unknown profile: only the spec's checks of inputs reject. */
export function createInputChecks(basePath: string): Router {
  const env: OperationEnv = { basePath, coverage: new Coverage(basePath), profile: UNKNOWN_PROFILE, change: (_, change) => unsavedChange(change) };
  return createRouter(basePath, mockOperations(BUNDLED_MODEL, env), env.coverage);
}

/** The `message` of an Error body. */
function messageOf(error: JsonValue | undefined): string {
  return isJsonObject(error) && typeof error.message === 'string' ? error.message : 'the request is invalid';
}

/** Why the input checks reject the exchange's request, if they do: the message of their 400. */
async function requestProblems(inputChecks: Router, { method, target, body, headers }: Exchange): Promise<string[]> {
  const contentType = headers['content-type'];
  const reached = reachedBy(inputChecks.target(target), method);
  if (reached === undefined) return [];
  // The target's parameters are checked already; a request with a body has that checked too.
  const checked = reached.parsed;
  const inputs =
    'parseBody' in checked ? await checked.parseBody(textRequest(method, target, body, contentType ? { 'content-type': contentType } : {})) : checked;
  return 'rejection' in inputs ? [messageOf(parsedBody(inputs.rejection.body))] : [];
}

/** Every violation of the exchange, request side first, each recorded in the drift log. */
export async function recordViolations(context: ProxyContext, exchange: Exchange): Promise<ContractViolation[]> {
  const { upstream, clean } = exchange;
  const request = clean(exchange.requestLine);
  const found: ContractViolation[] = [
    ...(await requestProblems(context.inputChecks, exchange)).map((message) => ({ request, side: 'request' as const, message: clean(message) })),
    ...context
      .conformance(exchange.operationId, { status: upstream.status, body: exchange.upstreamText, header: exchange.upstreamHeader, shown: exchange.redact })
      .map((violation) => ({ request, side: 'response' as const, message: clean(violation.message) })),
  ];
  for (const violation of found) context.log.addViolation(violation);
  return found;
}
