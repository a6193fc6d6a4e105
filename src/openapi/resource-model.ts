/**
 * The resource an OpenAPI document describes, read once: where its collection and its items live, its
 * id, its fields, and what each operation does to it (its kind). The mock serves the kinds, and the
 * verifier checks them, from this one reading, so that neither lists a field or an operation by hand.
 *
 * Kinds are recognised from the method, the shape of the path and the responses, as REST names them:
 * GET on the collection answering an array (list), POST on it with a body (create), GET, PUT and
 * DELETE on an item (read, replace, delete). An operation that fits none is refused with a sentence
 * that names it and says what would make it one; nothing is guessed.
 */
import type { ValidateFunction } from 'ajv';
import { ANSWER_BYTES } from '../bounds/budget.js';
import { SpecError } from '../errors.js';
import {
  basePathOf,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type OperationEntry,
  operationsOf,
  type Parameter,
  parametersOf,
  resolve,
} from './document.js';
import { checkFakerSizes } from './faker-sizes.js';

/** What an operation does to the resource. */
export type OperationKind = 'list' | 'create' | 'read' | 'replace' | 'delete';

/** A value an `enum` may hold. */
type EnumValue = string | number | boolean | null;

/** One field of the resource, as its schema gives it. */
export interface ModelField {
  readonly name: string;
  /** The field's schema, its `$ref` followed (keywords beside the `$ref` kept). */
  readonly schema: JsonSchema;
  /** Whether every record has it. */
  readonly required: boolean;
  /** Whether a client sends it (the create body names it); the id is the one a server assigns. */
  readonly writable: boolean;
  /** Whether a create must send it. */
  readonly requiredOnCreate: boolean;
  /** An integer of `format: int64`: kept exact beyond 2^53, as a `bigint`. */
  readonly int64: boolean;
  /** The values the schema allows, when it enumerates them. */
  readonly enum: readonly EnumValue[] | undefined;
  /** What the server stores when a create leaves the field out (`x-server-default`). */
  readonly serverDefault: EnumValue | undefined;
}

/** The field that identifies a record, and the path parameter that carries it. */
interface ModelId {
  /** The field: `id`. */
  readonly field: string;
  /** The parameter of the item path: `petId`. */
  readonly parameter: string;
  /** `integer` or `string`. */
  readonly type: 'integer' | 'string';
  /** An int64: exact beyond 2^53, as a `bigint`. */
  readonly int64: boolean;
}

/** A query parameter of a list that keeps only the records whose field has its value. */
export interface ListFilter {
  readonly parameter: string;
  readonly field: string;
  readonly values: readonly EnumValue[];
}

/** The query parameter that bounds how many records a list answers. */
export interface PageSize {
  readonly parameter: string;
  readonly minimum: number;
  readonly maximum: number;
  /** What an absent parameter means; `undefined` when the schema gives no default. */
  readonly default: number | undefined;
}

/** An operation's retirement, from the spec's `deprecated`, `x-deprecated-at`, `x-sunset` and `x-replacement`. */
export interface Deprecation {
  readonly deprecatedAt: Date | undefined;
  /** From this moment the operation is removed: it answers 410. */
  readonly sunset: Date | undefined;
  /** The operationId of what replaces it. */
  readonly replacement: string | undefined;
}

/** The validators of one operation's inputs, compiled from the spec; `undefined` where it has none. */
export interface InputValidators {
  readonly query: ValidateFunction | undefined;
  readonly path: ValidateFunction | undefined;
  readonly body: ValidateFunction | undefined;
}

/** One operation of the resource. */
export interface ModelOperation {
  readonly operationId: string;
  readonly kind: OperationKind;
  readonly method: HttpMethod;
  /** The path template, without the server's base path: `/pets/{petId}`. */
  readonly path: string;
  /** Every status it documents, ascending. */
  readonly statuses: readonly number[];
  /** The status of its success: 200, 201 or 204. */
  readonly success: number;
  /** The filters of a list; empty for the other kinds. */
  readonly filters: readonly ListFilter[];
  /** The page size of a list, when it has one. */
  readonly pageSize: PageSize | undefined;
  readonly deprecation: Deprecation | undefined;
  /** The largest body it accepts: its `x-max-body-bytes`, else `DEFAULT_MAX_BODY_BYTES`. */
  readonly maxBodyBytes: number;
  /** Its parameters, references followed. */
  readonly parameters: readonly Parameter[];
  readonly validators: InputValidators;
}

