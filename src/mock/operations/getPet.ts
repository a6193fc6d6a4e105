/**
 * `GET /pets/{petId}`, deprecated: reads `petId` (an int64) from the path; answers 200 with the pet,
 * 404 when the session has none with that id, and 410 once the session's clock passes the sunset.
 * Every answer of the operation, whatever made it, carries its deprecation (RFC 9745), its sunset
 * (RFC 8594) and a link to its replacement; a 410 carries only the sunset, as the spec documents.
 */
import { serializeItem } from 'structured-headers';
import { getPetPath } from '../../generated/validators.js';
import { GET_PET_DEPRECATED_AT, GET_PET_REPLACEMENT, GET_PET_SUNSET } from '../../spec/facts.js';
import { ANSWER_HEADERS, errorResponse, type MockResponse, prepared, sharedHeaders } from '../exchange.js';
import { andThen } from '../pending.js';
import { readParameters } from '../validation.js';
import { checkInput, exactInteger, parametersIn } from './inputs.js';
import type { MockOperation, OperationEnv } from './operation.js';

const PATH = parametersIn('getPet', 'path');
const SUNSET_MS = GET_PET_SUNSET.getTime();
const SUNSET = GET_PET_SUNSET.toUTCString();

/**
 * getPet's notice as headers: `Deprecation: @1748736000` (the moment it was deprecated, a
 * structured-field Date), `Sunset`, and the `Link` to its replacement under `basePath`.
 * @example
 * deprecationHeaders('/v1'); // { deprecation: '@1748736000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }
 */
export function deprecationHeaders(basePath: string): Readonly<Record<string, string>> {
  return {
    deprecation: serializeItem(GET_PET_DEPRECATED_AT),
    sunset: SUNSET,
    link: `<${basePath}${GET_PET_REPLACEMENT.path}>; rel="successor-version"`,
  };
}

export function getPet(env: OperationEnv): MockOperation {
  const notice = sharedHeaders(deprecationHeaders(env.basePath));
  const removed = sharedHeaders({ sunset: SUNSET });
  const gone = prepared(
    errorResponse(
      'gone',
      `GET ${env.basePath}/pets/{petId} was removed on ${SUNSET}; use GET ${env.basePath}${GET_PET_REPLACEMENT.path} with the status filter.`,
    ),
  );
  return {
    id: 'getPet',
    read(params) {
      const values = readParameters(PATH, (name) => params[name]);
      const input = checkInput(getPetPath, values, 'The path');
      if ('refusal' in input) return input;
      const petId = exactInteger(values.petId, input.value.petId);
      const found = (json: string | undefined): MockResponse =>
        json === undefined ? errorResponse('not_found', `No pet has id ${petId}.`) : { status: 200, headers: ANSWER_HEADERS, body: json };
      return { answer: (_request, session) => (session.clock.now() >= SUNSET_MS ? gone : andThen(session.store.petJson(petId), found)) };
    },
    carries: (status) => (status === 410 ? removed : notice),
  };
}
