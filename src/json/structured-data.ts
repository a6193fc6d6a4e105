/**
 * The one reader of every structured file a user gives in YAML or JSON (`--spec`, `--data`): JSON when
 * the file is named `.json` or, named neither `.json` nor `.yaml`/`.yml`, when its text starts (after
 * white space) with `{` or `[`; YAML otherwise. JSON is held to its own bounds (the file's byte cap,
 * nesting within `MAX_JSON_DEPTH`), never to YAML's node cap, which exists for the memory the YAML
 * parser takes per node; a JSON file's error is JSON's, never advice to "write it as JSON".
 * (`--profile`, `--state` and `--pact` are JSON only, read by `parseJson` and `parseJsonFast`, bounded alike.)
 */
import { parseJson, refuseDeepJson } from './lossless.js';
import { parseYamlData } from './yaml-data.js';

/**
 * Whether the file at `path` with `text` is read as JSON.
 * @example
 * readsAsJson('{"openapi": "3.1.0"}', 'spec'); // true
 * readsAsJson('openapi: 3.1.0', 'spec'); // false
 */
export function readsAsJson(text: string, path: string): boolean {
  if (/\.json$/i.test(path)) return true;
  if (/\.ya?ml$/i.test(path)) return false;
  return /^\s*[[{]/.test(text);
}

/** A structured file's text as a value, and the language it was read in, named in any error. */
export interface StructuredText {
  readonly language: 'JSON' | 'YAML';
  /** The value; rejects with a `SyntaxError` whose message says what is wrong, in `language`'s terms. */
  readonly value: Promise<unknown>;
}

/**
 * The value of a structured file: JSON or YAML by `readsAsJson`. `exactIntegers`: integers past 2^53
 * read exactly as `bigint` (pets), else as numbers (a spec, whose bounds ajv reads as numbers).
 * @example
 * const { language, value } = parseStructured(text, 'openapi.json');
 * await value; // the document; a SyntaxError names what is wrong in `language`
 */
export function parseStructured(text: string, path: string, { exactIntegers = false } = {}): StructuredText {
  if (!readsAsJson(text, path)) return { language: 'YAML', value: parseYamlData(text, { exactIntegers }) };
  try {
    if (exactIntegers) return { language: 'JSON', value: Promise.resolve(parseJson(text)) };
    // Numbers as YAML reads them without exactIntegers, nesting refused before the engine recurses.
    refuseDeepJson(text);
    return { language: 'JSON', value: Promise.resolve(JSON.parse(text) as unknown) };
  } catch (error) {
    return { language: 'JSON', value: Promise.reject(error) };
  }
}
