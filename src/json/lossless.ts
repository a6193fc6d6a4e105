import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { isInt64 } from './int64.js';
import { outlineJsonText } from './json-text.js';

/**
 * A JSON value as this project reads it: integers beyond 2^53 stay exact as `bigint`, every other
 * number is a plain `number`.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

const INTEGER_LITERAL = /^-?\d+$/;
const NUMERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** How many digits an integer written with a fraction or an exponent may expand to before it is left to a double: past int64 either way. */
const MAX_EXPANDED_DIGITS = 25;

/**
 * More digits than this and an integer is past every int64 by far: it is read as the infinity of its
 * sign, which is what ajv is shown of any integer beyond int64 (`validationView`). Converting it to a
 * bigint and back costs time that grows faster than its length (a million digits: about 0.15 s to
 * read, 0.4 s to print), which a deployment must not be able to make a client spend.
 */
const MAX_EXACT_DIGITS = 1000;

/** An integer's digits as the number or bigint this project keeps it as: a bigint beyond 2^53, never a rounded double. */
function exactInteger(sign: string, digits: string): number | bigint {
  // The sign is in `digits` for a plain integer literal (`-12`), in `sign` otherwise.
  if (digits.length > MAX_EXACT_DIGITS) return `${sign}${digits}`.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  const n = Number(sign + digits);
  return Number.isSafeInteger(n) ? n : BigInt(sign + digits);
}

/**
 * A JSON number, read from its text so that no double decides what it is. An integer is kept exactly,
 * also when written with a zero fraction or an exponent (`5.0`, `1e2`, `9007199254740993.0`), as JSON
 * Schema counts those as integers. A number with a fraction stays a fraction: when the nearest double
 * would be a whole number (`4.9999999999999999`, `9007199254740993.5`) it is read as `NaN`, which no
 * integer (nor any other schema) accepts, rather than as a wrong integer.
 */
function toNumber(text: string): number | bigint {
  if (INTEGER_LITERAL.test(text)) return exactInteger('', text);
  const parts = NUMERAL.exec(text);
  const n = Number(text);
  if (!parts) return n;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  const shift = Number(exponent) - fraction.length;
  if (/^0+$/.test(digits)) return 0;
  if (shift >= 0) return digits.length + shift > MAX_EXPANDED_DIGITS ? n : exactInteger(sign, digits + '0'.repeat(shift));
  const cut = digits.length + shift;
  if (cut > 0 && /^0+$/.test(digits.slice(cut))) return exactInteger(sign, digits.slice(0, cut));
  return Number.isInteger(n) ? Number.NaN : n;
}

/** How deep arrays and objects may nest in JSON this project parses: no body of the spec comes close. */
export const MAX_JSON_DEPTH = 128;

/**
 * Parses JSON without losing integer precision (`JSON.parse` rounds 2^53 + 1). Throws
 * `SyntaxError` on malformed input, like `JSON.parse`, on an object with a key twice, and on nesting
 * deeper than `MAX_JSON_DEPTH`, which is refused before any recursion can exhaust the stack.
 */
export function parseJson(text: string): JsonValue {
  const { depth, members, inexactNumber } = outlineJsonText(text);
  if (depth > MAX_JSON_DEPTH) throw tooDeep();
  let value: JsonValue | undefined;
  try {
    // The outline's pass has looked at every number already: no second pass for `mayParsePlainly`. A number
    // to read exactly is read from its source text where the engine hands it over (`exactNumbers`): the
    // lossless parser builds each string a character at a time, and a 5 MB name took 640 MB of the
    // verifier's allocations to read (its peak RSS 680 to 900 MB against the deadline test's 768 MiB).
    value = !inexactNumber ? (JSON.parse(text) as JsonValue) : sourceTextAccess ? (JSON.parse(text, exactNumbers) as JsonValue) : undefined;
  } catch {
    value = undefined;
  }
  // The lossless parser reads what JSON.parse cannot: a number that must be read from its text, a key
  // given twice (fewer members than written: JSON.parse keeps the last; the lossless parser refuses it
  // and says where), and malformed JSON, whose message it gives with its place.
  return value !== undefined && membersOf(value) === members ? value : parseLosslessly(text);
}

function tooDeep(): SyntaxError {
  return new SyntaxError(`arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`);
}

function parseLosslessly(text: string): JsonValue {
  // lossless-json types its result `unknown`; with `toNumber` every number is a number or a bigint, so it is a JsonValue.
  return parseLossless(text, null, toNumber) as JsonValue;
}

