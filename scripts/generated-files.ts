/**
 * What spec/openapi.yaml derives: the document as a typed module, TypeScript types of its schemas,
 * precompiled ajv validators, and the JSON fixtures, by path. `scripts/generate.ts` writes them.
 */
import { fileURLToPath } from 'node:url';
import { _ } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import openapiTS, { astToString } from 'openapi-typescript';
import { createAjv } from '../src/spec/ajv.js';
import type { OpenApiDocument } from '../src/spec/document.js';
import { loadSpecFile } from '../src/spec/load.js';
import { validatorSchemas } from '../src/spec/schemas.js';
import { fixtureFiles } from './fixture-files.js';

export const root = new URL('../', import.meta.url);
const specPath = fileURLToPath(new URL('spec/openapi.yaml', root));
const HEADER = '// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.\n';

async function documentModule(doc: OpenApiDocument): Promise<string> {
  return `${HEADER}import type { OpenApiDocument } from '../spec/document.js';

const document = ${JSON.stringify(doc, null, 2)} as const;

/** spec/openapi.yaml, with literal types. */
export const openapi = document satisfies OpenApiDocument;
`;
}

async function typesModule(doc: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(doc as never, { exportType: true, defaultNonNullable: false });
  return HEADER + astToString(ast);
}

function validatorModules(doc: OpenApiDocument): { js: string; dts: string } {
  const ajv = createAjv(doc, { code: { source: true, esm: true, formats: _`formats`, lines: true } });
  const schemas = validatorSchemas(doc);
  const ids: Record<string, string> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema(schema);
    ids[name] = schema.$id as string;
  }
  const js = `${HEADER}import { formats } from '../json/int64.js';\n${standalone.default(ajv, ids)}\n`;
  const dts = `${HEADER}import type { ValidateFunction } from 'ajv';\n\n${Object.keys(ids)
    .map((name) => `export declare const ${name}: ValidateFunction;`)
    .join('\n')}\n`;
  return { js, dts };
}

/** Every generated file, by path relative to the repository root, as the spec gives it now. */
export async function generatedFiles(): Promise<Record<string, string>> {
  const doc = await loadSpecFile(specPath);
  const validators = validatorModules(doc);
  return {
    'src/generated/openapi.ts': await documentModule(doc),
    'src/generated/types.ts': await typesModule(doc),
    'src/generated/validators.js': validators.js,
    'src/generated/validators.d.ts': validators.dts,
    ...fixtureFiles(),
  };
}
