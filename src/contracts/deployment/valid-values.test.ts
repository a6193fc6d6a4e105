import { describe, expect, it } from 'vitest';
import { openapi } from '../../generated/openapi.js';
import { validValues } from './valid-values.js';

const hints = { prefix: 'petstore-verify run 1', accepted: [] };

describe('validValues', () => {
  it('gives every value of an enum, through a $ref', () => {
    expect(validValues(openapi, { $ref: '#/components/schemas/PetStatus' }, hints)).toEqual(['"available"', '"pending"', '"sold"']);
  });

  it('fits a string to its lengths, and gives none when its pattern refuses the run’s text', () => {
    expect(validValues(openapi, { type: 'string', maxLength: 8 }, hints)).toEqual(['"petstore"']);
    expect(validValues(openapi, { type: 'string', minLength: 30 }, hints)).toEqual([`"${'petstore-verify run 1'.padEnd(30, 'x')}"`]);
    expect(validValues(openapi, { type: 'string', pattern: '^[A-Z]{3}$' }, hints)).toEqual([]);
  });

  it('takes an integer the deployment took before, else one within the bounds', () => {
    expect(validValues(openapi, { type: 'integer', format: 'int64' }, { ...hints, accepted: ['9007199254740993'] })).toEqual(['9007199254740993']);
    expect(validValues(openapi, { type: 'integer', minimum: 5, maximum: 9 }, hints)).toEqual(['5']);
  });

  it('builds an object of every property, and an array of its minimum of items', () => {
    expect(validValues(openapi, { type: 'object', required: ['a'], properties: { a: { type: 'boolean' }, b: { type: 'integer' } } }, hints)).toEqual([
      '{"a":true,"b":1}',
    ]);
    expect(validValues(openapi, { type: 'array', items: { type: 'integer' }, minItems: 2 }, hints)).toEqual(['[1,1]']);
  });
});
