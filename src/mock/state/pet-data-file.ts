/**
 * Your own pets (`--data`) as the Node hosts read and keep them: a file's text, JSON or YAML, made
 * into checked pets, and the hash that names the set where a state file or Redis records it. Node only
 * (a YAML parser, node:crypto): `petstore-mock/msw` in a browser takes pets as values (`data`), checked
 * by pet-data.ts alone.
 */
import { createHash } from 'node:crypto';
import { jsonFault } from '../../json/json-fault.js';
import { parseJson, stringifyJson } from '../../json/lossless.js';
import { readsAsJson } from '../../json/structured-data.js';
import { parseYamlData } from '../../json/yaml-data.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import type { ResourceModel } from '../../openapi/resource-model.js';
import { checkPets, type PetData, PetDataError } from './pet-data.js';
import type { StoredPet } from './store.js';

/** Pets as the items of a JSON array: `JSON.stringify`'s text where it can (the same, many times faster), the lossless one when a `bigint` is among them. */
function itemsJson(pets: readonly StoredPet[]): string {
  try {
    return JSON.stringify(pets).slice(1, -1);
  } catch {
    return stringifyJson(pets).slice(1, -1);
  }
}

/** `sha256:` and the digest of `stringifyJson(pets)`, hashed a slice at a time: the whole text of a million pets is never made. */
function hashOf(pets: readonly StoredPet[]): string {
  const hash = createHash('sha256').update('[');
  const slice = 1024;
  for (let from = 0; from < pets.length; from += slice) hash.update((from === 0 ? '' : ',') + itemsJson(pets.slice(from, from + slice)));
  return `sha256:${hash.update(']').digest('hex')}`;
}

/** The hashes `petDataHash` made: a million pets are hashed once. */
const hashes = new WeakMap<PetData, string>();

/**
 * `sha256:` and the hex digest of the pets' JSON in id order: the same pets give the same hash, whatever file held them.
 * @example
 * petDataHash(await readPetData(text, 'pets.yaml')); // 'sha256:9f86d0…'
 */
export function petDataHash(data: PetData): string {
  let hash = hashes.get(data);
  if (hash === undefined) {
    hash = hashOf(data.pets);
    hashes.set(data, hash);
  }
  return hash;
}

/**
 * A data file's pets: JSON or YAML (`readsAsJson`: by its name, else by its first character), checked by `checkPets`.
 * Rejects with a `PetDataError` naming what is wrong.
 * @example
 * await readPetData(await readFile('pets.yaml', 'utf8'), 'pets.yaml');
 */
export async function readPetData(text: string, path: string, model: ResourceModel = BUNDLED_MODEL): Promise<PetData> {
  const yaml = !readsAsJson(text, path);
  let value: unknown;
  try {
    // JSON losslessly, else YAML with every integer a bigint (made exact numbers by `checkPets`); both refuse
    // nesting past 128 levels, and YAML alias bombs and endless aliases.
    value = yaml ? await parseYamlData(text, { exactIntegers: true }) : parseJson(text);
  } catch (error) {
    // JSON's own messages quote the text they fail on; `jsonFault` says where, quoting none of it.
    throw new PetDataError([yaml ? `it is not YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` : jsonFault(error)]);
  }
  return checkPets(value, 'pets', true, model);
}