/** The error codes the spec catalogues (`x-error-codes` on its Error schema), each with its status. */
type ErrorCatalogue = Readonly<Record<string, { readonly status: number; readonly description: string }>>;

/**
 * The resource of a document.
 * @example
 * const model = readResourceModel(openapi, (name) => validators[name]);
 * model.operations.map((operation) => `${operation.operationId} ${operation.kind}`); // ['listPets list', 'createPet create', 'getPet read']
 */
export interface ResourceModel {
  /** The name of the record's schema: `Pet`. */
  readonly name: string;
  /** The path every operation is served under: `/v1`. */
  readonly basePath: string;
  readonly collectionPath: string;
  readonly itemPath: string;
  readonly id: ModelId;
  /** Every field of a record, in the schema's order, the id among them. */
  readonly fields: readonly ModelField[];
  readonly operations: readonly ModelOperation[];
  readonly errorCodes: ErrorCatalogue;
  /** The most bytes a create accepts: its `x-max-body-bytes`, else `DEFAULT_MAX_BODY_BYTES` (also without a create). */
  readonly createBodyBytes: number;
  /** The record's validator (`Pet`). */
  readonly validateRecord: ValidateFunction;
}

/** Finds the compiled validator of a name that `validatorSchemas` gives (`Pet`, `listPetsQuery`, `createPetBody`). */
export type ValidatorLookup = (name: string) => ValidateFunction | undefined;

/** How a path reads: a collection (`/pets`), an item of one (`/pets/{petId}`), or neither. */
type PathShape =
  | { readonly shape: 'collection' }
  | { readonly shape: 'item'; readonly collection: string; readonly parameter: string }
  | { readonly shape: 'other' };

function shapeOf(path: string): PathShape {
  const segments = path.split('/').slice(1);
  const template = (segment: string) => /^\{[^{}]+\}$/.test(segment);
  const last = segments.at(-1) ?? '';
  const parents = segments.slice(0, -1);
  if (parents.some((segment) => segment.includes('{'))) return { shape: 'other' };
  if (!last.includes('{')) return { shape: 'collection' };
  if (template(last) && parents.length > 0) return { shape: 'item', collection: `/${parents.join('/')}`, parameter: last.slice(1, -1) };
  return { shape: 'other' };
}

/** A schema with its `$ref` followed, the keywords beside the `$ref` kept over the target's. */
function followed(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref !== 'string') return schema;
  const { $ref, ...beside } = schema;
  return { ...followed(doc, resolve<JsonSchema>(doc, { $ref })), ...beside };
}

/** The name a `$ref` gives a component schema: `Pet` for `#/components/schemas/Pet`. */
function refName(schema: JsonSchema): string | undefined {
  return typeof schema.$ref === 'string' ? schema.$ref.split('/').at(-1) : undefined;
}

/** Every property of an object schema, through `$ref` and `allOf`, in order, with the names it requires. */
function propertiesOf(doc: OpenApiDocument, schema: JsonSchema, into = { properties: new Map<string, JsonSchema>(), required: new Set<string>() }) {
  const here = followed(doc, schema);
  for (const branch of Array.isArray(here.allOf) ? (here.allOf as JsonSchema[]) : []) propertiesOf(doc, branch, into);
  const properties = (here.properties ?? {}) as Readonly<Record<string, JsonSchema>>;
  for (const [name, property] of Object.entries(properties)) into.properties.set(name, followed(doc, property));
  for (const name of Array.isArray(here.required) ? (here.required as string[]) : []) into.required.add(name);
  return into;
}

/**
 * An object schema's required names and properties (each `$ref` followed), gathered through `$ref` and `allOf`.
 * @example
 * objectShape(openapi, { $ref: '#/components/schemas/NewPet' }).required; // ['name', 'categoryId']
 */
