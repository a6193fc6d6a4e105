/**
 * Drift: where a deployment's response differs from the response the mock (with its profile) gives
 * the same request in the same state, on what a client relies on: the status, the Error `code`, the
 * contract's headers (the form of `Deprecation`, a `charset`), the body's shape, the fields the request
 * determines (an echoed name, the filter's status) and the order of a page. Ids, generated names
 * and dates legitimately differ and are never compared. Which operation is a create, a read or a list,
 * the record's fields and the list's filter come from the resource model of the spec served.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../json/lossless.js';
import { operationOfKind, type ResourceModel } from '../../openapi/resource-model.js';
import { inOrder, type ListOrder, type Ordered } from '../../profile/profile.js';

/** What differs. */
export type DriftAspect = 'status' | 'code' | 'header' | 'shape' | 'field' | 'order';

/**
 * One difference between the deployment and the mock.
 * @example
 * const drift: Drift = { aspect: 'status', upstream: '200', mock: '400', message: 'GET /v1/pets?limit=500: status: the deployment 200, the mock 400' };
 */
export interface Drift {
  readonly aspect: DriftAspect;
  readonly upstream: string;
  readonly mock: string;
  readonly message: string;
}

/** A response as drift reads it. */
export interface ComparedResponse {
  readonly status: number;
  /** A header by lower-case name. */
  header(name: string): string | undefined;
  /** The body parsed (losslessly), `undefined` when it is not JSON. */
  readonly json: JsonValue | undefined;
}

function kindOf(value: JsonValue | undefined): string {
  if (value === undefined) return 'no JSON';
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value;
}

/** The fields of the record the contract names that `pet` has: what a client may read. */
function fieldsOf(model: ResourceModel, pet: JsonObject): string {
  return model.fields
    .map((field) => field.name)
    .filter((field) => pet[field] !== undefined)
    .join(', ');
}

/** What an order reads of a record: its id, its name and the value of the list's filter (the profile's `status` order). */
export function ordered(model: ResourceModel, filter: string | undefined, pet: JsonValue): Ordered {
  const fields = isJsonObject(pet) ? pet : {};
  const value = filter === undefined ? undefined : fields[filter];
  return { id: String(fields[model.id.field]), name: String(fields.name), status: typeof value === 'string' ? value : undefined };
}

function deprecationForm(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value.trim() === 'true' ? 'legacy true' : 'RFC 9745 date';
}

/**
 * Every drift of `upstream` from `mock` as responses of `operationId` of `model` to one request; `order`
 * is the order the mock lists in, `query` the request's query.
 * @example
 * compareResponses(BUNDLED_MODEL, 'listPets', 'GET /v1/pets?limit=0', new URLSearchParams('limit=0'), upstream, mock, 'id-asc');
 */
export function compareResponses(
  model: ResourceModel,
  operationId: string | undefined,
  request: string,
  query: URLSearchParams,
  upstream: ComparedResponse,
  mock: ComparedResponse,
  order: ListOrder,
): Drift[] {
  const drifts: Drift[] = [];
  const drift = (aspect: DriftAspect, theirs: string, ours: string, what: string) =>
    drifts.push({ aspect, upstream: theirs, mock: ours, message: `${request}: ${what}: the deployment ${theirs}, the mock ${ours}` });

  if (upstream.status !== mock.status) {
    drift('status', String(upstream.status), String(mock.status), 'status');
    return drifts;
  }
  const theirs = upstream.json;
  const ours = mock.json;
  if (kindOf(theirs) !== kindOf(ours)) drift('shape', kindOf(theirs), kindOf(ours), 'body');
  if (upstream.status >= 400 && isJsonObject(theirs) && isJsonObject(ours) && theirs.code !== ours.code)
    drift('code', `code ${String(theirs.code)}`, `code ${String(ours.code)}`, 'Error code');

  const charset = (response: ComparedResponse) => (/;\s*charset=/i.test(response.header('content-type') ?? '') ? 'with a charset' : 'without a charset');
  if (theirs !== undefined && charset(upstream) !== charset(mock)) drift('header', charset(upstream), charset(mock), 'Content-Type');
  const [theirNotice, ourNotice] = [deprecationForm(upstream.header('deprecation')), deprecationForm(mock.header('deprecation'))];
  if (theirNotice !== undefined && theirNotice !== ourNotice) drift('header', theirNotice, ourNotice ?? 'none', 'Deprecation');

  const kind = model.operations.find((operation) => operation.operationId === operationId)?.kind;
  const fields = (pet: JsonObject) => fieldsOf(model, pet);
  if (kind === 'create' && upstream.status === 201 && isJsonObject(theirs) && isJsonObject(ours)) {
    if (fields(theirs) !== fields(ours)) drift('shape', `fields ${fields(theirs)}`, `fields ${fields(ours)}`, 'the new pet');
    // The fields the request determines: those a client sends, which the server echoes.
    for (const { name: field } of model.fields.filter((candidate) => candidate.writable)) {
      const [a, b] = [theirs[field], ours[field]];
      if (a !== undefined && b !== undefined && String(a) !== String(b)) drift('field', `${field} ${String(a)}`, `${field} ${String(b)}`, 'the new pet');
    }
  }
  if (kind === 'read' && upstream.status === 200 && isJsonObject(theirs) && isJsonObject(ours) && fields(theirs) !== fields(ours))
    drift('shape', `fields ${fields(theirs)}`, `fields ${fields(ours)}`, 'the pet');
  if (kind === 'list' && upstream.status === 200 && Array.isArray(theirs)) {
    const filter = operationOfKind(model, 'list')?.filters[0];
    const value = filter === undefined ? null : query.get(filter.parameter);
    const others = theirs.filter((pet) => isJsonObject(pet) && filter !== undefined && value !== null && pet[filter.field] !== value);
    if (filter !== undefined && value !== null && others.length > 0)
      drift('field', `${others.length} pet(s) of another ${filter.field}`, `only ${filter.field} ${value}`, 'the filtered page');
    if (
      !inOrder(
        order,
        theirs.map((pet) => ordered(model, filter?.field, pet)),
      )
    )
      drift('order', 'another order', `order ${order}`, 'the page');
  }
  return drifts;
}
