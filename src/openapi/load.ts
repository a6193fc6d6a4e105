import { messageOf, SpecError } from '../errors.js';
import { readRegularFile, UnreadableFileError } from '../files/read-file.js';
import { jsonFault } from '../json/json-fault.js';
import { parseStructured } from '../json/structured-data.js';
import type { OpenApiDocument } from './document.js';

/** Whether a parsed file has what marks an OpenAPI document: `openapi` and `paths`. The rest is taken on trust: checking a whole document is a linter's work (npm run lint runs Spectral and Redocly on spec/openapi.yaml). */
function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  return typeof value === 'object' && value !== null && 'openapi' in value && typeof value.openapi === 'string' && 'paths' in value && Boolean(value.paths);
}

/**
 * Parses an OpenAPI document from a YAML or JSON file: a regular file within the cap on every file
 * read (src/files/read-file.ts), its YAML within the bounds of src/json/yaml-data.ts.
 */
export async function loadSpecFile(path: string): Promise<OpenApiDocument> {
  const text = await readRegularFile(path).catch((error: unknown) => {
    throw error instanceof UnreadableFileError ? new SpecError(`${path} cannot be read: ${error.message}`) : error;
  });
  return specOfText(text, path);
}

/** An OpenAPI document from the YAML or JSON text of the file at `path` (which names it in the `SpecError`), within the bounds of src/json/yaml-data.ts. */
async function specOfText(text: string, path: string): Promise<OpenApiDocument> {
  const { language, value } = parseStructured(text, path);
  let doc: unknown;
  try {
    doc = await value;
  } catch (error) {
    if (language === 'YAML') throw new SpecError(`${path} cannot be read as YAML: ${messageOf(error)}`);
    // JSON's own message quotes the text it fails on; a file given by mistake may hold secrets.
    const named = /\.json$/i.test(path) ? '' : ' (read as JSON, as it starts with { or [; name it .yaml to read it as YAML)';
    throw new SpecError(`${path} cannot be read: ${jsonFault(error)}${named}`);
  }
  if (!isOpenApiDocument(doc)) throw new SpecError(`${path} is not an OpenAPI document: it needs "openapi" and "paths"`);
  return doc;
}