export function objectShape(doc: OpenApiDocument, schema: JsonSchema): { required: string[]; properties: Record<string, JsonSchema> } {
  const { properties, required } = propertiesOf(doc, schema);
  return { required: [...required], properties: Object.fromEntries(properties) };
}

/** The JSON schema of a response or request content, when it has one. */
function jsonSchema(content: Readonly<Record<string, { readonly schema?: JsonSchema }>> | undefined): JsonSchema | undefined {
  return content?.['application/json']?.schema;
}

/** The lowest 2xx status an operation documents, with its JSON schema. */
function successOf(doc: OpenApiDocument, entry: OperationEntry): { readonly status: number; readonly schema: JsonSchema | undefined } | undefined {
  const statuses = Object.keys(entry.operation.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort((a, b) => a - b);
  const status = statuses[0];
  if (status === undefined) return undefined;
  return { status, schema: jsonSchema(resolve(doc, entry.operation.responses[String(status)] ?? { $ref: '' }).content) };
}

/** What a recognised operation's kind and success are, or why it has none. */
type Recognised = { readonly kind: OperationKind; readonly success: number; readonly record: JsonSchema | undefined } | { readonly problem: string };

const ON_COLLECTION = 'on a collection path the mock knows GET answering a JSON array (a list) and POST with a JSON body answering 201 (a create)';
const ON_ITEM = 'on an item path the mock knows GET answering a JSON object (a read), PUT with a JSON body (a replace) and DELETE answering 204 (a delete)';

/** The kind of an operation on a collection path. */
function onCollection(
  entry: OperationEntry,
  success: NonNullable<ReturnType<typeof successOf>>,
  body: JsonSchema | undefined,
  doc: OpenApiDocument,
): Recognised {
  const answer = success.schema === undefined ? undefined : followed(doc, success.schema);
  if (entry.method === 'get' && answer?.type === 'array') return { kind: 'list', success: success.status, record: answer.items as JsonSchema };
  if (entry.method === 'post' && body !== undefined && success.schema !== undefined) return { kind: 'create', success: success.status, record: success.schema };
  return { problem: ON_COLLECTION };
}

/** The kind of an operation on an item path. */
function onItem(entry: OperationEntry, success: NonNullable<ReturnType<typeof successOf>>, body: JsonSchema | undefined): Recognised {
  if (entry.method === 'get' && success.schema !== undefined) return { kind: 'read', success: success.status, record: success.schema };
  if (entry.method === 'put' && body !== undefined) return { kind: 'replace', success: success.status, record: success.schema };
  if (entry.method === 'delete' && body === undefined && success.schema === undefined) return { kind: 'delete', success: success.status, record: undefined };
  return { problem: ON_ITEM };
}

function recognise(doc: OpenApiDocument, entry: OperationEntry): Recognised {
  const success = successOf(doc, entry);
  if (success === undefined) return { problem: 'it documents no 2xx response, so what it does cannot be told' };
  const body = jsonSchema(entry.operation.requestBody?.content);
  const path = shapeOf(entry.path);
  if (path.shape === 'collection') return onCollection(entry, success, body, doc);
  if (path.shape === 'item') return onItem(entry, success, body);
  return { problem: 'its path is neither a collection (/pets) nor one item of it (/pets/{petId})' };
}

/** The sentence that refuses an operation of no known kind. */
function refusal(entry: OperationEntry, problem: string): string {
  return `${entry.method.toUpperCase()} ${entry.path} (${entry.operationId}) is of no kind the mock knows: ${problem}`;
}

/** The fields of the record, each with what the create body says of it. */
function fieldsOf(doc: OpenApiDocument, record: JsonSchema, createBody: JsonSchema | undefined): ModelField[] {
  const { properties, required } = propertiesOf(doc, record);
  const body = createBody === undefined ? undefined : propertiesOf(doc, createBody);
  return [...properties].map(([name, schema]) => {
    const sent = body?.properties.get(name);
    const serverDefault = (sent ?? schema)['x-server-default'];
    return {
      name,
      schema,
      required: required.has(name),
      writable: body === undefined ? true : sent !== undefined,
      requiredOnCreate: body?.required.has(name) ?? false,
      int64: schema.type === 'integer' && schema.format === 'int64',
      enum: Array.isArray(schema.enum) ? (schema.enum as EnumValue[]) : undefined,
      serverDefault: serverDefault === undefined ? undefined : (serverDefault as EnumValue),
    };
  });
}

/** A body limit for an operation whose spec gives none (`x-max-body-bytes`): the bundled spec's 1 MiB. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The fewest bytes a field's value takes in JSON by its schema's lower bounds: a string's `minLength`
 * (a character is one byte at least, within two quotes), an array's `minItems` (an item and a comma each).
 */
function leastBytes(schema: JsonSchema): number {
  const count = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 0);
  if (schema.type === 'string') return 2 + count(schema.minLength);
  if (schema.type === 'array') return 2 + 2 * count(schema.minItems);
  return 1;
}

