import { describe, expect, it } from 'vitest';
import { type JsonNode, nodeAt, VARIANT_LIMIT_MAXIMUM, VARIANT_TAG_MAX_LENGTH, variantSpec } from '../../test/support/variant-spec.js';
import { ANSWER_BYTES } from '../bounds/budget.js';
import { SpecError } from '../errors.js';
import { openapi } from '../generated/openapi.js';
import { compiledValidators } from './ajv.js';
import { BUNDLED_MODEL } from './bundled-model.js';
import type { OpenApiDocument } from './document.js';
import { operationOfKind, readResourceModel } from './resource-model.js';

const kinds = (model: typeof BUNDLED_MODEL) =>
  model.operations.map((operation) => `${operation.method.toUpperCase()} ${operation.path} ${operation.operationId}: ${operation.kind} ${operation.success}`);

/** A copy of the bundled spec with one change, for a refusal. */
function edited(change: (doc: JsonNode) => void): OpenApiDocument {
  const doc = structuredClone(openapi) as unknown as JsonNode;
  change(doc);
  return doc as unknown as OpenApiDocument;
}

describe('readResourceModel of the bundled spec', () => {
  const model = BUNDLED_MODEL;

  it('recognises each operation by its method, path and responses', () => {
    expect(kinds(model)).toEqual(['GET /pets listPets: list 200', 'POST /pets createPet: create 201', 'GET /pets/{petId} getPet: read 200']);
    expect(model).toMatchObject({ name: 'Pet', basePath: '/v1', collectionPath: '/pets', itemPath: '/pets/{petId}' });
  });

  it('reads the id: the one field a client never sends, an int64, carried by the item path', () => {
    expect(model.id).toEqual({ field: 'id', parameter: 'petId', type: 'integer', int64: true });
  });

  it('reads every field from the schema, with what a create sends and what the server fills in', () => {
    expect(
      model.fields.map(({ name, required, writable, requiredOnCreate, int64, enum: values, serverDefault }) => ({
        name,
        required,
        writable,
        requiredOnCreate,
        int64,
        values,
        serverDefault,
      })),
    ).toEqual([
      { name: 'name', required: true, writable: true, requiredOnCreate: true, int64: false, values: undefined, serverDefault: undefined },
      { name: 'categoryId', required: true, writable: true, requiredOnCreate: true, int64: true, values: undefined, serverDefault: undefined },
      {
        name: 'status',
        required: false,
        writable: true,
        requiredOnCreate: false,
        int64: false,
        values: ['available', 'pending', 'sold'],
        serverDefault: 'available',
      },
      { name: 'id', required: true, writable: false, requiredOnCreate: false, int64: true, values: undefined, serverDefault: undefined },
    ]);
  });

  it("reads a list's filters from its enum query parameters and its page size from the bounds of its schema", () => {
    const list = operationOfKind(model, 'list');
    expect(list?.filters).toEqual([{ parameter: 'status', field: 'status', values: ['available', 'pending', 'sold'] }]);
    const limit = openapi.paths['/pets'].get.parameters.find((parameter) => parameter.name === 'limit');
    expect(list?.pageSize).toEqual({ parameter: 'limit', minimum: limit?.schema.minimum, maximum: limit?.schema.maximum, default: limit?.schema.default });
    expect(list?.pageSize?.maximum).toBeTypeOf('number');
  });

  it("reads the spec's extensions: getPet's retirement, createPet's body limit, the error codes", () => {
    expect(operationOfKind(model, 'read')?.deprecation).toEqual({
      deprecatedAt: new Date('2025-06-01T00:00:00Z'),
      sunset: new Date('2030-12-05T00:00:00Z'),
      replacement: 'listPets',
    });
    expect(operationOfKind(model, 'create')?.maxBodyBytes).toBe(1048576);
    expect(model.errorCodes.not_found).toMatchObject({ status: 404 });
  });

  it('holds the compiled validators of the record and of each operation’s inputs', () => {
    expect(model.validateRecord({ id: 1, name: 'Rex', categoryId: 2 })).toBe(true);
    expect(model.validateRecord({ id: 1, name: 'Rex' })).toBe(false);
    const list = operationOfKind(model, 'list');
    expect(list?.validators.query?.({ limit: 0 })).toBe(false);
    expect(operationOfKind(model, 'create')?.validators.body).toBeTypeOf('function');
    expect(operationOfKind(model, 'read')?.validators.path).toBeTypeOf('function');
  });
});

