/**
 * The mock checking its own responses against spec/openapi.yaml with the project's one conformance rule
 * (src/openapi/conformance.ts), held to every header it documents. A mismatch is a bug of the mock, so it
 * is never quiet: the response becomes a 500 naming it.
 */
import type { ValidateFunction } from 'ajv';
import { openapi } from '../../generated/openapi.js';
import { Error as ErrorBody, headerValidators, responseValidators } from '../../generated/validators.js';
import { validationView } from '../../json/lossless.js';
import type { CompiledSpec } from '../../openapi/bundled-model.js';
import { type Conformance, createConformance, type ResponseSchemas, type SchemaProblem, schemaProblems } from '../../openapi/conformance.js';
import type { ValidatorLookup } from '../../openapi/resource-model.js';
import { errorResponse, type MockResponse } from '../core/messages.js';

type OperationId = string;

/** The generated validators of each operation's responses, by its id as a string (an id the bundled spec lacks has none). */
const byResponse: ReadonlyMap<string, ReadonlyMap<number, ValidateFunction>> = responseValidators;
const byHeaders: ReadonlyMap<string, ReadonlyMap<number, ValidateFunction<Readonly<Record<string, string>>>>> = headerValidators;

/** Where the mock's conformance finds its schemas: the generated validators; the proxy holds a deployment's responses to them too. */
export const RESPONSE_SCHEMAS: ResponseSchemas<OperationId> = {
  violations(operationId, status, body) {
    const validator = byResponse.get(operationId)?.get(status);
    if (validator === undefined) return undefined;
    return validator(validationView(body)) ? [] : schemaProblems(validator.errors);
  },
  headerViolations(operationId, status, headers) {
    const validator = byHeaders.get(operationId)?.get(status);
    if (validator === undefined) return undefined;
    return validator(headers) ? [] : schemaProblems(validator.errors);
  },
  errorViolations: (body) => (ErrorBody(validationView(body)) ? [] : schemaProblems(ErrorBody.errors)),
};

/** The problems of a value by a compiled validator, `undefined` when there is none. */
function problemsBy(validator: ValidateFunction | undefined, value: unknown): readonly SchemaProblem[] | undefined {
  if (validator === undefined) return undefined;
  return validator(value) ? [] : schemaProblems(validator.errors);
}

/** Where conformance finds the schemas of a spec compiled at start (`--spec`), by the names `validatorSchemas` gives them. */
function schemasOf(validators: ValidatorLookup): ResponseSchemas<OperationId> {
  return {
    violations: (operationId, status, body) => problemsBy(validators(`${operationId}${status}`), validationView(body)),
    headerViolations: (operationId, status, headers) => problemsBy(validators(`${operationId}${status}Headers`), headers),
    errorViolations: (body) => problemsBy(validators('Error'), validationView(body)) ?? [],
  };
}

/** The mock's two conformances over a spec: held to every header it documents, and, past an operation's sunset, to the required ones only. */
function conformancesOf(spec: CompiledSpec | undefined): { readonly everyHeader: Conformance<OperationId>; readonly afterSunset: Conformance<OperationId> } {
  const [doc, schemas] = spec === undefined ? [openapi, RESPONSE_SCHEMAS] : [spec.doc, schemasOf(spec.validators)];
  return { everyHeader: createConformance(doc, schemas, { everyDocumentedHeader: true }), afterSunset: createConformance(doc, schemas) };
}

/**
 * Every violation of a response of the mock, held to every header it documents; and the same for an
 * operation past its sunset, held to the required headers only: it then announces its sunset alone,
 * and the headers that announced its deprecation are documented but no longer due.
 */
const BUNDLED = conformancesOf(undefined);

/**
 * What is wrong with a response, or `undefined` when it keeps the spec. `operationId` is the operation
 * that responded, or `undefined` for responses outside the operations (an unknown path, an admin route);
 * `removed`, whether that operation is past its sunset for the request's session.
 * @example
 * findMismatch('getPet', { status: 418, headers: {}, body: '' }); // 'getPet answered 418, a status the spec does not document for it (...)'
 */
export function findMismatch(operationId: OperationId | undefined, response: MockResponse, removed = false, conformances = BUNDLED): string | undefined {
  const violations = (removed ? conformances.afterSunset : conformances.everyHeader)(operationId, {
    status: response.status,
    body: response.body,
    header: (name) => response.headers[name],
  });
  return violations.length === 0 ? undefined : violations.map((violation) => violation.message).join('; ');
}

/**
 * A check to run over every response: it returns the response as it is, or, on a mismatch, reports it
 * and returns a 500 `internal_error` naming it. The response is the same when `report` throws.
 * @example
 * const check = createSelfCheck((mismatch) => console.error(mismatch));
 * const checked = check('listPets', response);
 */
export function createSelfCheck(
  report: (mismatch: string) => void,
  spec?: CompiledSpec,
): (operationId: OperationId | undefined, response: MockResponse, removed?: boolean) => MockResponse {
  const conformances = spec === undefined ? BUNDLED : conformancesOf(spec);
  return (operationId, response, removed = false) => {
    const mismatch = findMismatch(operationId, response, removed, conformances);
    if (mismatch === undefined) return response;
    try {
      report(mismatch);
    } catch {
      // A reporter that throws (a test's expect) must not take the host down; the 500 says it anyway.
    }
    return errorResponse('internal_error', `Self-check: ${mismatch}. This is a bug in petstore-mock; please report it.`);
  };
}