/**
 * An operation's body limit (`x-max-body-bytes`), else `DEFAULT_MAX_BODY_BYTES`. A body is answered back
 * (a create's record, a page of them), and no answer passes `ANSWER_BYTES`: nor may a body (a variant's
 * 100 MB limit let an 8 MB name in, which overflowed the redactor's regular expressions).
 */
function bodyLimitOf(entry: OperationEntry | undefined): number {
  const given = entry?.operation['x-max-body-bytes'];
  if (entry === undefined || typeof given !== 'number') return DEFAULT_MAX_BODY_BYTES;
  if (!(given >= 1 && given <= ANSWER_BYTES))
    throw new SpecError(
      `${entry.operationId}'s x-max-body-bytes ${given} is not from 1 to ${ANSWER_BYTES}, the most any answer of the mock holds (ANSWER_BYTES): a body it accepts is answered back; give at most ${ANSWER_BYTES}`,
    );
  return given;
}

/**
 * Refuses a record no body could carry: fields whose lower bounds add up to more than a create accepts.
 * No client could send one, and the mock would still seed them (a `minLength` of 10^9 exhausted the heap at start).
 */
function checkRecordFits(name: string, fields: readonly ModelField[], create: OperationEntry | undefined): void {
  const limit = bodyLimitOf(create);
  // `{}`, and per field its quoted name, a colon and a comma.
  const least = fields.reduce((sum, field) => sum + field.name.length + 4 + leastBytes(field.schema), 2);
  if (least <= limit) return;
  const bounded = fields.filter((field) => leastBytes(field.schema) > 2).map((field) => `${field.name} ${leastBytes(field.schema)}`);
  const where = create === undefined ? 'a body may carry' : `${create.operationId} accepts (x-max-body-bytes)`;
  // What to change: the bounds that ask for the bytes, or, when none does, the limit itself.
  const why = bounded.length > 0 ? `by the lower bounds of its fields (minLength, minItems: ${bounded.join(', ')})` : 'with its fields empty';
  const fix = bounded.length > 0 ? 'lower those bounds' : `raise x-max-body-bytes to ${least} or more`;
  throw new SpecError(`a ${name} takes at least ${least} bytes of JSON ${why}, more than the ${limit} bytes ${where}: no client could send one; ${fix}`);
}

/** Refuses an `x-faker` of a field a create sends whose arguments count more than the create accepts (faker-sizes.ts). */
function checkDrawnFits(doc: OpenApiDocument, fields: readonly ModelField[], create: OperationEntry | undefined): void {
  const limit = (create && bodyLimitOf(create)) ?? DEFAULT_MAX_BODY_BYTES;
  const where = create === undefined ? 'a body may carry' : `${create.operationId} accepts (x-max-body-bytes)`;
  checkFakerSizes(
    doc,
    fields.filter((field) => field.writable),
    limit,
    where,
  );
}

