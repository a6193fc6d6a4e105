/**
 * The generated validators of a spec other than the bundled one load as an ES module, whatever
 * keywords it uses: a `maxLength` once made ajv emit a `require()` that no ES module can run.
 */
import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { defaultSeedOf, fixtureFiles } from '../../scripts/fixture-files.js';
import { importRuntimeHelpers, root, validatorModules } from '../../scripts/generated-files.js';
import { petNames } from '../../src/generated/pet-names.js';
import { compiledValidators } from '../../src/openapi/ajv.js';
import { VARIANT_TAG_MAX_LENGTH, variantSpec } from '../support/variant-spec.js';

it("imports ajv's runtime helpers in place of its require(), and refuses a require() of anything else", () => {
  const code = importRuntimeHelpers(
    '"use strict";\nconst func2 = require("ajv/dist/runtime/ucs2length").default;\nconst func3 = require("ajv/dist/runtime/ucs2length").default;',
  );
  expect(code).toBe(
    [
      "import ajvRuntime0Import from 'ajv/dist/runtime/ucs2length.js';",
      'const ajvRuntime0 = { default: ajvRuntime0Import.default ?? ajvRuntime0Import };',
      '"use strict";',
      'const func2 = ajvRuntime0.default;',
      'const func3 = ajvRuntime0.default;',
    ].join('\n'),
  );
  expect(() => importRuntimeHelpers('const fs = require("node:fs");')).toThrow(/a require\(\) that is not of its runtime/);
});

it('generates validators for a spec with a maxLength that Node imports as an ES module, and they count code points', async () => {
  // The module imports the formats from the sources (Node strips their types), and ajv as a package: from inside node_modules.
  const { js } = validatorModules(variantSpec(), pathToFileURL(join(root.pathname, 'src/json/int64.ts')).href);
  const file = join(root.pathname, 'node_modules', '.petstore-variant-validators.mjs');
  await writeFile(file, js);
  try {
    const script = `
      const v = await import(${JSON.stringify(pathToFileURL(file).href)});
      const pet = (tag) => ({ name: 'Rex', categoryId: 1, tag });
      console.log(JSON.stringify([v.createPetBody(pet('x'.repeat(${VARIANT_TAG_MAX_LENGTH}))), v.createPetBody(pet('x'.repeat(${VARIANT_TAG_MAX_LENGTH + 1}))), v.createPetBody(pet('🐕'.repeat(${VARIANT_TAG_MAX_LENGTH})))]));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    // 32 dogs are 64 UTF-16 units but 32 code points, which is what JSON Schema counts.
    expect(JSON.parse(out)).toEqual([true, false, true]);
    // And where the CommonJS helper's default import is the helper itself, as vitest and bundlers read the
    // module (src/generated/validators.js, bundled or under test): beside the sources, not a package's.
    const inSources = join(root.pathname, 'src', 'generated', '.variant-validators.tmp.js');
    await writeFile(inSources, js);
    try {
      const inVitest = (await import(pathToFileURL(inSources).href)) as Record<string, (value: unknown) => boolean>;
      const pet = (tag: string) => ({ name: 'Rex', categoryId: 1, tag });
      const answers = [
        inVitest.createPetBody?.(pet('x'.repeat(VARIANT_TAG_MAX_LENGTH))),
        inVitest.createPetBody?.(pet('x'.repeat(VARIANT_TAG_MAX_LENGTH + 1))),
      ];
      expect(answers).toEqual([true, false]);
    } finally {
      await rm(inSources, { force: true });
    }
  } finally {
    await rm(file, { force: true });
  }
});

it("draws the variant's new field in the seeded pets and the fixtures with no code, each value valid by the variant's schema", () => {
  const doc = variantSpec();
  const validate = compiledValidators(doc);
  const files = fixtureFiles(defaultSeedOf(doc, petNames));
  const pets = JSON.parse(files['fixtures/pets.json'] ?? '[]') as { tag?: string }[];
  const newPets = JSON.parse(files['fixtures/new-pets.json'] ?? '[]') as { tag?: string }[];
  expect(pets.length).toBeGreaterThan(0);
  for (const pet of pets) expect(validate('Pet')?.(pet), JSON.stringify(pet)).toBe(true);
  for (const newPet of newPets) expect(validate('NewPet')?.(newPet), JSON.stringify(newPet)).toBe(true);
  expect([...pets, ...newPets].every((pet) => typeof pet.tag === 'string' && pet.tag.length <= VARIANT_TAG_MAX_LENGTH)).toBe(true);
});
