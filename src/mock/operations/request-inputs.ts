import type { ValidateFunction } from 'ajv';
import { type JsonValue, validationView } from '../../json/lossless.js';
import type { InputValidators, ModelOperation } from '../../openapi/resource-model.js';
import { errorResponse, type PreparedResponse, prepared } from '../core/messages.js';
import { describeErrors } from './parameters.js';

/** The validator of an operation's inputs in one place (`query`, `path`, `body`), compiled from the spec; `undefined` where it documents none. */
export function validatorOf(operation: ModelOperation, place: keyof InputValidators): ValidateFunction | undefined {
  return operation.validators[place];
}

/**
 * `data` checked by a validator generated from the spec: the view it checked, typed by the spec and
 * with the spec's defaults filled in, or the 400 naming every fault. `whole` names the data in the message.
 * @example
 * checkInput(validators.listPetsQuery, { limit: 5 }, 'The query'); // { value: { limit: 5 } }
 */
export function checkInput(
  validator: ValidateFunction | undefined,
  data: JsonValue,
  whole: string,
): { readonly value: Readonly<Record<string, unknown>> } | { readonly rejection: PreparedResponse } {
  const view = validationView(data);
  // Inputs are objects (the parameters of a place, by name; a body its schema holds to one); where the spec documents none, there is nothing to check.
  if (validator === undefined || validator(view)) return { value: view as Readonly<Record<string, unknown>> };
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
