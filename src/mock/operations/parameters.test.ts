import { describe, expect, it } from 'vitest';
import * as validators from '../../generated/validators.js';
import { validationView } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { operationOfKind } from '../../openapi/resource-model.js';
import { coerceParameter, describeErrors, parseParameters } from './parameters.js';

function problems(body: unknown): string {
  const view = validationView(body as never);
  expect(validators.createPetBody(view)).toBe(false);
  return describeErrors(validators.createPetBody.errors ?? [], body, 'The request body');
}

describe('coerceParameter', () => {
  const integer = { type: 'integer' };

  it('reads plain digits as integers, exactly beyond 2^53', () => {
    expect(coerceParameter('20', integer)).toBe(20);
    expect(coerceParameter('-3', integer)).toBe(-3);
    expect(coerceParameter('9223372036854775807', integer)).toBe(9223372036854775807n);
  });

  it('leaves anything else a string, for the schema to refuse', () => {
    for (const raw of ['1.5', '1e2', '', ' 5', '5 ', '+5', '05', '-05', '00', '-0', '0x10', 'abc']) expect(coerceParameter(raw, integer)).toBe(raw);
    expect(coerceParameter('0', integer)).toBe(0);
    expect(coerceParameter('20', { type: 'string' })).toBe('20');
  });
});

describe('describeErrors', () => {
  it('names each field at fault once, with what it must be', () => {
    expect(problems({ name: null, categoryId: 1.5 })).toBe('name must be a string; categoryId must be an integer');
    expect(problems({})).toBe('name is required; categoryId is required');
    expect(problems({ name: 'Rex', categoryId: 1, status: 'adopted' })).toBe('status must be one of available, pending, sold');
    expect(problems([])).toBe('The request body must be a JSON object');
  });

  it('says int64 for integers beyond its range', () => {
    expect(problems({ name: 'Rex', categoryId: 2n ** 63n })).toBe('categoryId must be an integer from -9223372036854775808 to 9223372036854775807');
  });

  it('says the type, not int64, for a number past int64 where a string goes (red team 9 #5, second half)', () => {
    expect(problems({ name: 10n ** 20n, categoryId: 1 })).toBe('name must be a string');
    expect(problems({ name: 'Rex', categoryId: 1, status: 2n ** 53n + 1n })).toBe('status must be a string');
  });

  it('applies the default status of the spec', () => {
    const body = { name: 'Rex', categoryId: 1 };
    expect(validators.createPetBody(body)).toBe(true);
    expect(body).toEqual({ name: 'Rex', categoryId: 1, status: 'available' });
  });
});

describe('describeErrors for parameters', () => {
  // The spec's own parameters: the range named is the schema's.
  const query = operationOfKind(BUNDLED_MODEL, 'list')?.parameters.filter((parameter) => parameter.in === 'query') ?? [];
  const limit = query.find((parameter) => parameter.name === 'limit')?.schema ?? {};
  const range = `from ${limit.minimum} to ${limit.maximum}`;

  function queryProblems(raw: string): string {
    const values = parseParameters(query, (name) => (name === 'limit' ? raw : null));
    expect(validators.listPetsQuery(validationView(values as never))).toBe(false);
    return describeErrors(validators.listPetsQuery.errors ?? [], values, 'The query');
  }

  it('names the documented range of an integer parameter, whichever check refused it', () => {
    for (const raw of [String(Number(limit.minimum) - 1), String(Number(limit.maximum) + 1), '99999999999999999999', '-9223372036854775809']) {
      expect(queryProblems(raw), raw).toBe(`limit must be an integer ${range}`);
    }
    // A number in another spelling is told how an integer is written.
    for (const raw of ['5.5', '05', '+5', ' 5', '5e0'])
      expect(queryProblems(raw), raw).toBe(
        `limit must be an integer ${range}, written in plain digits (no sign but -, no leading zero, no -0, space, fraction or exponent)`,
      );
  });
});
