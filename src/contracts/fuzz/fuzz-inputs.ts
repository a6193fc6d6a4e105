/**
 * What the fuzz suite sends, derived from the spec (through the `Contract`): createPet's bodies from
 * the schema of its request body, valid and invalid; listPets's queries from the bounds and the enum
 * of its parameters; getPet's ids, of pets known to exist, of none, and not integers at all.
 * Nothing here names a field of the pet store: a change to the spec changes what is generated.
 */
import fc, { type Arbitrary } from 'fast-check';
import { INT64_MAX, INT64_MIN } from '../../json/int64.js';
import { breakages, objectText } from '../body-breakages.js';
import { type Contract, listOf, sizedPage } from '../contract.js';

/** One body for createPet, as the exact JSON text sent. */
export interface BodyInput {
  readonly text: string;
  /** True when the spec's schema accepts it. */
  readonly valid: boolean;
  /** What is wrong with it, for an invalid one: `categoryId a string`. */
  readonly what: string;
  /** Each field sent, as its exact JSON text: what a 201 must echo. */
  readonly fields: Readonly<Record<string, string>>;
}

/** Whether a parameter's value is one the spec allows, one out of its range or enum, or not of its type. */
type ValueKind = 'absent' | 'valid' | 'outside' | 'mistyped';

/** One query for the list: `limit` is its page size's value, `status` its first filter's. */
export interface ListInput {
  readonly query: string;
  readonly limit: { readonly kind: ValueKind; readonly value?: number };
  readonly status: { readonly kind: ValueKind; readonly value?: string };
}

/**
 * One id for getPet: an index into the pets known to exist (those the sequence created, when
 * `created` and it created some, else those listed at the start), an id no pet is likely to have,
 * or a text no int64 is.
 */
export type ReadInput =
  | { readonly kind: 'known'; readonly created: boolean; readonly index: number }
  | { readonly kind: 'absent'; readonly edge: 'beyond' | 'zero' | 'negative' | 'max' | 'min'; readonly offset: bigint }
  | { readonly kind: 'malformed'; readonly form: MalformedForm; readonly index: number };

/** Texts other than an id's digits that a lenient parser (`parseInt`, `Number`) reads as that id; those that denote the id itself (a sign, a space, an exponent of zero) may be served as it. */
const MALFORMED_FORMS = ['trailing text', 'fraction', 'exponent', 'plus sign', 'space before', 'no digits'] as const;
export type MalformedForm = (typeof MALFORMED_FORMS)[number];

/** The malformed id of a form, made from a known id. */
export function malformedId(form: MalformedForm, id: string): string {
  switch (form) {
    case 'trailing text':
      return `${id}abc`;
    case 'fraction':
      return `${id}.5`;
    case 'exponent':
      return `${id}e0`;
    case 'plus sign':
      return `+${id}`;
    case 'space before':
      return ` ${id}`;
    case 'no digits':
      return 'abc';
  }
}

type BodyShape = ReturnType<Contract['body']>;
type PropertyShape = BodyShape['properties'][string];

/** A field's exact JSON text for each kind of property the schema gives: what a valid body may hold there. */
function validValue(property: PropertyShape, known: readonly string[], prefix: string): Arbitrary<string> {
  if (property.enum !== undefined) return fc.constantFrom(...property.enum.map((value) => JSON.stringify(value)));
  if (property.type === 'integer') {
    const min = property.format === 'int64' ? INT64_MIN : BigInt(Number.MIN_SAFE_INTEGER);
    const max = property.format === 'int64' ? INT64_MAX : BigInt(Number.MAX_SAFE_INTEGER);
    // Mostly values the deployment is known to take (a deployment may refuse those it does not know), sometimes any.
    const any = fc.bigInt({ min, max }).map(String);
    return known.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, { arbitrary: any, weight: 1 }) : any;
  }
  if (property.type === 'boolean') return fc.constantFrom('true', 'false');
  if (property.type === 'number') return fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n));
  // A free string: named for the run, so that a shared staging can find what the run created; any grapheme after it,
  // within the schema's lengths, which count code points (JSON Schema 2020-12 §6.3).
  const max = property.maxLength ?? Number.POSITIVE_INFINITY;
  const min = property.minLength ?? 0;
  return fc.string({ unit: 'grapheme', maxLength: 6 }).map((suffix) => JSON.stringify([...`${prefix} ${suffix}`].slice(0, max).join('').padEnd(min, 'x')));
}

