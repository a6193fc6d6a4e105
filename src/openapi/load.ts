import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { SpecError } from '../errors.js';
import type { OpenApiDocument } from './document.js';

/** Whether a parsed file has what marks an OpenAPI document: `openapi` and `paths`. The rest is taken on trust: checking a whole document is a linter's work (npm run lint runs Spectral and Redocly on spec/openapi.yaml). */
function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  return typeof value === 'object' && value !== null && 'openapi' in value && typeof value.openapi === 'string' && 'paths' in value && Boolean(value.paths);
}

/** Parses an OpenAPI document from a YAML or JSON file. */
export async function loadSpecFile(path: string): Promise<OpenApiDocument> {
  return specOfText(await readFile(path, 'utf8'), path);
}

/** An OpenAPI document from the YAML or JSON text of the file at `path` (which names it in the `SpecError`). */
export function specOfText(text: string, path: string): OpenApiDocument {
  const doc: unknown = parse(text);
  if (!isOpenApiDocument(doc)) throw new SpecError(`${path} is not an OpenAPI document: it needs "openapi" and "paths"`);
  return doc;
}
