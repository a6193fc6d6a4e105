/**
 * What spec/openapi.yaml derives: the document as a typed module, TypeScript types of its schemas,
 * precompiled ajv validators, and the JSON fixtures, by path. `scripts/generate.ts` writes them.
 */
import { fileURLToPath } from 'node:url';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import { _, Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import openapiTS, { astToString } from 'openapi-typescript';
import { createAjv } from '../src/openapi/ajv.js';
import { type JsonSchema, type OpenApiDocument, operationsOf, parametersOf, resolve } from '../src/openapi/document.js';
import { loadSpecFile } from '../src/openapi/load.js';
import { hasFilledDefault, validatorSchemas } from '../src/openapi/schemas.js';
import { PROFILE_SCHEMA } from '../src/profile/profile.js';
import { defaultSeedOf, fixtureFiles } from './fixture-files.js';

export const root = new URL('../', import.meta.url);
const specPath = fileURLToPath(new URL('spec/openapi.yaml', root));
const HEADER = '// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.\n';

async function documentModule(doc: OpenApiDocument): Promise<string> {
  return `${HEADER}import type { OpenApiDocument } from '../openapi/document.js';

const document = ${JSON.stringify(doc, null, 2)} as const;

/** spec/openapi.yaml, with literal types. */
export const openapi = document satisfies OpenApiDocument;
`;
}

async function typesModule(doc: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(doc as never, { exportType: true, defaultNonNullable: false });
  return HEADER + astToString(ast);
}

/** The names of an object schema's properties that carry a default, which ajv fills in (`useDefaults`). */
function defaultedProperties(doc: OpenApiDocument, schema: JsonSchema | undefined): string[] {
  if (schema === undefined) return [];
  const { properties } = resolve<JsonSchema>(doc, schema);
  if (typeof properties !== 'object' || properties === null) return [];
  return Object.entries(properties)
    .filter(([, property]) => typeof property === 'object' && property !== null && hasFilledDefault(property))
    .map(([name]) => name);
}

/** The TypeScript type a validator guards, as it stands once ajv has filled in the defaults of `keys`. */
function guarded(type: string, keys: readonly string[]): string {
  return keys.length === 0 ? type : `Defaulted<${type}, ${keys.map((key) => JSON.stringify(key)).join(' | ')}>`;
}

/**
 * Each validator's name with the type it guards, read from the same document as `validatorSchemas`, so
 * that a value past a validator is typed by the spec with no cast: `listPetsQuery` guards
 * `{ limit: number; status?: PetStatus }`, the limit present because ajv filled in its default.
 */
function validatorTypes(doc: OpenApiDocument): Map<string, string> {
  const types = new Map<string, string>();
  for (const name of Object.keys(doc.components?.schemas ?? {})) types.set(name, `components['schemas'][${JSON.stringify(name)}]`);
  for (const { operationId, operation } of operationsOf(doc)) {
    const of = `operations[${JSON.stringify(operationId)}]`;
    const parameters = parametersOf(doc, operation);
    for (const [location, suffix] of [
      ['query', 'Query'],
      ['path', 'Path'],
    ] as const) {
      const defaulted = parameters.filter((p) => p.in === location && 'default' in p.schema).map((p) => p.name);
      types.set(operationId + suffix, guarded(`NonNullable<${of}['parameters'][${JSON.stringify(location)}]>`, defaulted));
    }
    const body = operation.requestBody?.content['application/json']?.schema;
    types.set(`${operationId}Body`, guarded(`NonNullable<${of}['requestBody']>['content']['application/json']`, defaultedProperties(doc, body)));
    for (const status of Object.keys(operation.responses)) {
      types.set(`${operationId}${status}`, `${of}['responses'][${status}]['content']['application/json']`);
      // Header names as HTTP reads them, in lower case; the spec's types keep the case it writes.
      types.set(`${operationId}${status}Headers`, 'Readonly<Record<string, string>>');
    }
  }
  return types;
}

/** `name`: each operation's validators of one part of its responses (`` or `Headers`) by status, looked up by typed keys. */
function byStatusSource(doc: OpenApiDocument, names: ReadonlySet<string>, name: string, suffix: '' | 'Headers'): string {
  const entries = operationsOf(doc).map(({ operationId, operation }) => {
    const statuses = Object.keys(operation.responses).filter((status) => names.has(`${operationId}${status}${suffix}`));
    return `  [${JSON.stringify(operationId)}, new Map([${statuses.map((status) => `[${status}, ${operationId}${status}${suffix}]`).join(', ')}])],`;
  });
  return `export const ${name} = new Map([\n${entries.join('\n')}\n]);\n`;
}

/**
 * ajv's standalone code `require`s the runtime helpers it uses (`ucs2length` for any `maxLength` or
 * `minLength`, `equal` for an `enum` of objects...) even when asked for an ES module
 * (ajv-validator/ajv#2209), and an ES module has no `require`: each becomes an import of the same
 * CommonJS file. Its default import is its `module.exports` in Node, but the helper itself where a
 * bundler or vitest reads the file's `__esModule` flag: either way the code gets `{ default: helper }`,
 * the `require()` it was written for.
 */
export function importRuntimeHelpers(code: string): string {
  const helpers = new Map<string, string>();
  const body = code.replace(/require\("(ajv\/dist\/runtime\/[\w.-]+)"\)/g, (_match, path: string) => {
    const name = helpers.get(path) ?? `ajvRuntime${helpers.size}`;
    helpers.set(path, name);
    return name;
  });
  if (/\brequire\(/.test(body))
    throw new Error('scripts/generated-files.ts: ajv emitted a require() that is not of its runtime; the validators would not load as an ES module');
  const imports = [...helpers].map(
    ([path, name]) => `import ${name}Import from '${path}.js';\nconst ${name} = { default: ${name}Import.default ?? ${name}Import };\n`,
  );
  return imports.join('') + body;
}

/** The validators of `doc` as an ES module and its declarations; the module imports `formats` from `formatsFrom`. */
export function validatorModules(doc: OpenApiDocument, formatsFrom = '../json/int64.js'): { js: string; dts: string } {
  const ajv = createAjv(doc, { code: { source: true, esm: true, formats: _`formats`, lines: true } });
  const schemas = validatorSchemas(doc);
  const ids: Record<string, string> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema(schema);
    ids[name] = schema.$id as string;
  }
  const names = new Set(Object.keys(ids));
  const types = validatorTypes(doc);
  const js = `${HEADER}import { formats } from '${formatsFrom}';\n${importRuntimeHelpers(standalone.default(ajv, ids))}\n${byStatusSource(doc, names, 'responseValidators', '')}${byStatusSource(doc, names, 'headerValidators', 'Headers')}`;
  const declarations = [...names].map((name) => {
    const type = types.get(name);
    if (type === undefined) throw new Error(`scripts/generated-files.ts: no type for the validator ${name}`);
    return `export declare const ${name}: ValidateFunction<${type}>;`;
  });
  const dts = `${HEADER}import type { ValidateFunction } from 'ajv';
import type { components, operations } from './spec-types.js';

/** \`T\` as ajv leaves it once it has filled in the schema's defaults: the properties \`K\` are there. */
type Defaulted<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };

${declarations.join('\n')}

/** Each operation's response validators, by status: every status whose answer has a JSON body. */
export declare const responseValidators: ReadonlyMap<keyof operations, ReadonlyMap<number, ValidateFunction<unknown>>>;

/** Each operation's validators of the headers its responses document, by status, over lower-case names. */
export declare const headerValidators: ReadonlyMap<keyof operations, ReadonlyMap<number, ValidateFunction<Readonly<Record<string, string>>>>>;
`;
  return { js, dts };
}

/**
 * The validator of a profile document (`readProfile`), compiled from `PROFILE_SCHEMA` with the options
 * `readProfile` needs (strict; the first error only), so that no JSON Schema compiler runs, or is
 * bundled, where a profile is read. ajv's standalone code requires its `ucs2length` (a string's length
 * in code points, for `maxLength`), which an ES module cannot: it is written out in place.
 */
function profileValidatorModules(): { js: string; dts: string } {
  const ajv = new Ajv2020({ strict: true, code: { source: true, esm: true, lines: true } });
  const code = standalone
    .default(ajv, ajv.compile(PROFILE_SCHEMA))
    .replace('require("ajv/dist/runtime/ucs2length").default', '(text) => { let length = 0; for (const _ of text) length++; return length; }');
  if (code.includes('require('))
    throw new Error("scripts/generated-files.ts: the profile validator requires another of ajv's runtime functions: write it out too");
  return {
    js: `// Generated from PROFILE_SCHEMA (src/profile/profile.ts) by \`npm run generate\`. Do not edit.\n${code}\n`,
    dts: `// Generated from PROFILE_SCHEMA (src/profile/profile.ts) by \`npm run generate\`. Do not edit.
import type { ValidateFunction } from 'ajv';

/** Whether a value is a profile document by PROFILE_SCHEMA; its first fault in \`errors\` when not. */
export declare const validate: ValidateFunction<unknown>;
`,
  };
}

/**
 * The pets of the default seed and count, drawn by faker here, once, so that a mock with the defaults
 * starts without faker (src/fixtures/seeding.ts): a browser build of `petstore-mock/msw` leaves it out.
 */
function defaultPetsModule(pets: readonly unknown[]): string {
  return `// Generated by \`npm run generate\`: seededPets(DEFAULT_SEED, DEFAULT_COUNT), drawn by faker from the spec's statuses. Do not edit.
import type { components } from './spec-types.js';

/** The pets a mock with the default seed and count starts with, in id order. */
export const defaultPets: readonly Required<components['schemas']['Pet']>[] = ${JSON.stringify(pets, null, 2)};
`;
}

/** The pet names of faker's English locale, which seeded and built pets draw from (src/fixtures/seed.ts), without the rest of its data. */
function petNamesModule(names: readonly string[]): string {
  return `// Generated by \`npm run generate\` from @faker-js/faker's English locale: the names faker.animal.petName() draws from. Do not edit.

/** The pet names a seeded or built pet draws from, in faker's order: the same seed gives the same names. */
export const petNames: readonly string[] = ${JSON.stringify(names, null, 2)};
`;
}

/** Every generated file, by path relative to the repository root, as the spec gives it now (or another spec file, such as a copy under test). */
export async function generatedFiles(spec = specPath): Promise<Record<string, string>> {
  const doc = await loadSpecFile(spec);
  const validators = validatorModules(doc);
  const profile = profileValidatorModules();
  // Drawn with the names from faker itself, not the list written before: one run writes every file in step.
  const names = englishFaker.rawDefinitions.animal?.pet_name ?? [];
  const seed = defaultSeedOf(doc, names);
  return {
    'src/generated/openapi.ts': await documentModule(doc),
    'src/generated/spec-types.ts': await typesModule(doc),
    'src/generated/validators.js': validators.js,
    'src/generated/validators.d.ts': validators.dts,
    'src/generated/pet-names.ts': petNamesModule(names),
    'src/generated/default-pets.ts': defaultPetsModule(seed.pets),
    'src/generated/profile-validator.js': profile.js,
    'src/generated/profile-validator.d.ts': profile.dts,
    ...fixtureFiles(seed),
  };
}
