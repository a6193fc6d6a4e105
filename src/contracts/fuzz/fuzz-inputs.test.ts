import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { openapi } from '../../generated/openapi.js';
import { createPetBody, listPetsQuery } from '../../generated/validators.js';
import { parseJson, validationView } from '../../json/lossless.js';
import { compileSpec } from '../../openapi/ajv.js';
import type { OpenApiDocument } from '../../openapi/document.js';
import { breakages } from '../body-breakages.js';
import { type Contract, loadContract } from '../contract.js';
import { bodyInputs, listInputs } from './fuzz-inputs.js';

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract();
});

/** A body as the spec's own validator sees it, or undefined when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return validationView(parseJson(text));
  } catch {
    return undefined;
  }
}

describe('the fuzz suite inputs, derived from the spec', () => {
  it('makes valid bodies the schema accepts, named for the run', () => {
    const { valid } = bodyInputs(contract, 'createPet', () => ['3'], 'petstore-verify abcd fuzz');
    for (const body of fc.sample(valid, { numRuns: 300, seed: 1 })) {
      expect(createPetBody(parsed(body.text)), body.text).toBe(true);
      expect(JSON.parse(body.text).name).toMatch(/^petstore-verify abcd fuzz /);
    }
  });

  it("keeps a free string within its schema's lengths: a spec whose name is at most 20 characters gets valid bodies only", async () => {
    const doc = structuredClone(openapi) as unknown as { components: { schemas: { NewPet: { properties: { name: Record<string, unknown> } } } } };
    Object.assign(doc.components.schemas.NewPet.properties.name, { minLength: 12, maxLength: 20 });
    const spec = compileSpec(doc as unknown as OpenApiDocument);
    const validate = spec.validators('createPetBody');
    const { valid } = bodyInputs(await loadContract(spec), 'createPet', () => ['3'], 'petstore-verify abcd fuzz');
    for (const body of fc.sample(valid, { numRuns: 300, seed: 3 })) expect(validate?.(parsed(body.text)), body.text).toBe(true);
  });

  it('makes invalid bodies the schema rejects, each breaking one rule', () => {
    const { invalid } = bodyInputs(contract, 'createPet', () => ['3'], 'petstore-verify abcd fuzz');
    for (const body of fc.sample(invalid, { numRuns: 300, seed: 1 })) {
      const value = parsed(body.text);
      if (value !== undefined) expect(createPetBody(structuredClone(value)), `${body.what}: ${body.text}`).toBe(false);
    }
  });

  it('breaks every field the schema names, both ways for required ones', () => {
    const whats = breakages(contract.body('createPet')).map((breakage) => breakage.what);
    for (const field of contract.body('createPet').required) expect(whats).toEqual(expect.arrayContaining([`${field} missing`, `${field} null`]));
    expect(whats).toEqual(
      expect.arrayContaining(['categoryId a string of digits', 'categoryId true', 'categoryId fractional', 'name a number', 'status "AVAILABLE"']),
    );
  });

  it('makes queries whose kind says what the spec says of them', () => {
    for (const input of fc.sample(listInputs(contract), { numRuns: 300, seed: 2 })) {
      // As the mock reads a query: integers as numbers, anything else as the text sent.
      const query = Object.fromEntries([...new URLSearchParams(input.query)].map(([name, value]) => [name, /^-?\d+$/.test(value) ? Number(value) : value]));
      const validKinds = ['absent', 'valid'];
      const expected = validKinds.includes(input.limit.kind) && validKinds.includes(input.status.kind);
      expect(listPetsQuery(query), input.query).toBe(expected);
    }
  });
});