describe('readResourceModel of a variant spec', () => {
  const doc = variantSpec();
  const model = readResourceModel(doc, compiledValidators(doc));

  it('recognises the new replace and delete, and keeps the other kinds', () => {
    expect(kinds(model)).toEqual([
      'GET /pets listPets: list 200',
      'POST /pets createPet: create 201',
      'GET /pets/{petId} getPet: read 200',
      'PUT /pets/{petId} replacePet: replace 200',
      'DELETE /pets/{petId} deletePet: delete 204',
    ]);
    expect(operationOfKind(model, 'delete')?.statuses).toEqual([204, 400, 401, 404]);
  });

  it('reads the new optional field, a create may send it, and its validator holds it to its length', () => {
    const tag = model.fields.find((field) => field.name === 'tag');
    expect(tag).toMatchObject({ required: false, writable: true, requiredOnCreate: false, schema: { type: 'string', maxLength: VARIANT_TAG_MAX_LENGTH } });
    const body = operationOfKind(model, 'create')?.validators.body;
    expect(body?.({ name: 'Rex', categoryId: 1, tag: 'x'.repeat(VARIANT_TAG_MAX_LENGTH) })).toBe(true);
    expect(body?.({ name: 'Rex', categoryId: 1, tag: 'x'.repeat(VARIANT_TAG_MAX_LENGTH + 1) })).toBe(false);
  });

  it('reads the new bound of the page size', () => {
    expect(operationOfKind(model, 'list')?.pageSize).toMatchObject({ maximum: VARIANT_LIMIT_MAXIMUM });
    expect(operationOfKind(model, 'list')?.validators.query?.({ limit: VARIANT_LIMIT_MAXIMUM + 1 })).toBe(false);
  });
});

describe('readResourceModel refuses what it cannot recognise', () => {
  const read = (doc: OpenApiDocument) => () => readResourceModel(doc, compiledValidators(doc));

  it('an operation of no known kind, named, with what would make it one', () => {
    const doc = edited((spec) => {
      nodeAt(spec, 'paths', '/pets/{petId}').post = { operationId: 'adoptPet', responses: { '200': { description: 'ok' } } };
    });
    expect(read(doc)).toThrow(SpecError);
    expect(read(doc)).toThrow(
      /^POST \/pets\/\{petId\} \(adoptPet\) is of no kind the mock knows: on an item path the mock knows GET .* \(a read\), PUT .* \(a replace\) and DELETE answering 204 \(a delete\)\.$/,
    );
  });

  it('a path that is neither a collection nor an item of one', () => {
    const doc = edited((spec) => {
      nodeAt(spec, 'paths')['/pets/{petId}/photos/{photoId}'] = { get: { operationId: 'getPhoto', responses: { '200': { description: 'ok' } } } };
    });
    expect(read(doc)).toThrow(/GET \/pets\/\{petId\}\/photos\/\{photoId\} \(getPhoto\) is of no kind the mock knows: its path is neither a collection/);
  });

  it('a record no create could carry: lower bounds of its fields past the body limit (red team 10 #3)', () => {
    const bounded = (minLength: number) =>
      edited((spec) => {
        nodeAt(spec, 'components', 'schemas', 'NewPet', 'properties').name = { type: 'string', minLength };
      });
    // 1 MiB less the record's other fields fits; a 10^9 minimum (the heap exhausted at start) and 3 MB do not.
    expect(read(bounded(1_048_000))).not.toThrow();
    for (const minLength of [3_000_000, 1_000_000_000, 1_048_576])
      expect(read(bounded(minLength))).toThrow(
        new RegExp(
          `^a Pet takes at least \\d+ bytes of JSON by the lower bounds of its fields \\(minLength, minItems: name ${minLength + 2}\\), more than the 1048576 bytes createPet accepts \\(x-max-body-bytes\\): no client could send one; lower those bounds$`,
        ),
      );
  });

  it('a body limit past every answer of the mock, or none at all (red team 11 #1)', () => {
    const limited = (bytes: number) =>
      edited((spec) => {
        nodeAt(spec, 'paths', '/pets', 'post')['x-max-body-bytes'] = bytes;
      });
    expect(read(limited(ANSWER_BYTES))).not.toThrow();
    // No field asks for the bytes: the limit is what to change (red team 12 #7).
    expect(read(limited(30))).toThrow(
      /^a Pet takes at least \d+ bytes of JSON with its fields empty, more than the 30 bytes createPet accepts .*; raise x-max-body-bytes to \d+ or more$/,
    );
    for (const bytes of [ANSWER_BYTES + 1, 104_857_600, 4_000_000_000, 0])
      expect(read(limited(bytes))).toThrow(`createPet's x-max-body-bytes ${bytes} is not from 1 to ${ANSWER_BYTES}, the most any answer of the mock holds`);
  });

  it('a list query parameter that is neither a filter nor a page size', () => {
    const doc = edited((spec) => {
      nodeAt(spec, 'paths', '/pets', 'get', 'parameters')[2] = { name: 'q', in: 'query', schema: { type: 'string' } };
    });
    expect(read(doc)).toThrow(/listPets's query parameter q is neither a filter .* nor the page size .*; make it one of the two/);
  });

  it('two operations of one kind', () => {
    const doc = edited((spec) => {
      nodeAt(spec, 'paths')['/animals'] = { get: { ...nodeAt(spec, 'paths', '/pets', 'get'), operationId: 'listAnimals' } };
    });
    expect(read(doc)).toThrow(/listPets and listAnimals are each a list of the resource; keep one/);
  });
});
