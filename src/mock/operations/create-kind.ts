/**
 * A create (`POST /pets`): parses a NewPet from the JSON body (at most `x-max-body-bytes`); responds
 * 201 with the new Pet and its `Location`, once the pet is saved where the mock keeps its state. A
 * body that is not JSON is 415 (wrong media type) or 400 (malformed, or not UTF-8); one that breaks
 * NewPet is 400; one too large 413.
 */
import type { ValidateFunction } from 'ajv';
import { isJsonObject, type JsonValue, parseJson, stringifyJson } from '../../json/lossless.js';
import { jsonMediaTypeProblem } from '../../openapi/conformance.js';
import type { ErrorCode } from '../../openapi/facts.js';
import type { ModelField, ModelOperation, ResourceModel } from '../../openapi/resource-model.js';
import { known } from '../../profile/profile.js';
import { bodyText, errorResponse, JSON_CONTENT_TYPE, jsonResponse, type MockRequest, type MockResponse } from '../core/messages.js';
import type { Session } from '../state/sessions.js';
import type { PetDraft } from '../state/store.js';
import { checkInput, exactInteger, validatorOf } from './inputs.js';
import type { MockOperation, OperationEnv, ParsedInputs } from './operation.js';

/** A body limit for an operation whose spec gives none (`x-max-body-bytes`): the bundled spec's 1 MiB. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A size in bytes as a reader says it: `1 MiB`, `512 KiB`, `1000 bytes`. */
function sizeOf(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** What a create's steps read: the mock around it, the operation and its model, and the profile's categories as a set. */
interface CreateContext {
  readonly env: OperationEnv;
  readonly model: ResourceModel;
  readonly operation: ModelOperation;
  readonly validate: ValidateFunction | undefined;
  readonly maxBodyBytes: number;
  /** The fields a create sends, from the spec. */
  readonly writable: readonly ModelField[];
  /** The one field the server fills in when it is left out (`x-server-default`), whose value a profile may change. */
  readonly serverDefaulted: ModelField | undefined;
  /** The categories a profile knows, when it names them: a create of another is a 400. */
  readonly knownCategories: ReadonlySet<string> | undefined;
}

/** A create of the resource, its body and its fields read from the model. */
export function createKind(env: OperationEnv, model: ResourceModel, operation: ModelOperation): MockOperation {
  const { categories } = env.profile;
  const writable = model.fields.filter((field) => field.writable);
  const context: CreateContext = {
    env,
    model,
    operation,
    validate: validatorOf(operation, 'body'),
    maxBodyBytes: operation.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    writable,
    serverDefaulted: writable.find((field) => field.serverDefault !== undefined),
    knownCategories: typeof categories === 'object' ? new Set(categories.known) : undefined,
  };
  // A create documents no path or query parameters: every request-target leads to the same body, still to parse.
  const bodyToParse: ParsedInputs = { parseBody: (request) => parseBody(context, request) };
  return { id: operation.operationId, parse: () => bodyToParse };
}

/** The body as JSON: its media type, its size and its syntax checked. */
async function parseBody(context: CreateContext, request: MockRequest): Promise<ParsedInputs> {
  const contentType = request.header('content-type');
  const mediaTypeProblem = jsonMediaTypeProblem(contentType);
  if (mediaTypeProblem !== undefined) {
    const got = contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType}`;
    return reject('unsupported_media_type', `The request body must be sent as ${JSON_CONTENT_TYPE}; got ${got} (${mediaTypeProblem}).`);
  }
  const { maxBodyBytes } = context;
  const read = await bodyText(request, maxBodyBytes, 'The request body');
  if ('rejection' in read) return read;
  const { text } = read;
  if (text === undefined) return reject('payload_too_large', `The request body is larger than ${maxBodyBytes} bytes (${sizeOf(maxBodyBytes)}).`);
  if (text.trim() === '') return reject('bad_request', 'The request body is required: send a NewPet such as {"name": "Rex", "categoryId": 1}.');
  let body: JsonValue;
  try {
    body = parseJson(text);
  } catch (error) {
    return reject('malformed_json', `The request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
  }
  // Coverage counts the body as sent, before the defaults fill it in.
  context.env.coverage.recordBody(context.operation.operationId, body);
  return parseNewPet(context, body);
}

/**
 * The JSON body as a NewPet: every field the spec names, integers exactly as sent, a field left out
 * given the spec's default, or the profile's; checked against the profile's known categories.
 */
function parseNewPet({ env, model, validate, writable, serverDefaulted, knownCategories }: CreateContext, body: JsonValue): ParsedInputs {
  const sent = isJsonObject(body) ? body : {};
  // Read before the validator fills in the spec's default.
  const leftOut = serverDefaulted !== undefined && sent[serverDefaulted.name] === undefined;
  const input = checkInput(validate, body, 'The request body');
  if ('rejection' in input) return input;
  const checked: Readonly<Record<string, unknown>> = input.value;
  const draft: Record<string, unknown> = {};
  for (const field of writable) {
    const value = checked[field.name];
    if (value !== undefined) draft[field.name] = field.int64 ? exactInteger(sent[field.name], value as number) : value;
  }
  if (knownCategories && !knownCategories.has(String(draft.categoryId)))
    return reject(
      'bad_request',
      `The request body: categoryId ${draft.categoryId} is no known category; the known ones are ${[...knownCategories].join(', ')}.`,
    );
  // The spec's default fills a field left out; a profile may name another value, or none.
  const { defaultStatus } = env.profile;
  if (serverDefaulted !== undefined && leftOut && known(defaultStatus)) {
    if (defaultStatus === 'omitted') delete draft[serverDefaulted.name];
    else draft[serverDefaulted.name] = defaultStatus;
  }
  // Checked by the spec's NewPet schema just above: the draft has its fields and their types.
  const pet = draft as PetDraft;
  return { respond: (_request, session) => create(env, model, pet, session) };
}

async function create(env: OperationEnv, model: ResourceModel, draft: PetDraft, session: Session): Promise<MockResponse> {
  const saved = await env.change(session, () => session.store.create(draft));
  if ('error' in saved) return saved.error;
  const pet = saved.value;
  return jsonResponse(201, stringifyJson(pet), { location: `${env.basePath}${model.itemPath.replace(`{${model.id.parameter}}`, String(pet.id))}` });
}

function reject(code: ErrorCode, message: string): ParsedInputs {
  return { rejection: errorResponse(code, message) };
}
