import { type JsonSchema, type OpenApiDocument, operationsOf, parametersOf, type Response, resolve } from './document.js';

/** The base URI under which the document's schemas are registered with ajv. */
export const SCHEMA_BASE = 'https://petstore-mock.invalid/';

/** The extension that records a server-side default of a request field. */
const SERVER_DEFAULT = 'x-server-default';

/** Whether ajv fills in a value for this schema when it is absent: a `default`, or the server's default. */
export function hasFilledDefault(schema: object): boolean {
  return 'default' in schema || SERVER_DEFAULT in schema;
}

/** A schema as ajv takes it: `x-` extensions left out (`x-server-default` as `default`), local `$ref`s under `SCHEMA_BASE`. */
function toValidatorSchema(schema: object): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // The value the service stores for an omitted field. The spec keeps it out of `default`, which
    // generators turn into a required request property; ajv's useDefaults fills it in as one.
    if (key === SERVER_DEFAULT) out.default = value;
    if (key.startsWith('x-')) continue;
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? SCHEMA_BASE + value.slice(2) : toValidatorValue(value);
  }
  return out;
}

function toValidatorValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toValidatorValue);
  return typeof value === 'object' && value !== null ? toValidatorSchema(value) : value;
}

function withId(name: string, schema: JsonSchema): JsonSchema {
  return { $id: `${SCHEMA_BASE}validators/${name}`, ...toValidatorSchema(schema) };
}

/**
 * One object schema over the headers a response documents, by lower-case name, so that the values a
 * response sends are checked in one call; whether a header must be there is conformance's question.
 */
function headerSchema(doc: OpenApiDocument, headers: NonNullable<Response['headers']>): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(headers).map(([name, header]) => [name.toLowerCase(), resolve(doc, header).schema ?? {}])),
  };
}

/** One object schema over the parameters of one location, so all of them are checked in one call. */
function parameterSchema(parameters: ReturnType<typeof parametersOf>): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * Every schema a validator is compiled from, by validator name:
 * - each component schema under its own name (`Pet`, `Error`, ...),
 * - `<operationId>Query` and `<operationId>Path` over an operation's parameters,
 * - `<operationId>Body` for its JSON request body,
 * - `<operationId><status>` for each JSON response body (`createPet201`),
 * - `<operationId><status>Headers` over the headers a response documents (`getPet200Headers`).
 * `$ref`s point at `SCHEMA_BASE`, where `componentSchemas` registers the components.
 */
export function validatorSchemas(doc: OpenApiDocument): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) schemas[name] = withId(name, schema);
  for (const { operationId, operation } of operationsOf(doc)) {
    const parameters = parametersOf(doc, operation);
    for (const [location, suffix] of [
      ['query', 'Query'],
      ['path', 'Path'],
    ] as const) {
      const here = parameters.filter((p) => p.in === location);
      if (here.length > 0) schemas[operationId + suffix] = withId(`${operationId}-${location}`, parameterSchema(here));
    }
    const body = operation.requestBody?.content['application/json']?.schema;
    if (body) schemas[`${operationId}Body`] = withId(`${operationId}-body`, body);
    for (const [status, reference] of Object.entries(operation.responses)) {
      const response = resolve(doc, reference);
      const schema = response.content?.['application/json']?.schema;
      if (schema) schemas[`${operationId}${status}`] = withId(`${operationId}-${status}`, schema);
      if (response.headers) schemas[`${operationId}${status}Headers`] = withId(`${operationId}-${status}-headers`, headerSchema(doc, response.headers));
    }
  }
  return schemas;
}

/** The component schemas, each with the `$id` that `$ref`s in `validatorSchemas` point at. */
export function componentSchemas(doc: OpenApiDocument): JsonSchema[] {
  return Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) => ({
    $id: `${SCHEMA_BASE}components/schemas/${name}`,
    ...toValidatorSchema(schema),
  }));
}
