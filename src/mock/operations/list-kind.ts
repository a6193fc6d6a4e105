/**
 * A list (`GET /pets`): parses the page size (`limit`, within its schema's bounds, its default when
 * absent) and the filter (`status`) from the query; responds 200 with the session's first `limit` pets
 * in the store's order (id order by default), only those of the filter's value when given. A profile
 * may clamp a `limit` out of range instead of rejecting it (on both sides, or only above the maximum,
 * as a gateway's `min(limit, maximum)` does), and respond to an unknown filter value with an empty page.
 */
import type { ModelOperation, PageSize } from '../../openapi/resource-model.js';
import type { PetStatus } from '../../types.js';
import { errorResponse, JSON_RESPONSE_HEADERS, type MockResponse, prepared, preparedResponse } from '../core/messages.js';
import { andThen } from '../core/pending.js';
import type { MockOperation, OperationEnv, ParsedInputs } from './operation.js';
import { pageWithin } from './page-within.js';
import { parseParameters, repeatedParameter } from './parameters.js';
import { checkInput, validatorOf } from './request-inputs.js';

/** The page of a list whose spec gives it no page size: every pet. */
const UNBOUNDED = 2 ** 31;

const EMPTY: MockResponse = preparedResponse(200, JSON_RESPONSE_HEADERS, '[]');
const EMPTY_PAGE: ParsedInputs = { respond: () => EMPTY };

/** Which side of the page size's range a profile clamps rather than rejects, and whether it ignores a value that is not an integer. */
interface LimitRelaxed {
  readonly clampAbove: boolean;
  readonly clampBelow: boolean;
  readonly ignore: boolean;
}

/**
 * A page size as a profile parses it: an integer out of range clamped to the nearest bound on a side
 * the profile clamps, a value that is not an integer taken as absent (`ignore`); what the profile
 * does not relax, as sent.
 */
function relaxedLimit(raw: string, relaxed: LimitRelaxed, { minimum, maximum }: PageSize): string | null {
  if (!/^-?\d+$/.test(raw)) return relaxed.ignore ? null : raw;
  const value = Number(raw);
  if (value > maximum && relaxed.clampAbove) return String(maximum);
  if (value < minimum && relaxed.clampBelow) return String(minimum);
  return raw;
}

/** A profile's choices on `limit`: each side of the range as `limitAboveMaximum` or `limitBelowMinimum` says when known, else as `limitOutOfRange`. */
function limitRelaxed(profile: OperationEnv['profile']): LimitRelaxed {
  const { limitOutOfRange, limitAboveMaximum, limitBelowMinimum, limitNotInteger } = profile;
  const side = (choice: typeof limitAboveMaximum) => (choice === 'unknown' ? limitOutOfRange === 'clamp' : choice === 'clamp');
  return {
    clampAbove: side(limitAboveMaximum),
    clampBelow: side(limitBelowMinimum),
    // A profile that knows only that out-of-range limits are clamped ignores a non-integer one too, as such deployments mostly do.
    ignore: limitNotInteger === 'ignore' || (limitNotInteger === 'unknown' && limitOutOfRange === 'clamp'),
  };
}

function page(body: string): MockResponse {
  return preparedResponse(200, JSON_RESPONSE_HEADERS, pageWithin(body));
}

/** A list of the resource, its query read from the model: the page size, and the filter the store indexes. */
export function listKind(env: Pick<OperationEnv, 'profile'>, operation: ModelOperation): MockOperation {
  const relaxed = limitRelaxed(env.profile);
  const emptyForUnknownValue = env.profile.unknownStatus === 'empty';
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const validate = validatorOf(operation, 'query');
  const { pageSize } = operation;
  const [filter] = operation.filters;
  const known = (raw: string | null) => raw === null || filter === undefined || filter.values.some((value) => value === raw);
  return {
    id: operation.operationId,
    parse(_, text) {
      const search = new URLSearchParams(text);
      const repeated = repeatedParameter(query, search);
      if (repeated !== undefined)
        return {
          rejection: prepared(
            errorResponse('bad_request', `The query: ${repeated.name} is given ${repeated.count} times; it takes one value, so give it once.`),
          ),
        };
      const unknownValue = emptyForUnknownValue && filter !== undefined && !known(search.get(filter.parameter));
      const values = parseParameters(query, (name) => {
        const raw = search.get(name);
        if (raw === null) return raw;
        if (name === pageSize?.parameter) return relaxedLimit(raw, relaxed, pageSize);
        return name === filter?.parameter && unknownValue ? null : raw;
      });
      const input = checkInput(validate, values, 'The query');
      if ('rejection' in input) return input;
      if (unknownValue) return EMPTY_PAGE;
      const limit = Number(input.value[pageSize?.parameter ?? ''] ?? UNBOUNDED);
      // The filter's value, checked against its enum just above.
      const value = filter === undefined ? undefined : (input.value[filter.parameter] as PetStatus | undefined);
      return { respond: (_request, session) => andThen(session.store.listJson(limit, value), page) };
    },
  };
}