/** The id: the one field every record has that a client never sends, or, without a create, the field named `id`. */
function idOf(fields: readonly ModelField[], itemParameter: JsonSchema & { readonly name: string }, hasCreate: boolean): ModelId {
  const assigned = fields.filter((field) => field.required && !field.writable);
  const field = hasCreate ? (assigned.length === 1 ? assigned[0] : undefined) : fields.find((candidate) => candidate.name === 'id');
  if (field === undefined) {
    const names = assigned.map((candidate) => candidate.name).join(', ') || 'none';
    throw new SpecError(`the record's id cannot be told: it is the one required field a create does not send (found: ${names}); make exactly one field so`);
  }
  const type = field.schema.type;
  if (type !== 'integer' && type !== 'string') throw new SpecError(`the id ${field.name} is a ${String(type)}; an id is an integer or a string`);
  if (itemParameter.type !== type)
    throw new SpecError(
      `the item path's parameter ${itemParameter.name} is a ${String(itemParameter.type)}, but the id ${field.name} is a ${type}; make them one type`,
    );
  return { field: field.name, parameter: itemParameter.name, type, int64: field.int64 };
}

/** The filters and page size of a list, from its query parameters; a parameter that is neither is refused. */
function listQuery(doc: OpenApiDocument, entry: OperationEntry, fields: readonly ModelField[]): Pick<ModelOperation, 'filters' | 'pageSize'> {
  const filters: ListFilter[] = [];
  let pageSize: PageSize | undefined;
  for (const parameter of parametersOf(doc, entry.operation).filter((candidate) => candidate.in === 'query')) {
    const schema = followed(doc, parameter.schema);
    const field = fields.find((candidate) => candidate.name === parameter.name);
    if (Array.isArray(schema.enum) && field?.enum !== undefined) {
      filters.push({ parameter: parameter.name, field: field.name, values: schema.enum as EnumValue[] });
    } else if (schema.type === 'integer' && typeof schema.minimum === 'number' && typeof schema.maximum === 'number' && pageSize === undefined) {
      pageSize = {
        parameter: parameter.name,
        minimum: schema.minimum,
        maximum: schema.maximum,
        default: typeof schema.default === 'number' ? schema.default : undefined,
      };
    } else {
      throw new SpecError(
        `${entry.operationId}'s query parameter ${parameter.name} is neither a filter (an enum, named as a field of the record that enumerates the same values) nor the page size (an integer with a minimum and a maximum); make it one of the two`,
      );
    }
  }
  return { filters, pageSize };
}

function deprecationOf(entry: OperationEntry): Deprecation | undefined {
  const { operation } = entry;
  const date = (value: unknown) => (typeof value === 'string' ? new Date(value) : undefined);
  const replacement = operation['x-replacement'];
  if (operation.deprecated !== true && operation['x-sunset'] === undefined) return undefined;
  return {
    deprecatedAt: date(operation['x-deprecated-at']),
    sunset: date(operation['x-sunset']),
    replacement: typeof replacement === 'string' ? replacement : undefined,
  };
}

/** The `x-error-codes` of the schema of the first JSON error response. */
function errorCodesOf(doc: OpenApiDocument): ErrorCatalogue {
  for (const { operation } of operationsOf(doc)) {
    for (const [status, reference] of Object.entries(operation.responses)) {
      const schema = Number(status) >= 400 ? jsonSchema(resolve(doc, reference).content) : undefined;
      const codes = schema === undefined ? undefined : followed(doc, schema)['x-error-codes'];
      if (typeof codes === 'object' && codes !== null) return codes as ErrorCatalogue;
    }
  }
  return {};
}

interface Classified {
  readonly entry: OperationEntry;
  readonly kind: OperationKind;
  readonly success: number;
  readonly record: JsonSchema | undefined;
}

/** Every operation with its kind; throws one `SpecError` naming each that has none. */
function classify(doc: OpenApiDocument): Classified[] {
  const problems: string[] = [];
  const classified: Classified[] = [];
  for (const entry of operationsOf(doc)) {
    const recognised = recognise(doc, entry);
    if ('problem' in recognised) problems.push(refusal(entry, recognised.problem));
    else classified.push({ entry, ...recognised });
  }
  for (const kind of new Set(classified.map((operation) => operation.kind))) {
    const same = classified.filter((operation) => operation.kind === kind).map(({ entry }) => entry.operationId);
    if (same.length > 1) problems.push(`${same.join(' and ')} are each a ${kind} of the resource; keep one`);
  }
  const collections = new Set(classified.map(({ entry }) => collectionOf(entry.path)));
  if (collections.size > 1) problems.push(`the operations act on ${[...collections].join(' and ')}; the mock models one resource, so serve one collection`);
  if (problems.length > 0) throw new SpecError(`${problems.join('. ')}.`);
  return classified;
}

