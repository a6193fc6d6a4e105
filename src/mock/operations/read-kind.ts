/**
 * A read (`GET /pets/{petId}`): parses the id from the path; responds 200 with the pet, 404 when the
 * session has none with that id. An operation the spec retires (getPet: `deprecated`, `x-sunset`)
 * answers 410 once the session's clock passes its sunset (`removal`, which the pipeline responds with
 * before the inputs); until then every response of it, whatever made it, has its deprecation (RFC
 * 9745), its sunset (RFC 8594) and a link to its replacement; from then on, and on a 410, only the
 * sunset, as the spec documents.
 */
import { serializeItem } from 'structured-headers';
import type { Deprecation, ModelOperation, ResourceModel } from '../../openapi/resource-model.js';
import type { Profile } from '../../profile/profile.js';
import {
  errorResponse,
  JSON_RESPONSE_HEADERS,
  type MockResponse,
  type PreparedResponse,
  prepared,
  preparedResponse,
  prepareHeaders,
} from '../core/messages.js';
import { andThen } from '../core/pending.js';
import { absentItem, parseItemId } from './item-id.js';
import type { MockOperation, OperationEnv } from './operation.js';

/**
 * A retired operation's notice as headers: `Deprecation: @1748736000` (the moment it was deprecated, a
 * structured-field Date), `Sunset`, and the `Link` to its replacement under `basePath`.
 * @example
 * deprecationHeaders(getPet.deprecation, '/pets', '/v1'); // { deprecation: '@1748736000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }
 */
function deprecationHeaders(deprecation: Deprecation, replacement: string | undefined, basePath: string, form: Profile['deprecation']): Record<string, string> {
  const { deprecatedAt, sunset } = deprecation;
  return {
    // The legacy `true` only for a profile of a deployment that predates RFC 9745.
    ...(deprecatedAt === undefined ? {} : { deprecation: form === 'legacy' ? 'true' : serializeItem(deprecatedAt) }),
    ...(sunset === undefined ? {} : { sunset: sunset.toUTCString() }),
    ...(replacement === undefined ? {} : { link: `<${basePath}${replacement}>; rel="successor-version"` }),
  };
}

/** The 410 of a retired operation, naming what replaces it. */
function goneResponse(operation: ModelOperation, replacement: ModelOperation | undefined, sunset: Date, basePath: string): PreparedResponse {
  const filters = replacement?.filters.map((filter) => filter.parameter).join(', ');
  const instead =
    replacement === undefined ? '' : `; use ${replacement.method.toUpperCase()} ${basePath}${replacement.path}${filters ? ` with the ${filters} filter` : ''}`;
  return prepared(errorResponse('gone', `${operation.method.toUpperCase()} ${basePath}${operation.path} was removed on ${sunset.toUTCString()}${instead}.`));
}

/** What a retired operation adds to the pipeline: its 410 from its sunset on, and its notice on every answer before. */
function retirement(env: OperationEnv, model: ResourceModel, operation: ModelOperation): Pick<MockOperation, 'removal' | 'responseHeaders'> {
  const { deprecation } = operation;
  if (deprecation === undefined) return {};
  const replacement = model.operations.find((candidate) => candidate.operationId === deprecation.replacement);
  const notice = prepareHeaders(deprecationHeaders(deprecation, replacement?.path, env.basePath, env.profile.deprecation));
  const { sunset } = deprecation;
  if (sunset === undefined) return { responseHeaders: () => notice };
  const removed = prepareHeaders({ sunset: sunset.toUTCString() });
  return {
    removal: { at: sunset.getTime(), response: goneResponse(operation, replacement, sunset, env.basePath) },
    responseHeaders: (status, isRemoved) => (isRemoved || status === 410 ? removed : notice),
  };
}

/** A read of one pet by its id, and the retirement the spec gives the operation, if any. */
export function readKind(env: OperationEnv, model: ResourceModel, operation: ModelOperation): MockOperation {
  // A profile may respond to an id that is not an integer as to an absent pet (404) rather than as to a bad request.
  const notAnInteger = env.profile.nonIntegerPetId === 404 ? prepared(errorResponse('not_found', 'No pet has that id: a pet id is an integer.')) : undefined;
  return {
    id: operation.operationId,
    parse(params) {
      const parsed = parseItemId(model, operation, params, notAnInteger);
      if ('rejection' in parsed) return parsed;
      const { id } = parsed;
      const found = (json: string | undefined): MockResponse => (json === undefined ? absentItem(id) : preparedResponse(200, JSON_RESPONSE_HEADERS, json));
      return { respond: (_request, session) => andThen(session.store.petJson(id), found) };
    },
    ...retirement(env, model, operation),
  };
}