/** The fields of a valid body: every required one, each optional one or not. */
function validFields(shape: BodyShape, known: (field: string) => readonly string[], prefix: string): Arbitrary<Record<string, string>> {
  const entries = Object.entries(shape.properties).map(([field, property]) => {
    const value = validValue(property, known(field), prefix);
    return [field, shape.required.includes(field) ? value : fc.option(value, { nil: undefined })] as const;
  });
  return fc
    .record(Object.fromEntries(entries))
    .map((fields) => Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined)));
}

/** Bodies for an operation's JSON request body: valid ones, and each valid one broken one way. */
export function bodyInputs(
  contract: Contract,
  operationId: string,
  known: (field: string) => readonly string[],
  prefix: string,
): { valid: Arbitrary<BodyInput>; invalid: Arbitrary<BodyInput> } {
  const shape = contract.body(operationId);
  const fields = validFields(shape, known, prefix);
  return {
    valid: fields.map((sent) => ({ text: objectText(sent), valid: true, what: 'a valid body', fields: sent })),
    invalid: fc
      .tuple(fields, fc.constantFrom(...breakages(shape)))
      .map(([sent, breakage]) => ({ text: breakage.apply(sent), valid: false, what: breakage.what, fields: sent })),
  };
}

/**
 * Queries for the list: its page size absent, within its bounds, beyond them or not an integer; its
 * first filter absent, in its enum, or outside it (the parameters named as the spec names them).
 */
export function listInputs(contract: Contract): Arbitrary<ListInput> {
  const list = listOf(contract);
  const { minimum, maximum } = list.pageSize;
  const filter = list.filters[0];
  const values = (filter?.values ?? []).map(String);
  const limit = fc.oneof(
    { arbitrary: fc.constant({ kind: 'absent' as const }), weight: 2 },
    { arbitrary: fc.integer({ min: minimum, max: maximum }).map((value) => ({ kind: 'valid' as const, value })), weight: 4 },
    { arbitrary: fc.constantFrom(minimum - 1, minimum - 2, maximum + 1, maximum * 10).map((value) => ({ kind: 'outside' as const, value })), weight: 1 },
    { arbitrary: fc.constant({ kind: 'mistyped' as const }), weight: 1 },
  );
  const absent = fc.constant({ kind: 'absent' as const });
  const status: Arbitrary<ListInput['status']> =
    values[0] === undefined
      ? absent
      : fc.oneof(
          { arbitrary: absent, weight: 3 },
          { arbitrary: fc.constantFrom(...values).map((value) => ({ kind: 'valid' as const, value })), weight: 3 },
          { arbitrary: fc.constantFrom(values[0].toUpperCase(), 'petstore-verify-unknown').map((value) => ({ kind: 'outside' as const, value })), weight: 1 },
        );
  return fc.record({ limit, status }).map(({ limit: l, status: s }) => {
    const parts: string[] = [];
    if (l.kind === 'valid' || l.kind === 'outside') parts.push(sizedPage(list, l.value));
    if (l.kind === 'mistyped') parts.push(sizedPage(list, '1.5'));
    if (filter !== undefined && s.kind !== 'absent' && s.value !== undefined) parts.push(`${filter.parameter}=${encodeURIComponent(s.value)}`);
    return { query: parts.join('&'), limit: l, status: s };
  });
}

/** Ids for getPet: mostly pets known to exist, then absent ones and texts that are no int64. */
export function readInputs(): Arbitrary<ReadInput> {
  return fc.oneof(
    {
      arbitrary: fc
        .record({ created: fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, fc.constant(false)), index: fc.nat() })
        .map(({ created, index }) => ({ kind: 'known' as const, created, index })),
      weight: 3,
    },
    {
      arbitrary: fc
        .record({
          edge: fc.constantFrom('beyond' as const, 'zero' as const, 'negative' as const, 'max' as const, 'min' as const),
          offset: fc.bigInt({ min: 0n, max: 1000n }),
        })
        .map(({ edge, offset }) => ({ kind: 'absent' as const, edge, offset })),
      weight: 1,
    },
    {
      arbitrary: fc
        .record({ form: fc.constantFrom(...MALFORMED_FORMS), index: fc.nat() })
        .map(({ form, index }) => ({ kind: 'malformed' as const, form, index })),
      weight: 1,
    },
  );
}