/**
 * Parses JSON as `parseJson` does, numbers alike, but an object with a name twice keeps its last
 * value, as JSON.parse does (RFC 8259 §4 leaves that to the reader), and malformed JSON gets the
 * engine's message. For what a client reads (the verifier's responses), whose time must stay within a
 * run's deadline; the mock reads requests with `parseJson`.
 */
export function parseJsonFast(text: string): JsonValue {
  refuseDeepJson(text);
  return engineParse(text);
}

/**
 * Throws the `SyntaxError` of every JSON input this project reads when `text` nests deeper than
 * `MAX_JSON_DEPTH`, measured in one pass without recursion: for a reader that parses by other means
 * (the pacts, handed to the Pact Verifier as `JSON.parse` reads them).
 */
export function refuseDeepJson(text: string): void {
  if (outlineJsonText(text).depth > MAX_JSON_DEPTH) throw tooDeep();
}

/**
 * A digit before a fraction or an exponent, or 16 digits in a row: a number `toNumber` must read from
 * its text (a double could round it). Text in a string may match too, which only costs the slower parse.
 */
const NUMBER_TO_READ_EXACTLY = /\d[.eE]|\d{16}/;

/** Whether `JSON.parse` reads every number of `text` as `toNumber` does: each a plain integer of 15 digits at most. */
function mayParsePlainly(text: string): boolean {
  return !NUMBER_TO_READ_EXACTLY.test(text);
}

/** Whether `JSON.parse` hands a reviver each value's source text: Node 22+ does, a browser the mock runs in (MSW) may not. */
const sourceTextAccess = JSON.parse('1', (_key, value: unknown, context?: { source?: string }) => context?.source ?? value) === '1';

/** A reviver that reads each number from its source text (Node 22+ hands it over: the JSON.parse source text access proposal). */
function exactNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
  return typeof value === 'number' && context?.source !== undefined ? toNumber(context.source) : value;
}

/**
 * `text` by the engine's own parser, several times faster than lossless-json (which builds each string
 * a character at a time), numbers read as `toNumber` reads them. Throws `SyntaxError` on malformed JSON.
 */
function engineParse(text: string): JsonValue {
  return JSON.parse(text, mayParsePlainly(text) ? undefined : exactNumbers) as JsonValue;
}

/** How many members the objects of a parsed value have, all told: one fewer than written for each key written twice. */
function membersOf(value: JsonValue): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) for (const item of value) count += membersOf(item);
  else
    for (const key in value) {
      count += 1 + membersOf(value[key] as JsonValue);
    }
  return count;
}

/** A JSON object, as the lossless parser gives it. */
export type JsonObject = { [key: string]: JsonValue };

/** Whether a parsed value (or the absence of one) is a JSON object: not an array, not null. */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Serializes a value, writing `bigint` as exact digits. */
export function stringifyJson(value: unknown): string {
  // The engine's own serializer writes plain values exactly as lossless-json does, several times
  // faster; it throws a TypeError on a bigint, which lossless-json then writes as its digits.
  try {
    const text = JSON.stringify(value) as string | undefined;
    if (text !== undefined) return text;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  const text = stringifyLossless(value);
  if (text === undefined) throw new TypeError('value cannot be serialized as JSON');
  return text;
}

/**
 * ajv cannot check a `bigint`, so this returns the same value with each one replaced by a number that
 * keeps what the schema can check: an int64 becomes a safe integer of the same sign, anything beyond
 * int64 becomes an infinity, which fails `type: integer`. Values without bigint come back as they are.
 */
export function validationView(value: JsonValue): unknown {
  if (typeof value === 'bigint') {
    const sign = value < 0n ? -1 : 1;
    return isInt64(value) ? sign * Number.MAX_SAFE_INTEGER : sign * Number.POSITIVE_INFINITY;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (const [i, item] of value.entries()) {
      const seen = validationView(item);
      if (seen !== item) {
        copy ??= value.slice();
        copy[i] = seen;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  // `for...in` over a parsed object's own keys: no array of pairs per body (JSON.parse makes no inherited ones).
  for (const key in value) {
    const item = value[key] as JsonValue;
    const seen = validationView(item);
    if (seen !== item) {
      copy ??= { ...value };
      copy[key] = seen;
    }
  }
  return copy ?? value;
}
