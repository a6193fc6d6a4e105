/**
 * The JSON fixtures in fixtures/, for test suites in any language: the pets the mock starts with,
 * example NewPets that follow them, and one Error body per status the spec's catalogue names. Read
 * from the document being generated, never from the generated copy of the last one, so that one
 * `npm run generate` after a spec edit brings every file in step.
 */
import type { Faker } from '@faker-js/faker';
import { createFaker, drawNewPet, drawPets } from '../src/fixtures/seed.js';
import { DEFAULT_COUNT, DEFAULT_SEED } from '../src/fixtures/seeding.js';
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

/** The spec's model, and what its create draws for the default seed: the seeded pets, and the faker that drew them (what it draws next follows them). */
interface DefaultSeed {
  readonly model: ResourceModel;
  readonly pets: readonly unknown[];
  readonly faker: Faker;
}

/** The default seed's pets of `doc`, each field drawn from its schema, pet names from `names`. */
export function defaultSeedOf(doc: OpenApiDocument, names: readonly string[]): DefaultSeed {
  const model = readResourceModel(doc, compiledValidators(doc));
  const faker = createFaker(DEFAULT_SEED, names);
  return { model, faker, pets: drawPets(faker, DEFAULT_COUNT, writableFields(model)) };
}

function writableFields(model: ResourceModel) {
  return model.fields.filter((field) => field.writable);
}

/** Every fixture file of the default seed, by path relative to the repository root. */
export function fixtureFiles({ model, pets, faker }: DefaultSeed): Record<string, string> {
  const fields = writableFields(model);
  return {
    'fixtures/pets.json': json(pets),
    'fixtures/new-pets.json': json(Array.from({ length: NEW_PET_EXAMPLES }, () => drawNewPet(faker, fields))),
    'fixtures/errors.json': json(errorsByStatus(model)),
  };
}
