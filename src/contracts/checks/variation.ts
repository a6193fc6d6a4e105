/**
 * The checks of request variation (the rules are in variants.ts): each operation of the collection is
 * sent as a client plainly spells it, then in every variant that applies, each answer judged by its
 * rule against the plain one; each documented path gets the methods of `METHOD_VARIANTS`. A server
 * error or a dropped connection on any of them is a breach, whatever the rule.
 */

import { isWrite } from '../../http/methods.js';
import { definedFields } from '../../json/defined-fields.js';
import { parseJson } from '../../json/lossless.js';
import { operationById, resolve } from '../../openapi/document.js';
import { objectText } from '../body-breakages.js';
import type { Check, CheckContext } from '../check.js';
import { type Contract, filledPath } from '../contract.js';
import { type FollowedOperations, followedOperations } from '../deployment/deployment-model.js';
import { type Exchange, TransportError } from '../http.js';
import { absentId, bodyCategoryId, exact, existingPet, idOf, newPetBody } from '../pets.js';
import { type BodySchemaView, type Change, METHOD_VARIANTS, type PlainRequest, type Variant, variantsOf } from './variants.js';

/** A plain request of one operation: its path parameters, and its body's fields when it has one. */
interface Plain extends PlainRequest {
  readonly operationId: string;
  readonly params: Readonly<Record<string, string>>;
}

function schemaView(contract: Contract, operationId: string): BodySchemaView {
  const { required } = contract.body(operationId);
  const content = operationById(contract.doc, operationId).operation.requestBody?.content ?? {};
  const schema = content['application/json']?.schema;
  const additional = schema && resolve(contract.doc, schema).additionalProperties;
  return {
    required,
    mediaTypes: Object.keys(content).map((type) => type.toLowerCase()),
    additionalProperties:
      typeof additional === 'boolean' || typeof additional === 'object' ? (additional as BodySchemaView['additionalProperties']) : undefined,
  };
}

/** The plain request of an operation of the collection: the list bare, the read of a pet that exists, the create of a valid body. */
async function plainRequest(context: CheckContext, shape: FollowedOperations, operationId: string, purpose: string): Promise<Plain> {
  if (operationId === shape.read.operationId)
    return { operationId, params: { [context.contract.model.id.parameter]: idOf(context, await existingPet(context)) } };
  if (operationId !== shape.create.operationId) return { operationId, params: {} };
  const text = newPetBody(context.state, purpose, { categoryId: await bodyCategoryId(context.state) });
  const body = parseJson(text);
  const fields =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body).map(([name, value]) => [name, exact(value)]))
      : {};
  return { operationId, params: {}, fields };
}

/** The plain request's body, from its fields' exact texts. */
function bodyText(plain: Plain): string {
  return objectText(plain.fields ?? {});
}

/** The class of a status: 2 for 2xx, 4 for 4xx. */
const classOf = (status: number) => Math.floor(status / 100);

/** What was wrong with the answer to a variant, judged by its rule against the answer to the plain request; undefined when right. */
function problem(variant: Variant, plain: Exchange, status: number): { message: string; expected: string } | undefined {
  if (status >= 500) return { message: `answered ${status}: a server error, never allowed`, expected: 'anything but a 5xx' };
  if (variant.expect === 'alike' && classOf(status) !== classOf(plain.status))
    return {
      message: `answered ${status} where the request spelt plainly got ${plain.status}, and ${variant.rule}`,
      expected: `${classOf(plain.status)}xx, as the plain request`,
    };
  if (variant.expect === 'refuse' && (status < 400 || (variant.status !== undefined && status !== variant.status)))
    return {
      message: `${status < 300 ? 'accepted it' : `answered ${status}`}, where ${variant.rule}`,
      expected: variant.status === undefined ? '4xx' : String(variant.status),
    };
  return undefined;
}

/**
 * A request the deployment, having answered the plain one, dropped: the connection reset, or refused once
 * a retry of a read found the deployment gone. It crashed, which no request a client may send allows. (A
 * hang past --timeout stays a run that could not verify.)
 */
function crashed(context: CheckContext, error: unknown, what: string): boolean {
  if (!(error instanceof TransportError) || !['network', 'refused'].includes(error.problem)) return false;
  context.findings.push({
    message: `the deployment answered nothing to ${what} (${error.message}): a crash on a request a client may send is a breach`,
    request: error.request,
    // One crash takes the deployment down for every check that meets it after: one fault.
    fault: 'crash',
  });
  return true;
}

/** Sends a variant: through the spec's conformance rule when the variant must conform, else as it is. */
function send(context: CheckContext, plain: Plain, variant: Variant, change: Change): Promise<Exchange> {
  const operation = context.contract.operation(plain.operationId);
  const body = change.body ?? (plain.fields && bodyText(plain));
  const { contentType, headers, authorization } = change;
  const request = definedFields({ body, contentType, headers, authorization });
  if (variant.conforms !== false) return context.call(plain.operationId, { ...request, params: plain.params, what: variant.what });
  if (operation.method === 'POST') context.reserveWrite();
  const path = filledPath(operation.path, plain.params);
  const query = change.query === undefined ? {} : { query: change.query };
  return context.state.client.send({ method: operation.method, path, ...query, ...request, what: `${plain.operationId} with ${variant.what}` });
}

