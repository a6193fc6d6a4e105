import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import { formats } from '../json/int64.js';
import type { OpenApiDocument } from './document.js';
import { componentSchemas } from './schemas.js';

/** Keywords OpenAPI 3.1 adds to JSON Schema; they annotate and never fail a value. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

/**
 * An ajv instance that knows the document's component schemas and the int32/int64 formats.
 * `useDefaults` fills in schema defaults (the `limit` of 20; the `status` of a new pet, from `x-server-default`), so those
 * values are read from the spec, never written again in code.
 */
export function createAjv(doc: OpenApiDocument, options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: true, ...options });
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
  for (const schema of componentSchemas(doc)) ajv.addSchema(schema);
  return ajv;
}
