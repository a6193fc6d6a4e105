/**
 * `POST /pets`: parses a NewPet from the JSON body (at most `x-max-body-bytes`); responds 201 with the
 * new Pet and its `Location`, once the pet is saved where the mock keeps its state. A body that is not
 * JSON is 415 (wrong media type) or 400 (malformed, or not UTF-8); one that breaks NewPet is 400; one too large 413.
 */
import { createPetBody } from '../../generated/validators.js';
import { isJsonObject, type JsonValue, parseJson, stringifyJson } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { jsonMediaTypeProblem } from '../../openapi/conformance.js';
import { type ErrorCode, MAX_BODY_BYTES } from '../../openapi/facts.js';
import { known } from '../../profile/profile.js';
import { bodyText, errorResponse, JSON_CONTENT_TYPE, jsonResponse, type MockRequest, type MockResponse } from '../core/messages.js';
import type { Session } from '../state/sessions.js';
import type { PetDraft } from '../state/store.js';
import { checkInput, exactInteger } from './inputs.js';
import type { MockOperation, OperationEnv, ParsedInputs } from './operation.js';

/** What createPet's steps read: the mock around it, and the profile's categories as a set. */
interface CreatePetContext {
  readonly env: OperationEnv;
  /** The categories a profile knows, when it names them: a create of another is a 400. */
  readonly knownCategories: ReadonlySet<string> | undefined;
}

export function createPet(env: OperationEnv): MockOperation {
  const { categories } = env.profile;
  const context: CreatePetContext = { env, knownCategories: typeof categories === 'object' ? new Set(categories.known) : undefined };
  // createPet documents no path or query parameters: every request-target leads to the same body, still to parse.
  const bodyToParse: ParsedInputs = { parseBody: (request) => parseBody(context, request) };
  return { id: 'createPet', parse: () => bodyToParse };
}

/** The body as JSON: its media type, its size and its syntax checked. */
async function parseBody(context: CreatePetContext, request: MockRequest): Promise<ParsedInputs> {
  const contentType = request.header('content-type');
  const mediaTypeProblem = jsonMediaTypeProblem(contentType);
  if (mediaTypeProblem !== undefined) {
    const got = contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType}`;
    return reject('unsupported_media_type', `The request body must be sent as ${JSON_CONTENT_TYPE}; got ${got} (${mediaTypeProblem}).`);
  }
  const read = await bodyText(request, MAX_BODY_BYTES, 'The request body');
  if ('rejection' in read) return read;
  const { text } = read;
  if (text === undefined) return reject('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`);
  if (text.trim() === '') return reject('bad_request', 'The request body is required: send a NewPet such as {"name": "Rex", "categoryId": 1}.');
  let body: JsonValue;
  try {
    body = parseJson(text);
  } catch (error) {
    return reject('malformed_json', `The request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
  }
  // Coverage counts the body as sent, before the defaults fill it in.
  context.env.coverage.recordBody('createPet', body);
  return parseNewPet(context, body);
}

/** The fields a create sends, from the spec, and the one the server fills in when it is left out (`x-server-default`), whose value a profile may change. */
const WRITABLE = BUNDLED_MODEL.fields.filter((field) => field.writable);
const SERVER_DEFAULTED = WRITABLE.find((field) => field.serverDefault !== undefined);

/**
 * The JSON body as a NewPet: every field the spec names, integers exactly as sent, a field left out
 * given the spec's default, or the profile's; checked against the profile's known categories.
 */
function parseNewPet({ env, knownCategories }: CreatePetContext, body: JsonValue): ParsedInputs {
  const sent = isJsonObject(body) ? body : {};
  const input = checkInput(createPetBody, body, 'The request body');
  if ('rejection' in input) return input;
  const checked: Readonly<Record<string, unknown>> = input.value;
  const draft: Record<string, unknown> = {};
  for (const field of WRITABLE) {
    const value = checked[field.name];
    if (value !== undefined) draft[field.name] = field.int64 ? exactInteger(sent[field.name], value as number) : value;
  }
  if (knownCategories && !knownCategories.has(String(draft.categoryId)))
    return reject(
      'bad_request',
      `The request body: categoryId ${draft.categoryId} is no known category; the known ones are ${[...knownCategories].join(', ')}.`,
    );
  // The spec's default fills a field left out (read before the validator filled it in); a profile may name another value, or none.
  const { defaultStatus } = env.profile;
  if (SERVER_DEFAULTED !== undefined && sent[SERVER_DEFAULTED.name] === undefined && known(defaultStatus)) {
    if (defaultStatus === 'omitted') delete draft[SERVER_DEFAULTED.name];
    else draft[SERVER_DEFAULTED.name] = defaultStatus;
  }
  // Checked by the spec's NewPet schema just above: the draft has its fields and their types.
  const pet = draft as PetDraft;
  return { respond: (_request, session) => create(env, pet, session) };
}

async function create(env: OperationEnv, draft: PetDraft, session: Session): Promise<MockResponse> {
  const saved = await env.change(session, () => session.store.create(draft));
  if ('error' in saved) return saved.error;
  const pet = saved.value;
  return jsonResponse(201, stringifyJson(pet), { location: `${env.basePath}/pets/${pet.id}` });
}

function reject(code: ErrorCode, message: string): ParsedInputs {
  return { rejection: errorResponse(code, message) };
}
