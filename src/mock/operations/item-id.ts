/** The id of the item a request's path names, as the read, replace and delete kinds parse it, and the 404 of one absent. */
import type { ModelOperation, ResourceModel } from '../../openapi/resource-model.js';
import { cachedIn } from '../core/memo.js';
import { errorResponse, type MockResponse } from '../core/messages.js';
import { parseParameters } from './parameters.js';
import { checkInput, exactInteger, validatorOf } from './request-inputs.js';

/**
 * Each operation's path parameters, listed once: `parseParameters` keeps the documented ranges of a
 * list by the list, so a list made per call missed that cache on every request-target seen for the
 * first time (each made a map of ranges and an entry of a WeakMap the collector then had to clear:
 * getPet over 10,000 distinct ids cost a third more CPU than over 200).
 */
const pathParameters = new WeakMap<ModelOperation, ModelOperation['parameters']>();

/**
 * The id in the path, checked by the operation's path validator (an int64 stays exact beyond 2^53), or
 * the 400 naming it; `notAnInteger` answers a value that is not an integer instead, when a profile says so.
 * @example
 * parseItemId(model, getPet, { petId: '7' }); // { id: 7 }
 */
export function parseItemId(
  model: ResourceModel,
  operation: ModelOperation,
  params: Readonly<Record<string, string>>,
  notAnInteger?: MockResponse,
): { readonly id: number | bigint } | { readonly rejection: MockResponse } {
  const path = cachedIn(pathParameters, operation, () => operation.parameters.filter((parameter) => parameter.in === 'path'));
  const values = parseParameters(path, (name) => params[name]);
  const input = checkInput(validatorOf(operation, 'path'), values, 'The path');
  const sent = values[model.id.parameter];
  if ('rejection' in input) return notAnInteger && typeof sent === 'string' ? { rejection: notAnInteger } : input;
  return { id: exactInteger(sent, Number(input.value[model.id.parameter])) };
}

/** The 404 of an id no record of the session has: a read's, a replace's and a delete's. */
export function absentItem(id: number | bigint): MockResponse {
  return errorResponse('not_found', `No pet has id ${id}.`);
}
