/**
 * A valid value for a field, derived from its schema in the spec: every value of an enum, a string
 * within its lengths and of its format, an integer within its bounds (one the deployment already took
 * for that field, when the run knows one: a deployment may refuse a category it does not know), a
 * boolean, an array or an object of valid values. Nothing here names a field: a field added to the
 * spec gets a value with no code.
 */
import { randomUUID } from 'node:crypto';
import { type JsonSchema, type OpenApiDocument, resolve } from '../../openapi/document.js';
import { linearPattern } from '../../openapi/linear-pattern.js';
import { objectShape } from '../../openapi/resource-model.js';
import { ENUM_VALUES_TRIED } from '../run-bounds.js';

/** What a value may be drawn from besides the schema: the text strings start with, and values the deployment took for this field. */
interface Hints {
  readonly prefix: string;
  /** Exact JSON texts the deployment accepted for this field before. */
  readonly accepted: readonly string[];
}

/** A string of the run (findable on a shared staging) fitted to the schema's lengths. */
function stringFor(schema: JsonSchema, prefix: string): string | undefined {
  switch (schema.format) {
    case 'date-time':
      return new Date().toISOString();
    case 'date':
      return new Date().toISOString().slice(0, 10);
    case 'email':
      return 'petstore-verify@example.com';
    case 'uri':
      return 'https://example.com/petstore-verify';
    case 'uuid':
      return randomUUID();
    default: {
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
      const text = prefix.slice(0, max).padEnd(min, 'x');
      // A pattern can be tested, not inverted: a field whose pattern the run's text misses gets no value. Tested as the judges test it, in linear time.
      return typeof schema.pattern === 'string' && !linearPattern(schema.pattern).test(text) ? undefined : text;
    }
  }
}

/** A number within the schema's bounds: `preferred` when it fits, else the nearest bound. */
function numberWithin(schema: JsonSchema, preferred: number): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : Number.NEGATIVE_INFINITY;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
  return Math.min(max, Math.max(min, preferred));
}

/**
 * The valid values of `schema` as exact JSON texts: each value of an enum, else one value. Empty when
 * none can be derived (a string pattern the run's text does not match, a schema of no known type).
 */
export function validValues(doc: OpenApiDocument, schema: JsonSchema, hints: Hints): string[] {
  const resolved = resolve(doc, schema);
  if (Array.isArray(resolved.enum)) return resolved.enum.slice(0, ENUM_VALUES_TRIED).map((value) => JSON.stringify(value));
  if ('const' in resolved) return [JSON.stringify(resolved.const)];
  const type = Array.isArray(resolved.type) ? resolved.type.find((t) => t !== 'null') : resolved.type;
  switch (type) {
    case 'string': {
      const text = stringFor(resolved, hints.prefix);
      return text === undefined ? [] : [JSON.stringify(text)];
    }
    case 'integer':
    case 'number':
      return [hints.accepted[0] ?? String(numberWithin(resolved, 1))];
    case 'boolean':
      return ['true'];
    case 'array': {
      const items =
        typeof resolved.items === 'object' && resolved.items !== null ? validValues(doc, resolved.items as JsonSchema, { ...hints, accepted: [] }) : [];
      const count = typeof resolved.minItems === 'number' ? resolved.minItems : 1;
      return items[0] === undefined ? (count === 0 ? ['[]'] : []) : [`[${Array.from({ length: count }, () => items[0]).join(',')}]`];
    }
    case 'object':
      return [objectOf(doc, resolved, hints)].filter((text) => text !== undefined);
    default:
      return resolved.allOf !== undefined ? [objectOf(doc, resolved, hints)].filter((text) => text !== undefined) : [];
  }
}

/** An object with a valid value of every property, or undefined when a required one has none. */
function objectOf(doc: OpenApiDocument, schema: JsonSchema, hints: Hints): string | undefined {
  const { required, properties } = objectShape(doc, schema);
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const value = validValues(doc, property, { ...hints, accepted: [] })[0];
    if (value === undefined && required.includes(name)) return undefined;
    if (value !== undefined) parts.push(`${JSON.stringify(name)}:${value}`);
  }
  return `{${parts.join(',')}}`;
}
