/**
 * Tools that read spec/openapi.yaml without a server (Dredd, Prism's static mock, documentation
 * renderers) take their values from its examples. Every parameter, request body and response carries
 * one, and each is valid by its own schema: an example the API would refuse teaches a wrong request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/openapi/ajv.js';
import { type JsonSchema, operationsOf, parametersOf, resolve } from '../../src/openapi/document.js';
import { loadSpecFile } from '../../src/openapi/load.js';
import { SCHEMA_BASE } from '../../src/openapi/schemas.js';
import { AUTH } from '../support/http-facts.js';
import { type RunningPrism, startPrism } from '../support/prism.js';

const doc = await loadSpecFile('spec/openapi.yaml');
// Without useDefaults, so that a default cannot make an incomplete example pass.
const ajv = createAjv(doc, { useDefaults: false });

interface Example {
  readonly where: string;
  readonly schema: JsonSchema | undefined;
  readonly example: unknown;
}

function examples(): Example[] {
  const found: Example[] = [];
  for (const { operationId, operation } of operationsOf(doc)) {
    for (const parameter of parametersOf(doc, operation))
      found.push({ where: `${operationId} parameter ${parameter.name}`, schema: parameter.schema, example: (parameter as { example?: unknown }).example });
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
      found.push({ where: `${operationId} request body ${type}`, schema: media.schema, example: (media as { example?: unknown }).example });
    for (const [status, response] of Object.entries(operation.responses))
      for (const [type, media] of Object.entries(resolve(doc, response).content ?? {}))
        found.push({ where: `${operationId} ${status} ${type}`, schema: media.schema, example: (media as { example?: unknown }).example });
  }
  return found;
}

/** The schema with its local `$ref`s pointed at where createAjv registered the components. */
function registered(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${SCHEMA_BASE}components/`));
}

describe('spec/openapi.yaml examples', () => {
  const all = examples();

  it('finds the parameters, bodies and responses of every operation', () => {
    expect(all.length).toBeGreaterThanOrEqual(20);
  });

  it.each(all.map((entry) => [entry.where, entry] as const))('%s has an example valid by its schema', (_where, { schema, example }) => {
    expect(example, 'add an `example` beside the schema').toBeDefined();
    expect(schema).toBeDefined();
    const validate = ajv.compile(registered(schema as JsonSchema));
    expect(validate(example) ? [] : validate.errors).toEqual([]);
  });

  it('an example with an error the schema refuses would fail the check above', () => {
    const validate = ajv.compile(registered({ $ref: '#/components/schemas/Pet' }));
    expect(validate({ id: 1, name: 'Gus', categoryId: 8, status: 'adopted' })).toBe(false);
    expect(validate({ name: 'Gus', categoryId: 8 })).toBe(false);
  });
});

describe("Prism's static mock", () => {
  let prism: RunningPrism;
  beforeAll(async () => {
    prism = await startPrism('mock');
  });
  afterAll(() => prism?.close());

  it('answers the realistic values of the examples rather than placeholder strings', async () => {
    const list = await (await fetch(`${prism.url}/pets`, { headers: AUTH })).json();
    expect(list).toEqual([
      { id: 1, name: 'Gus', categoryId: 8, status: 'available' },
      { id: 2, name: 'Daisy', categoryId: 2, status: 'available' },
    ]);
    const pet = await (await fetch(`${prism.url}/pets/1`, { headers: AUTH })).json();
    expect(pet).toEqual({ id: 1, name: 'Gus', categoryId: 8, status: 'available' });
  });
});
