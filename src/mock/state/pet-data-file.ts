/**
 * Your own pets (`--data`) as the Node hosts read and keep them: a file's text, JSON or YAML, made
 * into checked pets, and the hash that names the set where a state file or Redis records it. Node only
 * (a YAML parser, node:crypto): `petstore-mock/msw` in a browser takes pets as values (`data`), checked
 * by pet-data.ts alone.
 */
import { createHash } from 'node:crypto';
import { parseJson, stringifyJson } from '../../json/lossless.js';
import { parseYamlData } from '../../json/yaml-data.js';
import { checkPets, type PetData, PetDataError } from './pet-data.js';

/**
 * `sha256:` and the hex digest of the pets' JSON in id order: the same pets give the same hash, whatever file held them.
 * @example
 * petDataHash(await readPetData(text, 'pets.yaml')); // 'sha256:9f86d0…'
 */
export function petDataHash(data: PetData): string {
  return `sha256:${createHash('sha256').update(stringifyJson(data.pets)).digest('hex')}`;
}

/**
 * A data file's text as a value: JSON losslessly, else YAML with every integer a bigint (made exact
 * numbers by `checkPets`); both refuse nesting past 128 levels, and YAML alias bombs and endless aliases.
 */
async function parseDataText(text: string, yaml: boolean): Promise<unknown> {
  if (!yaml) return parseJson(text);
  return parseYamlData(text, { exactIntegers: true });
}

/**
 * A data file's pets: JSON (`.json`, or text that starts with `[`) or YAML, checked by `checkPets`.
 * Rejects with a `PetDataError` naming what is wrong.
 * @example
 * await readPetData(await readFile('pets.yaml', 'utf8'), 'pets.yaml');
 */
export async function readPetData(text: string, path: string): Promise<PetData> {
  const yaml = /\.ya?ml$/i.test(path) || !/^\s*\[/.test(text);
  let value: unknown;
  try {
    value = await parseDataText(text, yaml);
  } catch (error) {
    throw new PetDataError([`it is not ${yaml ? 'YAML' : 'JSON'}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`]);
  }
  return checkPets(value);
}