async function varyOperation(context: CheckContext, shape: FollowedOperations, operationId: string): Promise<void> {
  const first = await plainRequest(context, shape, operationId, 'variation');
  const baseline = await context.call(operationId, { params: first.params, ...(first.fields ? { body: bodyText(first) } : {}) });
  const schema = first.fields ? schemaView(context.contract, operationId) : undefined;
  for (const [index, variant] of variantsOf(schema).entries()) {
    // Each create with a name of its own: a deployment may keep names unique.
    const plain = first.fields ? await plainRequest(context, shape, operationId, `variation ${index + 1}`) : first;
    const change = variant.change(plain);
    if (change === undefined) continue;
    let exchange: Exchange;
    try {
      exchange = await send(context, plain, variant, change);
    } catch (error) {
      if (crashed(context, error, `${operationId} with ${variant.what}`)) return;
      throw error;
    }
    const wrong = problem(variant, baseline, exchange.status);
    // A 5xx through the conformance rule is already a finding of its own.
    if (wrong === undefined || (exchange.status >= 500 && variant.conforms !== false)) continue;
    if (variant.advisory !== undefined && exchange.status < 500) {
      context.advise(`${operationId} with ${variant.what} ${wrong.message} (advice: ${variant.advisory})`, `variation:${variant.what}`);
      continue;
    }
    // One fault per variant, whichever operation met it: one header parser or body reader in front of them all.
    const fault = exchange.status >= 500 ? `server-error:${variant.what}` : `variation:${variant.what}`;
    context.failStatus(`${operationId} with ${variant.what} ${wrong.message}`, exchange, wrong.expected, fault);
  }
}

/** Below an item no one has: a path the spec does not define, which a client may still send (a typo, a newer client). */
const UNDEFINED_PATH_SEGMENT = 'petstore-verify-undefined';

/**
 * Each method of `METHOD_VARIANTS` on each documented path of the collection, and on a path below an
 * item that the spec does not define: anything but a server error or a dropped connection (a router
 * that throws on a path it does not match is the mock's bug as much as any deployment's); a 405
 * names what the resource supports, as RFC 9110 §15.5.6 requires.
 */
async function varyMethods(context: CheckContext, shape: FollowedOperations): Promise<void> {
  const absent = absentId(context);
  const item = shape.read.path.replace(/\{[^}]+\}$/, absent);
  const paths = [shape.list.path, item, `${item}/${UNDEFINED_PATH_SEGMENT}`];
  for (const path of paths)
    for (const variant of METHOD_VARIANTS) {
      if (variant.unsafe && (context.state.readOnly || path === shape.list.path)) continue;
      const what = `${variant.method} ${path}${variant.anonymous ? ' without a credential' : ''}`;
      let exchange: Exchange;
      try {
        exchange = await context.state.client.send({
          method: variant.method,
          path,
          ...(variant.headers ? { headers: variant.headers } : {}),
          ...(variant.anonymous ? { authorization: null } : {}),
          what,
        });
      } catch (error) {
        if (crashed(context, error, what)) return;
        throw error;
      }
      if (exchange.status >= 500)
        context.fail(`${what} answered ${exchange.status}: a server error, never allowed (${variant.rule})`, exchange, {
          expected: 'anything but a 5xx',
          actual: String(exchange.status),
          fault: `server-error:${variant.method}`,
        });
      else if (exchange.status === 405 && exchange.headers.get('allow') === null)
        context.fail(
          `${what} answered 405 without an Allow header, which RFC 9110 §15.5.6 requires on every 405 (the methods the resource supports)`,
          exchange,
          {
            expected: 'a 405 with Allow',
            actual: '405 without Allow',
            fault: 'allow-missing',
          },
        );
    }
}

/** The checks of request variation for the spec's collection: one per operation, and one of methods. */
export function variationChecks(contract: Contract): Check[] {
  const shape = followedOperations(contract.model);
  if (shape === undefined) return [];
  const operations = [shape.list.operationId, shape.read.operationId, shape.create.operationId];
  return [
    ...operations.map(
      (operationId): Check => ({
        id: `${operationId}.variation`,
        title: `${operationId} answers each spelling of its request that RFC 9110, RFC 7240, RFC 8259 and its schemas make the same alike, refuses those they rule out, and never with a 5xx`,
        operationId,
        writes: isWrite(contract.operation(operationId).method),
        run: (context) => varyOperation(context, shape, operationId),
      }),
    ),
    {
      id: 'methods.variation',
      title:
        'OPTIONS (a CORS preflight too), HEAD and an undocumented method on each documented path, and on a path below an item the spec does not define, get anything but a 5xx, and a 405 names the methods allowed',
      writes: false,
      run: (context) => varyMethods(context, shape),
    },
  ];
}
