import type { ErrorObject } from 'ajv';
import { INT64_MAX, INT64_MIN, INTEGER_SPELLING } from '../../json/int64.js';
import type { JsonSchema, Parameter } from '../../openapi/document.js';
import { namedValues } from '../../terminal/excerpt-text.js';
import { cachedIn } from '../core/memo.js';

/**
 * A query or path value as its schema types it: an integer parameter takes only an integer as JSON
 * writes it (so `1.5`, `1e2`, `+1`, `01`, ` 1` and the empty string stay strings and fail
 * `type: integer`: an id is one spelling of one number (`-0` is not 0's), never a number a lenient parse finds in the
 * text); an integer beyond 2^53 stays exact as a `bigint`. Everything else stays the string it was.
 */
export function coerceParameter(raw: string, schema: JsonSchema): string | number | bigint {
  if (schema.type !== 'integer' || !INTEGER_SPELLING.test(raw)) return raw;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : BigInt(raw);
}

/**
 * An integer's documented range, by field, carried by the values `parseParameters` made (`limit` is
 * `from 1 to 100`) under a symbol: no validator, `Object.entries` or JSON sees it, and a spread copy keeps it.
 */
const INTEGER_RANGES: unique symbol = Symbol('integer ranges');

/** Values of parameters by name, with their integers' documented ranges. */
type ParameterValues = Record<string, string | number | bigint> & { [INTEGER_RANGES]?: ReadonlyMap<string, string> };

function rangeOf(schema: JsonSchema): string | undefined {
  if (schema.type !== 'integer') return undefined;
  const { minimum, maximum } = schema;
  if (typeof minimum === 'number' && typeof maximum === 'number') return `from ${minimum} to ${maximum}`;
  return schema.format === 'int64' ? `from ${INT64_MIN} to ${INT64_MAX}` : undefined;
}

/** The documented ranges of a list of parameters, worked out once per list: a request-target seen once pays nothing for them. */
const rangesByList = new WeakMap<readonly Parameter[], ReadonlyMap<string, string>>();

function rangesOf(parameters: readonly Parameter[]): ReadonlyMap<string, string> {
  return cachedIn(
    rangesByList,
    parameters,
    () =>
      new Map(
        parameters.flatMap(({ name, schema }) => [[name, rangeOf(schema)] as const]).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
  );
}

/**
 * The query parameter given more than once that takes one value, if one is: with `style: form` and
 * `explode: true` (the query's default, OpenAPI 3.1 4.8.12.4) a parameter is repeated only to carry
 * the items of an array; `limit=1&limit=2` is no value of an integer, and the mock answers a 400
 * naming it rather than picking one, as a strict validator does.
 */
export function repeatedParameter(parameters: readonly Parameter[], search: URLSearchParams): { readonly name: string; readonly count: number } | undefined {
  for (const { name, schema } of parameters) {
    const count = search.getAll(name).length;
    if (count > 1 && schema.type !== 'array') return { name, count };
  }
  return undefined;
}

/** The values of one location's parameters, coerced, by name; absent ones are left out. */
export function parseParameters(
  parameters: readonly Parameter[],
  lookup: (name: string) => string | null | undefined,
): Record<string, string | number | bigint> {
  const values: ParameterValues = {};
  for (const parameter of parameters) {
    const raw = lookup(parameter.name);
    if (raw === null || raw === undefined) continue;
    values[parameter.name] = coerceParameter(raw, parameter.schema);
  }
  // An integer out of range is described by the range the spec documents, whatever check rejected it.
  const ranges = rangesOf(parameters);
  if (ranges.size > 0) values[INTEGER_RANGES] = ranges;
  return values;
}

const TYPE_PHRASES: Readonly<Record<string, string>> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
};

const INT64_PHRASE = `an integer from ${INT64_MIN} to ${INT64_MAX}`;

function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const segment of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = Reflect.get(node, segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return node;
}

function fieldName(error: ErrorObject, whole: string): string {
  const path = error.instancePath.split('/').slice(1);
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  return path.length === 0 ? whole : path.join('.');
}

const RANGE_KEYWORDS = new Set(['type', 'format', 'minimum', 'maximum']);

/** What to add for a parameter sent as a number in another spelling (`01`, `+1`, ` 1`, `1e0`): how an integer is written. */
function spellingHint(value: unknown): string {
  return typeof value === 'string' && /^[\s+-]*\.?\d/.test(value)
    ? ', written in plain digits (no sign but -, no leading zero, no -0, space, fraction or exponent)'
    : '';
}

function phrase(error: ErrorObject, data: unknown, field: string): string {
  const range = typeof data === 'object' && data !== null ? (data as ParameterValues)[INTEGER_RANGES]?.get(field) : undefined;
  if (range !== undefined && RANGE_KEYWORDS.has(error.keyword)) return `must be an integer ${range}${spellingHint(valueAt(data, error.instancePath))}`;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type': {
      const types = String(error.params.type).split(',');
      // A number past int64 where a number goes is out of range; where a string goes, the type is what is wrong.
      if (typeof valueAt(data, error.instancePath) === 'bigint' && types.some((type) => type === 'integer' || type === 'number'))
        return `must be ${INT64_PHRASE}`;
      return `must be ${types.map((type) => TYPE_PHRASES[type] ?? type).join(' or ')}`;
    }
    case 'enum': {
      // ajv's `EnumParams`: the schema's `enum`, an array.
      const allowed: readonly unknown[] = error.params.allowedValues;
      return `must be one of ${namedValues(allowed)}`;
    }
    case 'minimum':
      return `must be at least ${error.params.limit}`;
    case 'maximum':
      return `must be at most ${error.params.limit}`;
    case 'minLength':
    case 'maxLength':
      return `must be at ${error.keyword === 'minLength' ? 'least' : 'most'} ${error.params.limit} characters long`;
    case 'format':
      return error.params.format === 'int64' ? `must be ${INT64_PHRASE}` : `must be a valid ${error.params.format}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * One sentence naming every field at fault and what it must be (the first problem of each), from ajv's errors:
 * `categoryId must be an integer; name is required`. `data` is the value as sent, so that
 * integers too large for a double are described as such. `whole` names the value itself.
 */
export function describeErrors(errors: readonly ErrorObject[], data: unknown, whole: string): string {
  const byField = new Map<string, string>();
  for (const error of errors) {
    const field = fieldName(error, whole);
    if (!byField.has(field)) byField.set(field, `${field} ${phrase(error, data, field)}`);
  }
  return [...byField.values()].join('; ');
}
