/**
 * `GET /pets/{petId}`, deprecated: parses `petId` (an int64) from the path; responds 200 with the pet,
 * 404 when the session has none with that id, and 410 once the session's clock passes the sunset
 * (`removal`, which the pipeline responds with before the inputs). Until then every response of the
 * operation, whatever made it, has its deprecation (RFC 9745), its sunset (RFC 8594) and a link
 * to its replacement; from then on, and on a 410, only the sunset, as the spec documents.
 */
import { serializeItem } from 'structured-headers';
import { getPetPath } from '../../generated/validators.js';
import { GET_PET_DEPRECATED_AT, GET_PET_REPLACEMENT, GET_PET_SUNSET } from '../../openapi/facts.js';
import type { Profile } from '../../profile/profile.js';
import { errorResponse, JSON_RESPONSE_HEADERS, type MockResponse, prepared, preparedResponse, prepareHeaders } from '../core/messages.js';
import { andThen } from '../core/pending.js';
import { checkInput, exactInteger, parametersIn } from './inputs.js';
import type { MockOperation, OperationEnv } from './operation.js';
import { parseParameters } from './parameters.js';

const PATH = parametersIn('getPet', 'path');
const SUNSET_MS = GET_PET_SUNSET.getTime();
const SUNSET = GET_PET_SUNSET.toUTCString();

/**
 * getPet's notice as headers: `Deprecation: @1748736000` (the moment it was deprecated, a
 * structured-field Date), `Sunset`, and the `Link` to its replacement under `basePath`.
 * @example
 * deprecationHeaders('/v1'); // { deprecation: '@1748736000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }
 */
function deprecationHeaders(basePath: string, form: Profile['deprecation'] = 'rfc9745'): Readonly<Record<string, string>> {
  return {
    // The legacy `true` only for a profile of a deployment that predates RFC 9745.
    deprecation: form === 'legacy' ? 'true' : serializeItem(GET_PET_DEPRECATED_AT),
    sunset: SUNSET,
    link: `<${basePath}${GET_PET_REPLACEMENT.path}>; rel="successor-version"`,
  };
}

export function getPet(env: OperationEnv): MockOperation {
  const notice = prepareHeaders(deprecationHeaders(env.basePath, env.profile.deprecation));
  const removed = prepareHeaders({ sunset: SUNSET });
  // A profile may respond to a petId that is not an integer as to an absent pet (404) rather than as to a bad request.
  const notAnInteger = env.profile.nonIntegerPetId === 404 ? prepared(errorResponse('not_found', 'No pet has that id: a pet id is an integer.')) : undefined;
  const gone = prepared(
    errorResponse(
      'gone',
      `GET ${env.basePath}/pets/{petId} was removed on ${SUNSET}; use GET ${env.basePath}${GET_PET_REPLACEMENT.path} with the status filter.`,
    ),
  );
  return {
    id: 'getPet',
    parse(params) {
      const values = parseParameters(PATH, (name) => params[name]);
      const input = checkInput(getPetPath, values, 'The path');
      if ('rejection' in input) return notAnInteger && typeof values.petId === 'string' ? { rejection: notAnInteger } : input;
      const petId = exactInteger(values.petId, input.value.petId);
      const found = (json: string | undefined): MockResponse =>
        json === undefined ? errorResponse('not_found', `No pet has id ${petId}.`) : preparedResponse(200, JSON_RESPONSE_HEADERS, json);
      return { respond: (_request, session) => andThen(session.store.petJson(petId), found) };
    },
    removal: { at: SUNSET_MS, response: gone },
    responseHeaders: (status, isRemoved) => (isRemoved || status === 410 ? removed : notice),
  };
}
