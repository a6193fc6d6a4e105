/**
 * The ways a valid request body breaks the schema of its operation, derived from that schema: what the
 * spec suite's `createPet.invalid` sends, and what the fuzz suite draws from. Apart from fuzz-inputs.ts,
 * which needs fast-check (an optional peer), so that the spec suite runs without it.
 */
import type { Contract } from './contract.js';

type BodyShape = ReturnType<Contract['body']>;

/** A JSON object's text from its fields' exact texts, in order. */
export function objectText(fields: Readonly<Record<string, string>>): string {
  return `{${Object.entries(fields)
    .map(([name, value]) => `${JSON.stringify(name)}:${value}`)
    .join(',')}}`;
}

/**
 * A change that makes a valid body invalid by the schema, of a `kind`: a field missing, null or outside
 * its enum (`field`), of another JSON type (`type`), an enum's value in another case (`case`), a body
 * that is no object (`shape`), or no JSON at all (`syntax`).
 */
export interface Breakage {
  readonly what: string;
  readonly kind: 'field' | 'type' | 'case' | 'shape' | 'syntax';
  apply(fields: Readonly<Record<string, string>>): string;
}

const replaced = (field: string, value: string) => (fields: Readonly<Record<string, string>>) => objectText({ ...fields, [field]: value });

/** Values of another JSON type than the schema's, for a property of `type`. */
function mistyped(type: string | undefined): [string, string][] {
  if (type === 'integer')
    return [
      ['a string of digits', '"7"'],
      ['true', 'true'],
      ['fractional', '1.5'],
    ];
  if (type === 'string')
    return [
      ['a number', '42'],
      ['true', 'true'],
    ];
  return [['an object', '{}']];
}

/** Every breakage the schema implies: each required field missing or null, each optional one null, each of another type, each enum left. */
export function breakages(shape: BodyShape): Breakage[] {
  const out: Breakage[] = [];
  for (const [field, property] of Object.entries(shape.properties)) {
    if (shape.required.includes(field))
      out.push({
        what: `${field} missing`,
        kind: 'field',
        apply: (fields) => objectText(Object.fromEntries(Object.entries(fields).filter(([name]) => name !== field))),
      });
    if (!property.enum?.includes(null)) out.push({ what: `${field} null`, kind: 'field', apply: replaced(field, 'null') });
    for (const [what, value] of mistyped(property.type)) out.push({ what: `${field} ${what}`, kind: 'type', apply: replaced(field, value) });
    const first = property.enum?.find((value): value is string => typeof value === 'string');
    if (first !== undefined) {
      const upper = JSON.stringify(first.toUpperCase());
      if (first.toUpperCase() !== first) out.push({ what: `${field} ${upper}`, kind: 'case', apply: replaced(field, upper) });
      out.push({ what: `${field} outside its enum`, kind: 'field', apply: replaced(field, '"petstore-verify-unknown"') });
    }
  }
  out.push(
    { what: 'an array', kind: 'shape', apply: (fields) => `[${objectText(fields)}]` },
    { what: 'a string', kind: 'shape', apply: () => '"pet"' },
    { what: 'null', kind: 'shape', apply: () => 'null' },
    // A lenient parser that stops at the end of the first value would accept text after it; JSON does not (RFC 8259 §2).
    { what: 'malformed JSON', kind: 'syntax', apply: (fields) => objectText(fields).slice(0, -1) },
    { what: 'text after the JSON object', kind: 'syntax', apply: (fields) => `${objectText(fields)} x` },
  );
  return out;
}
