import { describe, expect, it } from 'vitest';
import { SpecError } from '../errors.js';
import { openapi } from '../generated/openapi.js';
import { compileSpec } from './ajv.js';
import type { OpenApiDocument } from './document.js';
import { countedUnits } from './faker-sizes.js';

/** The bundled spec with NewPet's name drawn by `hint`. */
function withNameHint(hint: unknown): OpenApiDocument {
  const doc = structuredClone(openapi) as unknown as { components: { schemas: { NewPet: { properties: Record<string, object> } } } };
  doc.components.schemas.NewPet.properties.name = { type: 'string', 'x-faker': hint };
  return doc as unknown as OpenApiDocument;
}

describe('countedUnits', () => {
  it('reads a count by its role: a counting option, a lone number, a number written in a text; a named value counts nothing', () => {
    expect(countedUnits({ 'string.alpha': { length: { min: 2, max: 9 }, casing: 'lower' } })).toEqual([{ at: 'string.alpha(0).length', units: 9 }]);
    expect(countedUnits({ 'lorem.paragraphs': [4, '\n'] })).toEqual([{ at: 'lorem.paragraphs(0)', units: 4 }]);
    expect(countedUnits({ 'helpers.fromRegExp': '[a-z]{3,12}' })).toEqual([{ at: 'helpers.fromRegExp(0)', units: 15 }]);
    expect(countedUnits({ 'system.fileName': { extensionCount: 7 } })).toEqual([{ at: 'system.fileName(0).extensionCount', units: 7 }]);
    expect(countedUnits({ 'number.int': { min: 1, max: 1e12 } })).toEqual([]);
    expect(countedUnits({ 'helpers.arrayElement': [[1e9, 2e9]] })).toEqual([]);
    expect(countedUnits('animal.petName')).toEqual([]);
  });
});

describe('compileSpec and x-faker', () => {
  it('refuses an x-faker that counts more than the create accepts, naming its place, the argument and the limit', () => {
    expect(() => compileSpec(withNameHint({ 'string.alpha': { length: 1e9 } }))).toThrow(
      new SpecError(
        '#/components/schemas/NewPet/properties/name/x-faker asks faker for 1000000000 characters, words or items (string.alpha(0).length 1000000000), more than the 1048576 bytes createPet accepts (x-max-body-bytes): each makes a byte of the record at least, so no client could send one; bound its arguments (a value, not a count, goes in a named option such as { max: N })',
      ),
    );
    expect(compileSpec(withNameHint({ 'string.alpha': { length: 1_000_000 } })).model.name).toBe('Pet');
  });
});
