import { describe, expect, it } from 'vitest';
import { openapi } from '../generated/openapi.js';
import type { OpenApiDocument } from './document.js';
import { patternCostProblems } from './pattern-cost.js';

/** The bundled spec with `schemas` added to its components. */
function withSchemas(schemas: Record<string, unknown>): OpenApiDocument {
  const doc = structuredClone(openapi) as unknown as { components: { schemas: Record<string, unknown> } };
  Object.assign(doc.components.schemas, schemas);
  return doc as unknown as OpenApiDocument;
}

/** A pattern of 602 states. */
const BIG = { pattern: '[ab]{600}c' };

describe('patternCostProblems', () => {
  it('takes the bundled spec, whose strings each meet one pattern of 120 states at most', () => {
    expect(patternCostProblems(openapi)).toEqual([]);
  });

  it('adds the patterns a string meets at its place (its own, allOf, anyOf, $ref), and takes the worst of the places inside a value', () => {
    // Two members, each at a place of its own: 602 states at the worst place.
    expect(patternCostProblems(withSchemas({ Big: BIG, Two: { type: 'object', properties: { a: BIG, b: { $ref: '#/components/schemas/Big' } } } }))).toEqual(
      [],
    );
    // The same string run through its own pattern and a $ref's: 1,204.
    const [same] = patternCostProblems(withSchemas({ Big: BIG, Both: { ...BIG, allOf: [{ $ref: '#/components/schemas/Big' }] } }));
    expect(same).toMatch(/^a string of Both may be run through patterns of 1204 states in all: /);
    // A member's name meets each name pattern and propertyNames.
    const [names] = patternCostProblems(withSchemas({ Keys: { type: 'object', propertyNames: BIG, patternProperties: { '[ab]{601}c': {} } } }));
    expect(names).toMatch(/^a string of Keys may be run through patterns of 1205 states in all: /);
  });

  it('counts a schema met again inside itself at the place of the value further in', () => {
    const tree = { type: 'object', properties: { label: BIG, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } };
    expect(patternCostProblems(withSchemas({ Tree: tree }))).toEqual([]);
  });
});
