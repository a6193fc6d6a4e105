import { describe, expect, it } from 'vitest';
import { openapi } from '../../generated/openapi.js';
import type { OpenApiDocument } from '../../openapi/document.js';
import { modelShapeOf } from './model-shape.js';

/** The bundled spec with its names changed as a team's variant of the interface might: the shape follows, with no code. */
function renamed(): OpenApiDocument {
  const text = JSON.stringify(openapi)
    .replaceAll('/pets', '/animals')
    .replaceAll('petId', 'animalId')
    .replaceAll('"listPets"', '"listAnimals"')
    .replaceAll('"limit"', '"pageSize"')
    .replaceAll('"id"', '"ident"')
    .replaceAll('"status"', '"state"');
  return JSON.parse(text) as OpenApiDocument;
}

describe('modelShapeOf', () => {
  it('reads the collection of the bundled spec by its HTTP semantics and schemas', () => {
    expect(modelShapeOf(openapi)).toEqual({
      list: {
        operationId: 'listPets',
        path: '/pets',
        filters: [{ name: 'status', values: ['available', 'pending', 'sold'] }],
        pageSize: { name: 'limit', minimum: 1, maximum: 100, default: 20 },
      },
      create: { operationId: 'createPet', path: '/pets', fields: ['name', 'categoryId', 'status'] },
      read: { operationId: 'getPet', path: '/pets/{petId}', idParameter: 'petId' },
      idField: 'id',
      fields: ['name', 'categoryId', 'status', 'id'],
      itemChanges: new Set(),
    });
  });

  it('follows a variant of the spec whose paths, operations, parameters and fields are named otherwise', () => {
    const shape = modelShapeOf(renamed());
    expect(shape).toMatchObject({
      list: { operationId: 'listAnimals', path: '/animals', filters: [{ name: 'state' }], pageSize: { name: 'pageSize', maximum: 100 } },
      read: { path: '/animals/{animalId}', idParameter: 'animalId' },
      idField: 'ident',
    });
  });

  it('knows that a documented DELETE or PUT on the item may remove or change it (RFC 9110: not safe)', () => {
    const doc = renamed();
    const item = doc.paths['/animals/{animalId}'] as Record<string, unknown>;
    const withDelete = {
      ...doc,
      paths: { ...doc.paths, '/animals/{animalId}': { ...item, delete: { operationId: 'deleteAnimal', responses: {} } } },
    } as OpenApiDocument;
    expect('problem' in modelShapeOf(withDelete) ? undefined : modelShapeOf(withDelete)).toMatchObject({ itemChanges: new Set(['DELETE']) });
  });

  it('says why when the spec has no listing to model', () => {
    expect(modelShapeOf({ ...openapi, paths: {} } as OpenApiDocument)).toEqual({ problem: 'the spec documents no GET whose 200 is an array (a listing)' });
  });
});
