import { describe, expect, it } from 'vitest';
import { VARIANT_LIMIT_MAXIMUM, VARIANT_TAG_MAX_LENGTH, variantSpec } from '../../../test/support/variant-spec.js';
import { createFaker, drawPets } from '../../fixtures/seed.js';
import { compiledValidators } from '../../openapi/ajv.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { readResourceModel } from '../../openapi/resource-model.js';
import { UNKNOWN_PROFILE } from '../../profile/profile.js';
import type { MockRequest, MockResponse } from '../core/messages.js';
import { MockClock } from '../state/clock.js';
import { Coverage } from '../state/coverage.js';
import { unsavedChange } from '../state/saved-changes.js';
import type { Session } from '../state/sessions.js';
import { MemoryPetStore } from '../state/store.js';
import { mockOperations } from './kinds.js';
import type { MockOperation, OperationEnv, ParsedInputs } from './operation.js';

const doc = variantSpec();
const model = readResourceModel(doc, compiledValidators(doc));
const env: OperationEnv = { basePath: '/v1', coverage: new Coverage('/v1'), profile: UNKNOWN_PROFILE, change: (_session, change) => unsavedChange(change) };

function jsonRequest(body: unknown): MockRequest {
  const text = JSON.stringify(body);
  return { method: 'POST', target: '/v1/pets', header: (name) => (name === 'content-type' ? 'application/json' : undefined), text: async () => text };
}

/** What an operation answers to a request-target (and a body), in one session, as the pipeline calls it. */
async function answer(
  operation: MockOperation | undefined,
  session: Session,
  params: Record<string, string>,
  query = '',
  body?: unknown,
): Promise<MockResponse> {
  if (operation === undefined) throw new Error('no such operation');
  let parsed: ParsedInputs = operation.parse(params, query);
  if ('parseBody' in parsed) parsed = await parsed.parseBody(jsonRequest(body));
  if ('rejection' in parsed) return parsed.rejection;
  if ('parseBody' in parsed) throw new Error('a body parsed twice');
  return parsed.respond(jsonRequest(body), session);
}

describe('the mock’s operations, each served by its kind from the model', () => {
  it('serves the bundled spec’s operations under their own ids, retiring the read as the spec says', () => {
    const operations = mockOperations(BUNDLED_MODEL, env);
    expect(operations.map((operation) => operation.id)).toEqual(BUNDLED_MODEL.operations.map((operation) => operation.operationId));
    const read = operations.find((operation) => operation.id === 'getPet');
    expect(read?.removal?.at).toBe(Date.parse('2030-12-05T00:00:00Z'));
    expect(read?.responseHeaders?.(200, false)?.record).toEqual({
      deprecation: '@1748736000',
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      link: '</v1/pets>; rel="successor-version"',
    });
  });

  it('serves a variant with no code of its own: a valid tag is kept, the new bound holds, a deleted pet is gone for good', async () => {
    const [list, create, read, remove] = ['list', 'create', 'read', 'delete'].map((kind) => {
      const operation = model.operations.find((candidate) => candidate.kind === kind);
      return mockOperations(model, env).find((served) => served.id === operation?.operationId);
    });
    const seed = drawPets(
      createFaker(1),
      5,
      model.fields.filter((field) => field.writable),
    );
    const session: Session = { name: 'default', store: new MemoryPetStore(seed), clock: new MockClock(() => 0) };
    const tag = 'x'.repeat(VARIANT_TAG_MAX_LENGTH);

    const created = await answer(create, session, {}, '', { name: 'Rex', categoryId: 2, tag });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body)).toEqual({ id: 6, name: 'Rex', categoryId: 2, status: 'available', tag });
    expect(JSON.parse((await answer(read, session, { petId: '6' })).body)).toMatchObject({ tag });
    expect((await answer(create, session, {}, '', { name: 'Rex', categoryId: 2, tag: `${tag}x` })).status).toBe(400);

    const tooMany = await answer(list, session, {}, `limit=${VARIANT_LIMIT_MAXIMUM + 1}`);
    expect([tooMany.status, JSON.parse(tooMany.body).message]).toEqual([400, `limit must be an integer from 1 to ${VARIANT_LIMIT_MAXIMUM}.`]);

    expect((await answer(remove, session, { petId: '6' })).status).toBe(204);
    expect((await answer(remove, session, { petId: '2' })).status).toBe(204);
    expect((await answer(remove, session, { petId: '6' })).status).toBe(404);
    expect((await answer(read, session, { petId: '6' })).status).toBe(404);
    expect((await answer(remove, session, { petId: 'six' })).status).toBe(400);
    const all = JSON.parse((await answer(list, session, {}, `limit=${VARIANT_LIMIT_MAXIMUM}`)).body) as { id: number; status: string }[];
    expect(all.map((pet) => pet.id)).toEqual([1, 3, 4, 5]);
    for (const status of ['available', 'pending', 'sold']) {
      const page = JSON.parse((await answer(list, session, {}, `status=${status}&limit=${VARIANT_LIMIT_MAXIMUM}`)).body) as { id: number }[];
      expect(page.map((pet) => pet.id)).toEqual(all.filter((pet) => pet.status === status).map((pet) => pet.id));
    }
    // The next pet is numbered after every pet created, the removed one too.
    expect(JSON.parse((await answer(create, session, {}, '', { name: 'Gus', categoryId: 1 })).body)).toMatchObject({ id: 7 });
  });
});

describe('a create under a profile', () => {
  it('gives a pet created without a status the profile’s default, or none, and keeps a status sent', async () => {
    const session: Session = { name: 'default', store: new MemoryPetStore([]), clock: new MockClock(() => 0) };
    const created = async (defaultStatus: 'sold' | 'omitted', body: Record<string, unknown>) => {
      const [, create] = mockOperations(BUNDLED_MODEL, { ...env, profile: { ...UNKNOWN_PROFILE, defaultStatus } });
      return JSON.parse((await answer(create, session, {}, '', body)).body) as { status?: string };
    };
    expect((await created('sold', { name: 'Rex', categoryId: 1 })).status).toBe('sold');
    expect(await created('omitted', { name: 'Rex', categoryId: 1 })).not.toHaveProperty('status');
    expect((await created('omitted', { name: 'Rex', categoryId: 1, status: 'pending' })).status).toBe('pending');
  });
});
