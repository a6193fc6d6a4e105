import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { SpecError } from '../errors.js';
import { type JsonValue, validationView } from '../json/lossless.js';
import { compiledValidators } from '../openapi/ajv.js';
import { BUNDLED_SPEC, type CompiledSpec } from '../openapi/bundled-model.js';
import { type JsonSchema, type OpenApiDocument, operationsOf, resolve } from '../openapi/document.js';
import {
  type ListFilter,
  type ModelOperation,
  type OperationKind,
  objectShape,
  operationOfKind,
  type PageSize,
  type ResourceModel,
  type ValidatorLookup,
} from '../openapi/resource-model.js';

/** What the verifier knows of one operation, from the spec. */
export interface ContractOperation {
  readonly operationId: string;
  readonly method: string;
  /** Path template relative to the base URL: `/pets/{petId}`. */
  readonly path: string;
  /** The response statuses the spec documents. */
  readonly statuses: ReadonlySet<number>;
  /** True when the operation (or the document) requires a security scheme. */
  readonly secured: boolean;
  readonly deprecated: boolean;
  /** `x-sunset`: when a deprecated operation is removed. */
  readonly sunset: Date | undefined;
}

/** The body schema's shape: what a valid request body needs. */
interface BodyShape {
  readonly required: readonly string[];
  /** Each property's JSON type (`string`, `integer`, ...), format (`int64`), enum and a string's lengths, if any. */
  readonly properties: Readonly<
    Record<
      string,
      {
        readonly type: string | undefined;
        readonly format: string | undefined;
        readonly enum: readonly unknown[] | undefined;
        readonly minLength?: number;
        readonly maxLength?: number;
      }
    >
  >;
}

interface SchemaViolation {
  /** Where in the body: `/0/id`, or `` for the body itself. */
  readonly instancePath: string;
  /** Which rule of the schema: `#/items/allOf/1/required`. */
  readonly schemaPath: string;
  readonly message: string;
}

/**
 * The interface as the verifier takes it from the spec at run time: operations, documented
 * statuses, response schemas (compiled with ajv), parameter bounds and body shapes. Nothing here
 * is written by hand; a change to the spec changes the checks.
 */
export interface Contract {
  readonly doc: OpenApiDocument;
  /** The resource the spec describes, and each operation's kind: what the checks of a kind are made from. */
  readonly model: ResourceModel;
  operation(operationId: string): ContractOperation;
  /** Every violation of the schema the spec gives for this operation and status, or `undefined` when the spec has no JSON body for it. */
  violations(operationId: string, status: number, body: JsonValue): SchemaViolation[] | undefined;
  /** Every violation of the schema of this operation's JSON request body, or `undefined` when the spec gives it none. */
  requestViolations(operationId: string, body: JsonValue): SchemaViolation[] | undefined;
  /** Every violation of the schemas the spec gives the headers of this operation and status (by lower-case name), or `undefined` when it documents none. */
  headerViolations(operationId: string, status: number, headers: Readonly<Record<string, string>>): SchemaViolation[] | undefined;
  /** The request body's shape. */
  body(operationId: string): BodyShape;
  /** The names of the record's fields, from the resource model. */
  fields(): readonly string[];
}

function describe(error: ErrorObject): SchemaViolation {
  const at = error.keyword === 'required' ? `${error.instancePath}/${error.params.missingProperty}` : error.instancePath;
  return { instancePath: at, schemaPath: error.schemaPath, message: error.message ?? 'is invalid' };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Every violation `validate` finds in `value`. */
function violationsOf(validate: ValidateFunction, value: unknown): SchemaViolation[] {
  return validate(value) ? [] : (validate.errors ?? []).map(describe);
}

/** Each operation of the spec, by id, as the verifier sees it. */
function operationsById(doc: OpenApiDocument): Map<string, ContractOperation> {
  // The document-wide `security`, which the document's type leaves out: each operation without its own inherits it.
  const globalSecurity = 'security' in doc && Array.isArray(doc.security) ? doc.security : undefined;
  return new Map(
    operationsOf(doc).map(({ operationId, method, path, operation }) => [
      operationId,
      {
        operationId,
        method: method.toUpperCase(),
        path,
        statuses: new Set(Object.keys(operation.responses).map(Number)),
        secured: (operation.security ?? globalSecurity ?? []).length > 0,
        deprecated: operation.deprecated === true,
        sunset: typeof operation['x-sunset'] === 'string' ? new Date(operation['x-sunset']) : undefined,
      },
    ]),
  );
}

/** The fields of an operation's JSON request body, and those it requires; `undefined` when it has none. */
export function bodyObjectOf(doc: OpenApiDocument, operationId: string): ReturnType<typeof objectShape> | undefined {
  const schema = operationsOf(doc).find((entry) => entry.operationId === operationId)?.operation.requestBody?.content['application/json']?.schema;
  return schema && objectShape(doc, schema);
}

function bodyShapeOf(doc: OpenApiDocument, operationId: string): BodyShape {
  const body = bodyObjectOf(doc, operationId);
  if (!body) throw new SpecError(`the spec gives "${operationId}" no JSON request body`);
  const { required, properties } = body;
  const propertyShape = (property: JsonSchema) => {
    const resolved = resolve(doc, property);
    return {
      type: stringOf(resolved.type),
      format: stringOf(resolved.format),
      enum: Array.isArray(resolved.enum) ? resolved.enum : undefined,
      ...(typeof resolved.minLength === 'number' ? { minLength: resolved.minLength } : {}),
      ...(typeof resolved.maxLength === 'number' ? { maxLength: resolved.maxLength } : {}),
    };
  };
  return { required, properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, propertyShape(property)])) };
}

