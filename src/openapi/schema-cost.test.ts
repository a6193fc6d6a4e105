import { describe, expect, it } from 'vitest';
import { openapi } from '../generated/openapi.js';
import type { OpenApiDocument } from './document.js';
import { schemaCostProblems } from './schema-cost.js';

/** The bundled spec with `schemas` added to its components. */
function withSchemas(schemas: Record<string, unknown>): OpenApiDocument {
  const doc = structuredClone(openapi) as unknown as { components: { schemas: Record<string, unknown> } };
  Object.assign(doc.components.schemas, schemas);
  return doc as unknown as OpenApiDocument;
}

/** A pattern of 602 states. */
const BIG = { pattern: '[ab]{600}c' };

describe('schemaCostProblems', () => {
  it('takes the bundled spec, whose strings each meet one pattern of 120 states at most', () => {
    expect(schemaCostProblems(openapi)).toEqual([]);
  });

  it('adds the patterns a string meets at its place (its own, allOf, anyOf, $ref), and takes the worst of the places inside a value', () => {
    // Two members, each at a place of its own: 602 states at the worst place.
    expect(schemaCostProblems(withSchemas({ Big: BIG, Two: { type: 'object', properties: { a: BIG, b: { $ref: '#/components/schemas/Big' } } } }))).toEqual([]);
    // The same string run through its own pattern and a $ref's: 1,204.
    const [same] = schemaCostProblems(withSchemas({ Big: BIG, Both: { ...BIG, allOf: [{ $ref: '#/components/schemas/Big' }] } }));
    expect(same).toMatch(/^a string of Both may be run through patterns of 1204 states in all: /);
    // A member's name meets each name pattern and propertyNames.
    const [names] = schemaCostProblems(withSchemas({ Keys: { type: 'object', propertyNames: BIG, patternProperties: { '[ab]{601}c': {} } } }));
    expect(names).toMatch(/^a string of Keys may be run through patterns of 1205 states in all: /);
  });

  it('counts a schema met again inside itself at the place of the value further in', () => {
    const tree = { type: 'object', properties: { label: BIG, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } };
    expect(schemaCostProblems(withSchemas({ Tree: tree }))).toEqual([]);
  });
});

/** Schemas `L0`…`L{levels}`: each an anyOf of `width` $refs to the next, the last a string. */
function fanOut(levels: number, width: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = { [`L${levels}`]: { type: 'string', maxLength: 20 } };
  for (let level = 0; level < levels; level++)
    schemas[`L${level}`] = { anyOf: Array.from({ length: width }, () => ({ $ref: `#/components/schemas/L${level + 1}` })) };
  return schemas;
}

describe('the schemas a value is checked against at one place', () => {
  it('counts each $ref each time it is reached: ten of ten of ten is refused, ten of ten is not', () => {
    expect(schemaCostProblems(withSchemas(fanOut(2, 10)))).toEqual([]);
    const [refused] = schemaCostProblems(withSchemas(fanOut(3, 10)));
    // Each branch `{ $ref }` is a schema, and so is what it names: L2 is 1 + 10 × 2, L1 1 + 10 × 22, L0 1 + 10 × 222.
    expect(refused).toMatch(
      /^a value of L0 may be checked against 2221 schemas: at its place and at one place inside it, each allOf, anyOf, oneOf and \$ref counted each time it is reached, more than 1000; /,
    );
    // Two million checks a value, six deep: still counted at once, each schema once.
    expect(schemaCostProblems(withSchemas(fanOut(6, 10)))[0]).toMatch(/^a value of L0 may be checked against 2222221 schemas/);
  });

  it('counts the branches of one wide anyOf, and a value further in at its own place', () => {
    const consts = (count: number) => ({ anyOf: Array.from({ length: count }, (_, index) => ({ const: `n${index}` })) });
    expect(schemaCostProblems(withSchemas({ Wide: consts(999) }))).toEqual([]);
    expect(schemaCostProblems(withSchemas({ Wide: consts(20_000) }))[0]).toMatch(
      /^a value of Wide may be checked against 20001 schemas: at its place and at one place inside it/,
    );
    // 600 branches at each of two places, one inside the other: a value of Outer meets both, one of Pair the worst of its two members.
    expect(schemaCostProblems(withSchemas({ Outer: { ...consts(600), properties: { inner: consts(600) } } }))[0]).toMatch(
      /^a value of Outer may be checked against 1202 schemas/,
    );
    expect(schemaCostProblems(withSchemas({ Pair: { type: 'object', properties: { a: consts(600), b: consts(600) } } }))).toEqual([]);
  });
});

