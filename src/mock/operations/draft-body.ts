/**
 * The body of a create or a replace as a draft of a record: JSON (at most `x-max-body-bytes`) checked
 * by the operation's validator, each field the spec names kept (integers exactly as sent), a field left
 * out given the spec's server default, or the profile's. A body that is not JSON is 415 (wrong media
 * type) or 400 (malformed, or not UTF-8); one that breaks the schema is 400; one too large 413.
 */
import type { ValidateFunction } from 'ajv';
import { isJsonObject, type JsonValue, parseJson } from '../../json/lossless.js';
import { jsonMediaTypeProblem } from '../../openapi/conformance.js';
import type { ErrorCode } from '../../openapi/facts.js';
import type { ModelField, ModelOperation, ResourceModel } from '../../openapi/resource-model.js';
import { known } from '../../profile/profile.js';
import { memoize } from '../core/memo.js';
import { errorResponse, JSON_CONTENT_TYPE, type MockRequest, type MockResponse, textThen } from '../core/messages.js';
import type { Pending } from '../core/pending.js';
import type { PetDraft } from '../state/store.js';
import type { OperationEnv, ParsedInputs, Responder } from './operation.js';
import { checkInput, exactInteger, validatorOf } from './request-inputs.js';

/** A size in bytes as a reader says it: `1 MiB`, `512 KiB`, `1000 bytes`. */
function sizeOf(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** What the parsing of a body reads: the mock around it, the operation and its model, and the profile's categories as a set. */
interface DraftContext {
  readonly env: OperationEnv;
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

/** `jsonMediaTypeProblem`, worked out once per distinct Content-Type: a client sends the same one with every body. */
const mediaTypeProblemOf = memoize(jsonMediaTypeProblem);

/** A body's draft, or the rejection of the body. */
type ParsedDraft = { readonly draft: PetDraft } | { readonly rejection: MockResponse };

/**
 * The inputs of a request whose body is a draft: its rejection, or the responder `respondWith` makes of the draft.
 * The body is waited for once, and everything after it is worked out in the same turn.
 */
export type DraftInputs = (request: MockRequest, respondWith: (draft: PetDraft) => Responder) => Pending<ParsedInputs>;

/**
 * The parser of `operation`'s body into a draft, its fields read from the model.
 * @example
 * const parse = draftParser(env, model, createPet);
 * await parse(request, (draft) => (_request, session) => create(draft, session)); // { respond }, or { rejection } for a bad body
 */
export function draftParser(env: OperationEnv, model: ResourceModel, operation: ModelOperation): DraftInputs {
  const { categories } = env.profile;
  const writable = model.fields.filter((field) => field.writable);
  const context: DraftContext = {
    env,
    operation,
    validate: validatorOf(operation, 'body'),
    maxBodyBytes: operation.maxBodyBytes,
    writable,
    serverDefaulted: writable.find((field) => field.serverDefault !== undefined),
    knownCategories: typeof categories === 'object' ? new Set(categories.known) : undefined,
  };
  return (request, respondWith) => {
    // The media type first, before a byte of the body is read.
    const contentType = request.header('content-type');
    const mediaTypeProblem = contentType === undefined ? jsonMediaTypeProblem(contentType) : mediaTypeProblemOf(contentType);
    if (mediaTypeProblem !== undefined) {
      const got = contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType}`;
      return reject('unsupported_media_type', `The request body must be sent as ${JSON_CONTENT_TYPE}; got ${got} (${mediaTypeProblem}).`);
    }
    return textThen(request, context.maxBodyBytes, 'The request body', (text): ParsedInputs => {
      const parsed = parseBody(context, text);
      return 'rejection' in parsed ? { rejection: parsed.rejection, body: text } : { respond: respondWith(parsed.draft), body: text };
    });
  };
}

/** The body's text as JSON: its size and its syntax checked, then the draft. */
function parseBody(context: DraftContext, text: string | undefined): ParsedDraft {
  const { maxBodyBytes } = context;
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
  return parseDraft(context, body);
}

/**
 * The JSON body as a NewPet: every field the spec names, integers exactly as sent, a field left out
 * given the spec's default, or the profile's; checked against the profile's known categories.
 */
function parseDraft({ env, validate, writable, serverDefaulted, knownCategories }: DraftContext, body: JsonValue): ParsedDraft {
  const sent = isJsonObject(body) ? body : {};
  // Read before the validator fills in the spec's default.
  const leftOut = serverDefaulted !== undefined && sent[serverDefaulted.name] === undefined;
  const input = checkInput(validate, body, 'The request body');
  if ('rejection' in input) return input;
  const checked: Readonly<Record<string, unknown>> = input.value;
  const draft: Record<string, unknown> = {};
  // An index, not `for...of`: an iterator per body where the code is not yet fully optimized.
  for (let i = 0; i < writable.length; i++) {
    const field = writable[i] as ModelField;
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
  // Checked by the spec's schema just above: the draft has its fields and their types.
  return { draft: draft as PetDraft };
}

function reject(code: ErrorCode, message: string): { readonly rejection: MockResponse } {
  return { rejection: errorResponse(code, message) };
}
