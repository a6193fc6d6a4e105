/**
 * The mock checking its own answers against spec/openapi.yaml: every response of an operation has a
 * status the spec documents for it, the headers documented for that status, and a body valid by its
 * schema; every error, of an operation or not, is an Error whose `status` is the HTTP status. A
 * mismatch is a bug of the mock, so it is never quiet: the answer becomes a 500 naming it.
 */
import type { ValidateFunction } from 'ajv';
import { openapi } from '../generated/openapi.js';
import * as validators from '../generated/validators.js';
import { parseJson, validationView } from '../json/lossless.js';
import { operationsOf, resolve } from '../spec/document.js';
import { errorResponse, type MockResponse } from './exchange.js';

interface Documented {
  /** Lower-case names of the headers the spec lists for the status. */
  readonly headers: readonly string[];
  readonly validator: ValidateFunction | undefined;
}

const VALIDATORS = validators as unknown as Readonly<Record<string, ValidateFunction>>;

const DOCUMENTED: ReadonlyMap<string, ReadonlyMap<string, Documented>> = new Map(
  operationsOf(openapi).map(({ operationId, operation }) => [
    operationId,
    new Map(
      Object.entries(operation.responses).map(([status, response]) => [
        status,
        {
          headers: Object.keys(resolve(openapi, response).headers ?? {}).map((name) => name.toLowerCase()),
          validator: VALIDATORS[`${operationId}${status}`],
        },
      ]),
    ),
  ]),
);

function describeAjv(validator: ValidateFunction): string {
  return (validator.errors ?? []).map((error) => `${error.instancePath || 'the body'} ${error.message ?? 'is invalid'}`).join('; ');
}

/**
 * What is wrong with a response, or `undefined` when it keeps the spec. `operationId` is the operation
 * that answered, or `undefined` for answers outside the operations (an unknown path, an admin route).
 * @example
 * findMismatch('getPet', { status: 418, headers: {}, body: '' }); // 'getPet answered 418, a status spec/openapi.yaml does not document for it (...)'
 */
export function findMismatch(operationId: string | undefined, response: MockResponse): string | undefined {
  const { status, body, headers } = response;
  if (status === 204) return undefined;
  const what = `${operationId ?? 'the mock'} answered ${status}`;
  const statuses = operationId === undefined ? undefined : DOCUMENTED.get(operationId);
  const documented = statuses?.get(String(status));
  if (statuses && !documented) return `${what}, a status spec/openapi.yaml does not document for it (it documents ${[...statuses.keys()].join(', ')})`;
  const missing = documented?.headers.filter((name) => headers[name] === undefined) ?? [];
  if (missing.length > 0) return `${what} without the header ${missing.join(', ')} that spec/openapi.yaml documents for it`;
  if (!documented?.validator && status < 400) return undefined;
  if (!/^application\/json\b/.test(headers['content-type'] ?? ''))
    return `${what} with Content-Type ${headers['content-type'] ?? '(none)'} instead of application/json`;
  let value: unknown;
  try {
    value = validationView(parseJson(body));
  } catch {
    return `${what} with a body that is not JSON: ${body.slice(0, 120)}`;
  }
  const validator = documented?.validator ?? validators.Error;
  if (!validator(value)) return `${what} with a body that breaks its schema in spec/openapi.yaml: ${describeAjv(validator)}`;
  const errorStatus = (value as { status?: unknown }).status;
  if (status >= 400 && errorStatus !== status) return `${what} with an Error whose status is ${String(errorStatus)}`;
  return undefined;
}

/**
 * A check to run over every answer: it returns the answer as it is, or, on a mismatch, reports it and
 * returns a 500 `internal_error` naming it. The answer is the same when `report` throws.
 * @example
 * const check = createSelfCheck((mismatch) => console.error(mismatch));
 * const answer = check('listPets', response);
 */
export function createSelfCheck(report: (mismatch: string) => void): (operationId: string | undefined, response: MockResponse) => MockResponse {
  return (operationId, response) => {
    const mismatch = findMismatch(operationId, response);
    if (mismatch === undefined) return response;
    try {
      report(mismatch);
    } catch {
      // A reporter that throws (a test's expect) must not take the host down; the 500 says it anyway.
    }
    return errorResponse('internal_error', `Self-check: ${mismatch}. This is a bug in petstore-mock; please report it.`);
  };
}
