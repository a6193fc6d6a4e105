/**
 * `GET /pets`: parses `limit` (within its schema's bounds, its default when absent) and `status` from the query; responds 200 with the
 * session's first `limit` pets in the store's order (id order by default), only those of `status`
 * when given. A profile may clamp a `limit` out of range instead of rejecting it (on both sides, or
 * only above the maximum, as a gateway's `min(limit, maximum)` does), and respond to an unknown `status`
 * with an empty page.
 */
import { listPetsQuery } from '../../generated/validators.js';
import { PET_STATUSES } from '../../openapi/facts.js';
import { JSON_RESPONSE_HEADERS, type MockResponse, preparedResponse } from '../core/messages.js';
import { andThen } from '../core/pending.js';
import { checkInput, parametersIn } from './inputs.js';
import type { MockOperation, OperationEnv, ParsedInputs } from './operation.js';
import { parseParameters } from './parameters.js';

const QUERY = parametersIn('listPets', 'query');
const LIMIT = QUERY.find((parameter) => parameter.name === 'limit')?.schema;
const EMPTY: MockResponse = preparedResponse(200, JSON_RESPONSE_HEADERS, '[]');
const EMPTY_PAGE: ParsedInputs = { respond: () => EMPTY };

/** Which side of `limit`'s range a profile clamps rather than rejects, and whether it ignores a value that is not an integer. */
interface LimitRelaxed {
  readonly clampAbove: boolean;
  readonly clampBelow: boolean;
  readonly ignore: boolean;
}

/**
 * A `limit` as a profile parses it: an integer out of range clamped to the nearest bound on a side
 * the profile clamps, a value that is not an integer taken as absent (`ignore`); what the profile
 * does not relax, as sent.
 */
function relaxedLimit(raw: string, relaxed: LimitRelaxed): string | null {
  if (!/^-?\d+$/.test(raw)) return relaxed.ignore ? null : raw;
  const [minimum, maximum] = [Number(LIMIT?.minimum), Number(LIMIT?.maximum)];
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

function knownStatus(raw: string | null): boolean {
  return raw === null || PET_STATUSES.some((status) => status === raw);
}

function page(body: string): MockResponse {
  return preparedResponse(200, JSON_RESPONSE_HEADERS, body);
}

export function listPets(env: Pick<OperationEnv, 'profile'>): MockOperation {
  const relaxed = limitRelaxed(env.profile);
  const emptyForUnknownStatus = env.profile.unknownStatus === 'empty';
  return {
    id: 'listPets',
    parse(_, query) {
      const search = new URLSearchParams(query);
      const unknownStatus = emptyForUnknownStatus && !knownStatus(search.get('status'));
      const input = checkInput(
        listPetsQuery,
        parseParameters(QUERY, (name) => {
          const raw = search.get(name);
          if (raw === null) return raw;
          if (name === 'limit') return relaxedLimit(raw, relaxed);
          return name === 'status' && unknownStatus ? null : raw;
        }),
        'The query',
      );
      if ('rejection' in input) return input;
      if (unknownStatus) return EMPTY_PAGE;
      const { limit, status } = input.value;
      return { respond: (_request, session) => andThen(session.store.listJson(limit, status), page) };
    },
  };
}
