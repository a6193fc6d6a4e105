/**
 * The JSON fixtures in fixtures/, for test suites in any language: the pets the mock starts with,
 * example NewPets that follow them, and one Error body per status the spec's catalogue names. Read
 * from the document being generated, never from the generated copy of the last one, so that one
 * `npm run generate` after a spec edit brings every file in step.
 */
import { createFaker, DEFAULT_COUNT, DEFAULT_SEED, drawNewPet, drawPets } from '../src/fixtures/seed.js';
import { compiledValidators } from '../src/openapi/ajv.js';
import type { OpenApiDocument } from '../src/openapi/document.js';
import { type ResourceModel, readResourceModel } from '../src/openapi/resource-model.js';

/** How many example NewPets fixtures/new-pets.json holds. */
const NEW_PET_EXAMPLES = 10;

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The first code of each status in the spec's catalogue, as the mock's Error body of that code. */
function errorsByStatus(model: ResourceModel): Record<string, unknown> {
  const errors: Record<string, unknown> = {};
  const codes = Object.entries(model.errorCodes);
  for (const [code, { status, description }] of codes.sort(([, a], [, b]) => a.status - b.status)) {
    errors[status] ??= { code, message: description, status };
  }
  return errors;
}

/** Every fixture file of `doc`, by path relative to the repository root. */
export function fixtureFiles(doc: OpenApiDocument): Record<string, string> {
  const model = readResourceModel(doc, compiledValidators(doc));
  const fields = model.fields.filter((field) => field.writable);
  const faker = createFaker(DEFAULT_SEED);
  const pets = drawPets(faker, DEFAULT_COUNT, fields);
  return {
    'fixtures/pets.json': json(pets),
    'fixtures/new-pets.json': json(Array.from({ length: NEW_PET_EXAMPLES }, () => drawNewPet(faker, fields))),
    'fixtures/errors.json': json(errorsByStatus(model)),
  };
}
