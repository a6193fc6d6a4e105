import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { SpecError } from '../errors.js';
import type { OpenApiDocument } from './document.js';

/** Reads an OpenAPI document from a YAML or JSON file. */
export async function loadSpecFile(path: string): Promise<OpenApiDocument> {
  const doc = parse(await readFile(path, 'utf8')) as OpenApiDocument;
  if (typeof doc !== 'object' || doc === null || typeof doc.openapi !== 'string' || !doc.paths) {
    throw new SpecError(`${path} is not an OpenAPI document: it needs "openapi" and "paths"`);
  }
  return doc;
}
