/**
 * A variant of the interface that names everything the pet store names otherwise: the collection
 * `/animals`, the record `Animal`, the item path's parameter `animalId`, the page size `pageSize`
 * (1 to 20, default 10) and a filter `kind` over another enum. It is made from `variantSpec()` (so it
 * keeps the tag, the delete and the replace) by renaming, never copied, so that it follows every other
 * change of the spec. A tool that reads the resource model serves and verifies it with no code change.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { type JsonNode, nodeAt, variantSpec } from './variant-spec.js';

/** The page size of the renamed variant. */
export const RENAMED_PAGE_SIZE = { parameter: 'pageSize', minimum: 1, maximum: 20, default: 10 } as const;
/** The filter of the renamed variant, and the values it enumerates. */
export const RENAMED_FILTER = { parameter: 'kind', values: ['dog', 'cat', 'bird', 'fish'] } as const;
/** The item path's parameter of the renamed variant. */
export const RENAMED_ID_PARAMETER = 'animalId';

/** Renames `from` to `to` among an object's keys, keeping their order. */
function renameKey(node: JsonNode, from: string, to: string): void {
  const entries = Object.entries(node).map(([key, value]) => [key === from ? to : key, value] as const);
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(node, Object.fromEntries(entries));
}

/** The renamed variant, as a new document each call; `edit` may change its page size's schema (a faulty mock's spec). */
export function renamedSpec(): OpenApiDocument {
  const doc = variantSpec() as unknown as JsonNode;
  nodeAt(doc, 'info').title = 'Animal Registry (renamed variant)';
  const schemas = nodeAt(doc, 'components', 'schemas');
  // The filter's field: `status` becomes `kind`, over another enum, with its own server default.
  renameKey(schemas, 'PetStatus', 'AnimalKind');
  Object.assign(nodeAt(schemas, 'AnimalKind'), { description: 'What kind of animal it is.', enum: [...RENAMED_FILTER.values] });
  const fields = nodeAt(schemas, 'NewPet', 'properties');
  renameKey(fields, 'status', RENAMED_FILTER.parameter);
  Object.assign(nodeAt(fields, RENAMED_FILTER.parameter), { description: 'What kind of animal it is; `dog` when omitted.', 'x-server-default': 'dog' });
  renameKey(schemas, 'NewPet', 'NewAnimal');
  renameKey(schemas, 'Pet', 'Animal');
  renameKey(schemas, 'Pets', 'Animals');
  // The paths: `/animals` and `/animals/{animalId}`.
  const paths = nodeAt(doc, 'paths');
  renameKey(paths, '/pets', '/animals');
  renameKey(paths, '/pets/{petId}', `/animals/{${RENAMED_ID_PARAMETER}}`);
  const [pageSize, filter] = [0, 1].map((index) => nodeAt(paths, '/animals', 'get', 'parameters', index));
  if (pageSize?.name !== 'limit' || filter?.name !== 'status') throw new Error('listPets no longer takes limit then status');
  Object.assign(pageSize, { name: RENAMED_PAGE_SIZE.parameter, description: 'How many animals a page holds.', example: RENAMED_PAGE_SIZE.default });
  Object.assign(nodeAt(pageSize, 'schema'), { minimum: RENAMED_PAGE_SIZE.minimum, maximum: RENAMED_PAGE_SIZE.maximum, default: RENAMED_PAGE_SIZE.default });
  Object.assign(filter, { name: RENAMED_FILTER.parameter, description: 'Returns only animals of this kind.', example: RENAMED_FILTER.values[0] });
  nodeAt(paths, `/animals/{${RENAMED_ID_PARAMETER}}`, 'get', 'parameters', 0).name = RENAMED_ID_PARAMETER;
  // Every reference to a renamed schema, and every example naming a status, follows.
  const text = JSON.stringify(doc)
    .replaceAll('#/components/schemas/PetStatus"', '#/components/schemas/AnimalKind"')
    .replaceAll('#/components/schemas/NewPet"', '#/components/schemas/NewAnimal"')
    .replaceAll('#/components/schemas/Pet"', '#/components/schemas/Animal"')
    .replaceAll('#/components/schemas/Pets"', '#/components/schemas/Animals"')
    .replace(/"status":"(available|pending|sold)"/g, `"${RENAMED_FILTER.parameter}":"${RENAMED_FILTER.values[1]}"`);
  return JSON.parse(text) as OpenApiDocument;
}

/** Writes `doc` (by default the renamed variant) as YAML into `dir` under `name` and returns its path, for a CLI's `--spec`. */
export async function writeRenamedSpec(dir: string, doc: OpenApiDocument = renamedSpec(), name = 'renamed-openapi.yaml'): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, stringify(doc));
  return path;
}