/**
 * The options of every ajv that judges what a deployment sent: no default filled in (a field a deployment
 * left out must stay missing), the first fault of a value said and no more (ajv joins the errors of each
 * item to the list before, so 100,000 items missing a field held the verifier 74 s, red team 14 #9), and
 * the bundled spec not checked against JSON Schema's meta-schema again.
 */
export function judgeOptions(doc: OpenApiDocument): Options {
  return { useDefaults: false, allErrors: false, ...(doc === BUNDLED_SPEC.doc ? { validateSchema: false } : {}) };
}

/** The response validators of each document, shared by every run over it (in process, a test runs the verifier hundreds of times). */
const judgesByDocument = new WeakMap<OpenApiDocument, ValidatorLookup>();

function judgesOf(doc: OpenApiDocument): ValidatorLookup {
  const judges = judgesByDocument.get(doc) ?? compiledValidators(doc, judgeOptions(doc));
  judgesByDocument.set(doc, judges);
  return judges;
}

/**
 * The contract of a spec: by default the bundled spec/openapi.yaml, as `npm run generate` wrote it out
 * (a run then parses no YAML); another, a variant of this interface, as `compileSpec` read it
 * (`--spec FILE`). The verifier compiles its own validators of the responses (`judgeOptions`), each on
 * first use and once a document. The bundled spec's schemas, which the project's lint and tests already
 * hold to JSON Schema's meta-schema, are not checked against it again (ajv's check of a document costs
 * more than compiling every validator a run needs); a spec file given at run time is.
 */
export async function loadContract(spec: CompiledSpec = BUNDLED_SPEC): Promise<Contract> {
  const { doc, model } = spec;
  const validator = judgesOf(doc);
  const operations = operationsById(doc);
  return {
    doc,
    model,
    operation(operationId) {
      const found = operations.get(operationId);
      if (!found) throw new SpecError(`the spec has no operation "${operationId}"`);
      return found;
    },
    violations(operationId, status, body) {
      const validate = validator(`${operationId}${status}`);
      return validate && violationsOf(validate, validationView(body));
    },
    requestViolations(operationId, body) {
      const validate = validator(`${operationId}Body`);
      return validate && violationsOf(validate, validationView(body));
    },
    headerViolations(operationId, status, headers) {
      const validate = validator(`${operationId}${status}Headers`);
      return validate && violationsOf(validate, headers);
    },
    fields: () => model.fields.map((field) => field.name),
    body: (operationId) => bodyShapeOf(doc, operationId),
  };
}

/**
 * The operationId of the resource model's operation of `kind` (src/openapi/resource-model.ts): the
 * checks name the list, the create and the read by their kind, so that what they send follows the spec.
 */
export function operationIdOf(contract: Contract, kind: OperationKind): string {
  const found = operationOfKind(contract.model, kind);
  if (found === undefined) throw new SpecError(`the spec has no operation of the kind ${kind}, which the spec suite checks`);
  return found.operationId;
}

/** The spec's list with its page size, default included: what the checks of the list and the fuzz suite take their bounds and filters from. */
export function listOf(contract: Contract): ModelOperation & { readonly pageSize: PageSize & { readonly default: number } } {
  const list = operationOfKind(contract.model, 'list');
  const pageSize = list?.pageSize;
  if (list === undefined || pageSize?.default === undefined)
    throw new SpecError(
      'the spec has no list with a page size and its default (an integer query parameter with a minimum, a maximum and a default), which the spec suite checks',
    );
  return { ...list, pageSize: { ...pageSize, default: pageSize.default } };
}

/**
 * A path template as a pattern, each parameter a group: `/pets/{petId}` matches `/pets/12`. Not
 * `anchored`, it matches the end of a path (a URL's, the base path before the template).
 */
export function templatePattern(template: string, anchored = true): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`${anchored ? '^' : ''}${parts.join('([^/]+)')}$`);
}

/** A path template with its parameters filled in, percent-encoded (an absent one empty): `/pets/{petId}` and `{ petId: '12' }` give `/pets/12`. */
export function filledPath(template: string, params: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** Percent-encoded text decoded, or as it is when it is no valid percent-encoding (`%E0%A4%A`). */
export function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The query of a page of `size` records, by the list's page size parameter (`limit=5`); none when the list has no page size. */
export function sizedPage(list: ModelOperation, size: number | string): string {
  return list.pageSize === undefined ? '' : `${list.pageSize.parameter}=${encodeURIComponent(size)}`;
}

/** The query of the largest page a list allows (its page size parameter at its maximum), or none when it has no page size. */
export function fullPage(list: ModelOperation): string {
  return list.pageSize === undefined ? '' : sizedPage(list, list.pageSize.maximum);
}

/** The query of a page of the records whose filter's field has `value` (`status=sold`), of `size` records when given. */
export function filteredPage(list: ModelOperation, filter: ListFilter, value: string, size?: number): string {
  const sized = size === undefined ? '' : sizedPage(list, size);
  return `${filter.parameter}=${encodeURIComponent(value)}${sized === '' ? '' : `&${sized}`}`;
}
