/**
 * Drift: where a deployment's response differs from the response the mock (with its profile) gives
 * the same request in the same state, on what a client relies on: the status, the Error `code`, the
 * contract's headers (the form of `Deprecation`, a `charset`), the body's shape, the fields the request
 * determines (an echoed name, the filter's status) and the order of a page. Ids, generated names
 * and dates legitimately differ and are never compared.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../json/lossless.js';
import { inOrder, type ListOrder, type Ordered } from '../../profile/profile.js';
import type { OperationId } from '../operations/operation.js';

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

/** The fields of a Pet the contract names: what a client may read. */
const PET_FIELDS = ['id', 'name', 'categoryId', 'status'] as const;

function fieldsOf(pet: JsonObject): string {
  return PET_FIELDS.filter((field) => pet[field] !== undefined).join(', ');
}

function ordered(pet: JsonValue): Ordered {
  const fields = isJsonObject(pet) ? pet : {};
  return { id: String(fields.id), name: String(fields.name), status: typeof fields.status === 'string' ? fields.status : undefined };
}

function deprecationForm(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value.trim() === 'true' ? 'legacy true' : 'RFC 9745 date';
}

/**
 * Every drift of `upstream` from `mock` as responses of `operationId` to one request; `order` is the
 * order the mock lists in, `query` the request's query.
 * @example
 * compareResponses('listPets', 'GET /v1/pets?limit=0', new URLSearchParams('limit=0'), upstream, mock, 'id-asc');
 */
export function compareResponses(
  operationId: OperationId | undefined,
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

  if (operationId === 'createPet' && upstream.status === 201 && isJsonObject(theirs) && isJsonObject(ours)) {
    if (fieldsOf(theirs) !== fieldsOf(ours)) drift('shape', `fields ${fieldsOf(theirs)}`, `fields ${fieldsOf(ours)}`, 'the new pet');
    for (const field of ['name', 'categoryId', 'status'] as const) {
      const [a, b] = [theirs[field], ours[field]];
      if (a !== undefined && b !== undefined && String(a) !== String(b)) drift('field', `${field} ${String(a)}`, `${field} ${String(b)}`, 'the new pet');
    }
  }
  if (operationId === 'getPet' && upstream.status === 200 && isJsonObject(theirs) && isJsonObject(ours) && fieldsOf(theirs) !== fieldsOf(ours))
    drift('shape', `fields ${fieldsOf(theirs)}`, `fields ${fieldsOf(ours)}`, 'the pet');
  if (operationId === 'listPets' && upstream.status === 200 && Array.isArray(theirs)) {
    const status = query.get('status');
    const others = theirs.filter((pet) => isJsonObject(pet) && status !== null && pet.status !== status);
    if (status !== null && others.length > 0) drift('field', `${others.length} pet(s) of another status`, `only status ${status}`, 'the filtered page');
    if (!inOrder(order, theirs.map(ordered))) drift('order', 'another order', `order ${order}`, 'the page');
  }
  return drifts;
}