function collectionOf(path: string): string {
  const shape = shapeOf(path);
  return shape.shape === 'item' ? shape.collection : path;
}

/** The record's schema: what a read answers, else a create, else the items of a list. */
function recordSchema(classified: readonly Classified[]): JsonSchema {
  for (const kind of ['read', 'create', 'replace', 'list'] as const) {
    const record = classified.find((operation) => operation.kind === kind)?.record;
    if (record !== undefined) return record;
  }
  throw new SpecError('no operation answers a record (a read, a create or a list), so the resource has no fields');
}

/** The item path's parameter, as a schema with its name; an item path must exist for an id. */
function itemParameterOf(doc: OpenApiDocument, classified: readonly Classified[], collection: string): { path: string; schema: JsonSchema & { name: string } } {
  const item = classified.find(({ entry }) => shapeOf(entry.path).shape === 'item');
  if (item === undefined) return { path: `${collection}/{id}`, schema: { name: 'id', type: 'integer', format: 'int64' } };
  const parameter = parametersOf(doc, item.entry.operation).find((candidate) => candidate.in === 'path');
  if (parameter === undefined) throw new SpecError(`${item.entry.operationId} documents no path parameter for ${item.entry.path}; document it`);
  return { path: item.entry.path, schema: { ...followed(doc, parameter.schema), name: parameter.name } };
}

function validatorsOf(operationId: string, lookup: ValidatorLookup): InputValidators {
  return { query: lookup(`${operationId}Query`), path: lookup(`${operationId}Path`), body: lookup(`${operationId}Body`) };
}

/**
 * Reads the resource model of `doc`. `validators` finds the compiled validators (`validatorSchemas`
 * names them); a `SpecError` refuses an operation of no known kind, naming it.
 * @example
 * readResourceModel(openapi, (name) => validators[name]).id; // { field: 'id', parameter: 'petId', type: 'integer', int64: true }
 */
export function readResourceModel(doc: OpenApiDocument, validators: ValidatorLookup): ResourceModel {
  const classified = classify(doc);
  const record = recordSchema(classified);
  const name = refName(record) ?? 'record';
  const create = classified.find((operation) => operation.kind === 'create');
  const fields = fieldsOf(doc, record, create === undefined ? undefined : jsonSchema(create.entry.operation.requestBody?.content));
  checkRecordFits(name, fields, create?.entry);
  checkDrawnFits(doc, fields, create?.entry);
  const collectionPath = collectionOf(classified[0]?.entry.path ?? '/');
  const item = itemParameterOf(doc, classified, collectionPath);
  const validateRecord = validators(name);
  if (validateRecord === undefined) throw new SpecError(`no validator was compiled for the record's schema ${name}`);
  const operations = classified.map(({ entry, kind, success }): ModelOperation => {
    return {
      operationId: entry.operationId,
      kind,
      method: entry.method,
      path: entry.path,
      statuses: Object.keys(entry.operation.responses)
        .map(Number)
        .sort((a, b) => a - b),
      success,
      ...(kind === 'list' ? listQuery(doc, entry, fields) : { filters: [], pageSize: undefined }),
      deprecation: deprecationOf(entry),
      maxBodyBytes: bodyLimitOf(entry),
      parameters: parametersOf(doc, entry.operation),
      validators: validatorsOf(entry.operationId, validators),
    };
  });
  return {
    name,
    basePath: basePathOf(doc),
    collectionPath,
    itemPath: item.path,
    id: idOf(fields, item.schema, create !== undefined),
    fields,
    operations,
    errorCodes: errorCodesOf(doc),
    createBodyBytes: bodyLimitOf(create?.entry),
    validateRecord,
  };
}

/**
 * The one operation of a kind, when the model has it; a model with two of a kind is not one the mock serves.
 * @example
 * operationOfKind(model, 'list')?.pageSize; // { parameter: 'limit', minimum, maximum, default }: limit's schema
 */
export function operationOfKind(model: ResourceModel, kind: OperationKind): ModelOperation | undefined {
  return model.operations.find((operation) => operation.kind === kind);
}
