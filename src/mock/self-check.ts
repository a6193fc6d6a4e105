/**
 * The mock checking its own answers against spec/openapi.yaml with the project's one conformance rule
 * (src/spec/conformance.ts), held to every header it documents. A mismatch is a bug of the mock, so it
 * is never quiet: the answer becomes a 500 naming it.
 */
import { openapi } from '../generated/openapi.js';
import type { operations } from '../generated/types.js';
import { Error as ErrorBody, responseValidators } from '../generated/validators.js';
import { validationView } from '../json/lossless.js';
import { createConformance, schemaProblems } from '../spec/conformance.js';
import { errorResponse, type MockResponse } from './exchange.js';

type OperationId = keyof operations;

/** Every violation of a response of the mock, from the generated validators. */
const conformance = createConformance<OperationId>(
  openapi,
  {
    violations(operationId, status, body) {
      const validator = responseValidators.get(operationId)?.get(status);
      if (validator === undefined) return undefined;
      return validator(validationView(body)) ? [] : schemaProblems(validator.errors);
    },
    errorViolations: (body) => (ErrorBody(validationView(body)) ? [] : schemaProblems(ErrorBody.errors)),
  },
  { everyDocumentedHeader: true },
);

/**
 * What is wrong with a response, or `undefined` when it keeps the spec. `operationId` is the operation
 * that answered, or `undefined` for answers outside the operations (an unknown path, an admin route).
 * @example
 * findMismatch('getPet', { status: 418, headers: {}, body: '' }); // 'getPet answered 418, a status the spec does not document for it (...)'
 */
export function findMismatch(operationId: OperationId | undefined, response: MockResponse): string | undefined {
  const violations = conformance(operationId, { status: response.status, body: response.body, header: (name) => response.headers[name] });
  return violations.length === 0 ? undefined : violations.map((violation) => violation.message).join('; ');
}

/**
 * A check to run over every answer: it returns the answer as it is, or, on a mismatch, reports it and
 * returns a 500 `internal_error` naming it. The answer is the same when `report` throws.
 * @example
 * const check = createSelfCheck((mismatch) => console.error(mismatch));
 * const answer = check('listPets', response);
 */
export function createSelfCheck(report: (mismatch: string) => void): (operationId: OperationId | undefined, response: MockResponse) => MockResponse {
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
