/**
 * The JSON fixtures in fixtures/, for test suites in any language: the pets the mock starts with,
 * example NewPets that follow them, and one Error body per status the spec's catalogue names.
 */
import { drawNewPet, fakerAfterSeededPets } from '../src/fixtures/seed.js';
import { DEFAULT_COUNT, DEFAULT_SEED } from '../src/fixtures/seeding.js';
import { errorResponse } from '../src/mock/core/messages.js';
import { ERROR_CODE_BY_STATUS, ERROR_CODES } from '../src/openapi/facts.js';

/** How many example NewPets fixtures/new-pets.json holds. */
const NEW_PET_EXAMPLES = 10;

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The first code of each status in the spec's catalogue, made by the mock's own error function. */
function errorsByStatus(): Record<string, unknown> {
  const errors: Record<string, unknown> = {};
  for (const [status, code] of [...ERROR_CODE_BY_STATUS].sort(([a], [b]) => a - b)) {
    errors[status] = JSON.parse(errorResponse(code, ERROR_CODES[code].description).body);
  }
  return errors;
}

/**
 * Every fixture file, by path relative to the repository root: `pets` are the default seed's, and the
 * examples of new pets are drawn after them with the same pet `names`.
 */
export function fixtureFiles(pets: readonly unknown[], names: readonly string[]): Record<string, string> {
  const faker = fakerAfterSeededPets(DEFAULT_SEED, DEFAULT_COUNT, names);
  return {
    'fixtures/pets.json': json(pets),
    'fixtures/new-pets.json': json(Array.from({ length: NEW_PET_EXAMPLES }, () => drawNewPet(faker))),
    'fixtures/errors.json': json(errorsByStatus()),
  };
}