describe('the checks of the values at a place that repeats, in one body', () => {
  const consts = (count: number) => ({ anyOf: Array.from({ length: count }, (_, index) => ({ const: index })) });

  it('counts the schemas at a list’s items times the items a body may hold, by their fewest bytes or maxItems', () => {
    // 990 schemas an item, within the 1,000 a place; an item takes a byte and a comma: 2.6 million items in 5 MiB.
    const [refused] = schemaCostProblems(withSchemas({ Tags: { type: 'array', items: consts(990) } }));
    expect(refused).toMatch(
      /^the items or members of a value of Tags may ask for \d+ checks in one body: the schemas at their place times how many may stand there \(maxItems or maxProperties, else as many as 5242880 bytes, the largest body read, may hold\), more than 16777216; give the list a maxItems/,
    );
    expect(schemaCostProblems(withSchemas({ Tags: { type: 'array', maxItems: 100, items: consts(990) } }))).toEqual([]);
    // One schema an item: a body's worth of them is within the bound.
    expect(schemaCostProblems(withSchemas({ Words: { type: 'array', items: { type: 'string' } } }))).toEqual([]);
  });

  it('counts a map’s members as a list’s items, and an item of required fields as taking their bytes', () => {
    expect(schemaCostProblems(withSchemas({ Map: { type: 'object', additionalProperties: consts(990) } }))[0]).toMatch(
      /^the items or members of a value of Map/,
    );
    // An item must hold a long required name: far fewer of them fit in a body.
    const long = { type: 'object', required: ['a'.repeat(2_000)], properties: { ['a'.repeat(2_000)]: consts(990) } };
    expect(schemaCostProblems(withSchemas({ Rows: { type: 'array', items: long } }))).toEqual([]);
  });
});

describe('a schema met again inside itself, and the work of its keywords', () => {
  it('refuses a schema met again through more than one branch at a place: the cost grows that many times a level', () => {
    const self = { $ref: '#/components/schemas/T' };
    const [refused] = schemaCostProblems(withSchemas({ T: { anyOf: Array.from({ length: 10 }, () => ({ type: 'array', items: self })) } }));
    expect(refused).toMatch(/^T is met 10 times again one place further in, each time it is met: /);
    // A tree meets itself once a child: linear in the value.
    expect(schemaCostProblems(withSchemas({ T: { anyOf: [{ type: 'string' }, { type: 'array', items: self }] } }))).toEqual([]);
  });

  it('counts unique items of no scalar type two by two, and the members of an enum and a required list one by one', () => {
    const objects = { type: 'array', uniqueItems: true, items: { type: 'object' } };
    expect(schemaCostProblems(withSchemas({ Sets: objects }))[0]).toMatch(/^the items or members of a value of Sets may ask for \d+ checks in one body/);
    expect(schemaCostProblems(withSchemas({ Sets: { ...objects, maxItems: 1_000 } }))).toEqual([]);
    expect(schemaCostProblems(withSchemas({ Words: { type: 'array', uniqueItems: true, items: { type: 'string' } } }))).toEqual([]);
    const enumItems = { type: 'array', items: { enum: Array.from({ length: 200_000 }, (_, index) => index) } };
    expect(schemaCostProblems(withSchemas({ Codes: enumItems }))[0]).toMatch(/^the items or members of a value of Codes/);
    // A required list is looked through once an item; a valid item holds every name, so few fit in a body
    // (an item that does not stops the check: a validator made at run time stops at the first fault).
    const names = Array.from({ length: 100_000 }, (_, index) => `p${index}`);
    expect(schemaCostProblems(withSchemas({ Rows: { type: 'array', items: { type: 'object', required: names } } }))).toEqual([]);
    const optional = Array.from({ length: 20_000 }, (_, index) => [`p${index}`, {}]);
    const membersItems = { type: 'array', items: { type: 'object', properties: Object.fromEntries(optional) } };
    expect(schemaCostProblems(withSchemas({ Rows: membersItems }))[0]).toMatch(/^the items or members of a value of Rows/);
  });
});
