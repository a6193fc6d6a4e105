import type { ValidateFunction } from 'ajv';
import { openapi } from '../../generated/openapi.js';
import { type JsonValue, validationView } from '../../json/lossless.js';
import { operationById, type Parameter, parametersOf } from '../../openapi/document.js';
import { errorResponse, type PreparedResponse, prepared } from '../core/messages.js';
import type { OperationId } from './operation.js';
import { describeErrors } from './parameters.js';

/** The parameters an operation documents in one location (`query`, `path`). */
export function parametersIn(operationId: OperationId, location: Parameter['in']): Parameter[] {
  return parametersOf(openapi, operationById(openapi, operationId).operation).filter((parameter) => parameter.in === location);
}

/**
 * `data` checked by a validator generated from the spec: the view it checked, typed by the spec and
 * with the spec's defaults filled in, or the 400 naming every fault. `whole` names the data in the message.
 * @example
 * checkInput(validators.listPetsQuery, { limit: 5 }, 'The query'); // { value: { limit: 5 } }
 */
export function checkInput<T>(
  validator: ValidateFunction<T>,
  data: JsonValue,
  whole: string,
): { readonly value: T } | { readonly rejection: PreparedResponse } {
  const view = validationView(data);
  if (validator(view)) return { value: view };
  return { rejection: prepared(errorResponse('bad_request', `${describeErrors(validator.errors ?? [], data, whole)}.`)) };
}

/**
 * The integer a client sent, exactly. A validator sees a number in place of an integer beyond 2^53
 * (see `validationView`); the value sent is that `bigint`, kept by the lossless parser.
 * @example
 * exactInteger(2n ** 60n, Number.MAX_SAFE_INTEGER); // 1152921504606846976n
 */
export function exactInteger(sent: unknown, checked: number): number | bigint {
  return typeof sent === 'bigint' ? sent : checked;
}
