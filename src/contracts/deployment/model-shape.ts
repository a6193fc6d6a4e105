/**
 * What the run-wide model of a deployment needs to know of the spec: the collection it lists and
 * creates in, the item it reads, the id, the item's fields and the filters of the listing. Each is
 * recognised by its HTTP semantics and its schemas, never by name: the list is the GET whose 200 is
 * an array, the create the POST beside it with a JSON body, the read the GET one path segment below,
 * the id the field the item has and the body of a create does not. A resource model of the spec
 * (issue 32) can feed the same shape.
 */
import { type JsonSchema, type OpenApiDocument, type OperationEntry, operationsOf, parametersOf, resolve } from '../../openapi/document.js';
import { flattenObject } from '../contract.js';

/** The methods RFC 9110 §9.2.1 defines as safe: they never change what they read. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['get', 'head', 'options', 'trace']);

/** A query parameter of the listing that keeps only the items whose field of the same name has its value. */
interface Filter {
  readonly name: string;
  readonly values: readonly string[];
}

/** The integer query parameter that sizes a page: its bounds and default, from its schema. */
interface PageSize {
  readonly name: string;
  readonly minimum: number;
  readonly maximum: number;
  readonly default: number;
}

export interface ModelShape {
  /** Path templates relative to the base URL, and the operation at each. */
  readonly list: { readonly operationId: string; readonly path: string; readonly filters: readonly Filter[]; readonly pageSize: PageSize | undefined };
  readonly create: { readonly operationId: string; readonly path: string; readonly fields: readonly string[] };
  /** The read by id, and the name of its path parameter (`petId` of `/pets/{petId}`). */
  readonly read: { readonly operationId: string; readonly path: string; readonly idParameter: string };
  /** The field that identifies an item: required in the item, absent from the body of a create. */
  readonly idField: string;
  /** Every field of the item as the read answers it. */
  readonly fields: readonly string[];
  /**
   * Methods other than GET that the spec documents on the item's path (PUT, PATCH, DELETE): none of
   * them safe (RFC 9110 §9.2.1), so an item may change or go away after one of them succeeds.
   */
  readonly itemChanges: ReadonlySet<string>;
}

/** The JSON schema of an operation's response of `status`, resolved. */
function responseSchema(doc: OpenApiDocument, entry: OperationEntry, status: string): JsonSchema | undefined {
  const reference = entry.operation.responses[status];
  const schema = reference && resolve(doc, reference).content?.['application/json']?.schema;
  return schema && resolve(doc, schema);
}

function findList(doc: OpenApiDocument): OperationEntry | undefined {
  return operationsOf(doc).find((entry) => entry.method === 'get' && responseSchema(doc, entry, '200')?.type === 'array');
}

function filtersOf(doc: OpenApiDocument, entry: OperationEntry, fields: readonly string[]): { filters: Filter[]; pageSize: PageSize | undefined } {
  const filters: Filter[] = [];
  let pageSize: PageSize | undefined;
  for (const parameter of parametersOf(doc, entry.operation).filter((p) => p.in === 'query')) {
    const schema = resolve(doc, parameter.schema);
    if (Array.isArray(schema.enum) && fields.includes(parameter.name))
      filters.push({ name: parameter.name, values: schema.enum.filter((value): value is string => typeof value === 'string') });
    else if (schema.type === 'integer' && typeof schema.maximum === 'number')
      pageSize = { name: parameter.name, minimum: Number(schema.minimum ?? 1), maximum: schema.maximum, default: Number(schema.default ?? schema.maximum) };
  }
  return { filters, pageSize };
}

/** The shape of the spec's one collection, or why the run-wide model cannot be made of it. */
export function modelShapeOf(doc: OpenApiDocument): ModelShape | { readonly problem: string } {
  const list = findList(doc);
  if (!list) return { problem: 'the spec documents no GET whose 200 is an array (a listing)' };
  const entries = operationsOf(doc);
  const create = entries.find((entry) => entry.method === 'post' && entry.path === list.path && entry.operation.requestBody !== undefined);
  const itemPath = new RegExp(`^${list.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}/\\{[^/}]+\\}$`);
  const read = entries.find((entry) => entry.method === 'get' && itemPath.test(entry.path));
  if (!create || !read) return { problem: `the spec documents no ${create ? 'GET' : 'POST'} beside the listing ${list.path}` };
  const bodySchema = create.operation.requestBody?.content['application/json']?.schema;
  const itemSchema = responseSchema(doc, read, '200');
  if (!bodySchema || !itemSchema) return { problem: `${create.operationId} takes no JSON body, or ${read.operationId} answers no JSON item` };
  const item = flattenObject(doc, itemSchema);
  const body = flattenObject(doc, bodySchema);
  const ids = item.required.filter((field) => !(field in body.properties));
  if (ids.length !== 1 || ids[0] === undefined)
    return { problem: `the item of ${read.operationId} has ${ids.length} required fields that a create does not send (${ids.join(', ')}), not one id` };
  const fields = Object.keys(item.properties);
  return {
    list: { operationId: list.operationId, path: list.path, ...filtersOf(doc, list, fields) },
    create: { operationId: create.operationId, path: create.path, fields: Object.keys(body.properties) },
    read: { operationId: read.operationId, path: read.path, idParameter: /\{([^}]+)\}$/.exec(read.path)?.[1] ?? 'id' },
    idField: ids[0],
    fields,
    itemChanges: new Set(entries.filter((entry) => entry.path === read.path && !SAFE_METHODS.has(entry.method)).map((entry) => entry.method.toUpperCase())),
  };
}
