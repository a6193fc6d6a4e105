/**
 * A variant of spec/openapi.yaml, as the API's owners would write it next: an optional `tag` on
 * NewPet (so on Pet), `limit` capped at 50, `deletePet` (DELETE /pets/{petId}) and `replacePet` (PUT
 * /pets/{petId}). It is made from the real spec by these edits, never copied, so that it follows every
 * other change of the spec.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { openapi } from '../../src/generated/openapi.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';

/** The largest `limit` of the variant. */
export const VARIANT_LIMIT_MAXIMUM = 50;
/** The longest `tag` the variant accepts. */
export const VARIANT_TAG_MAX_LENGTH = 32;

/** A node of a JSON document, to edit. */
export type JsonNode = Record<string, unknown>;

/**
 * The object at `keys` under `node`, to edit in place; throws when there is none, so that an edit of a
 * spec that changed fails loudly.
 */
export function nodeAt(node: unknown, ...keys: (string | number)[]): JsonNode {
  let current = node;
  for (const key of keys) current = typeof current === 'object' && current !== null ? Reflect.get(current, key) : undefined;
  if (typeof current !== 'object' || current === null) throw new Error(`the spec has no object at ${keys.join('.')}`);
  return current as JsonNode;
}

/** The variant, as a new document each call. */
export function variantSpec(): OpenApiDocument {
  const doc = structuredClone(openapi) as unknown as JsonNode;
  nodeAt(doc, 'info').title = 'Pet Store Service (variant)';
  nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties').tag = {
    type: 'string',
    maxLength: VARIANT_TAG_MAX_LENGTH,
    description: 'A free label for the animal.',
  };
  const limit = nodeAt(doc, 'paths', '/pets', 'get', 'parameters', 0);
  if (limit.name !== 'limit') throw new Error('the first parameter of listPets is no longer limit');
  nodeAt(limit, 'schema').maximum = VARIANT_LIMIT_MAXIMUM;
  limit.description = `Maximum number of animals returned (1 to ${VARIANT_LIMIT_MAXIMUM}, default ${String(nodeAt(limit, 'schema').default)}).`;
  nodeAt(doc, 'components', 'responses', 'BadRequest', 'content', 'application/json', 'example').message = `limit: must be <= ${VARIANT_LIMIT_MAXIMUM}`;
  const petId = nodeAt(doc, 'paths', '/pets/{petId}', 'get', 'parameters', 0);
  // What an operation on one animal shares: its tag, its key, its id in the path, and its errors.
  const onItem = () => ({
    tags: ['animals'],
    security: [{ bearerAuth: [] }],
    parameters: [petId],
  });
  const itemErrors = () => ({
    '400': { $ref: '#/components/responses/BadRequest' },
    '401': { $ref: '#/components/responses/Unauthorized' },
    '404': {
      description: 'No animal has this id.',
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: { code: 'not_found', message: 'No animal has the id 99999.', status: 404 },
        },
      },
    },
  });
  nodeAt(doc, 'paths', '/pets/{petId}').delete = {
    operationId: 'deletePet',
    summary: 'Remove an animal',
    description: 'Removes the animal; its id is never given to another.',
    ...onItem(),
    responses: { '204': { description: 'Animal removed.' }, ...itemErrors() },
  };
  const create = nodeAt(doc, 'paths', '/pets', 'post');
  const createResponses = nodeAt(create, 'responses');
  nodeAt(doc, 'paths', '/pets/{petId}').put = {
    operationId: 'replacePet',
    summary: 'Replace an animal',
    description: 'Replaces every field of the animal by those sent, as a create takes them; its id is kept.',
    ...onItem(),
    'x-max-body-bytes': create['x-max-body-bytes'],
    requestBody: structuredClone(create.requestBody),
    responses: {
      '200': {
        description: 'Animal replaced; the body is the animal as now stored.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
      },
      ...itemErrors(),
      // The body is read as a create reads it: too large, or not JSON, is answered as there.
      '413': structuredClone(createResponses['413']),
      '415': structuredClone(createResponses['415']),
    },
  };
  return doc as unknown as OpenApiDocument;
}

/** Writes the variant as YAML into `dir` and returns its path, for a CLI's `--spec`. */
export async function writeVariantSpec(dir: string): Promise<string> {
  const path = join(dir, 'variant-openapi.yaml');
  await writeFile(path, stringify(variantSpec()));
  return path;
}
