import { describe, expect, it } from 'vitest';
import { expectReplaces, type VariantCall, variantCall } from '../../test/support/variant-replace.js';
import { nodeAt, VARIANT_LIMIT_MAXIMUM, VARIANT_TAG_MAX_LENGTH, variantSpec } from '../../test/support/variant-spec.js';
import { seededPets } from '../fixtures/seed.js';
import { parseJson } from '../json/lossless.js';
import { compileSpec } from '../openapi/ajv.js';
import { BUNDLED_MODEL } from '../openapi/bundled-model.js';
import { operationOfKind } from '../openapi/resource-model.js';
import type { MockRequest, MockResponse } from './core/messages.js';
import { createMockApi } from './create-mock-api.js';
import type { SharedState } from './state/redis/shared-state.js';

// Never touched: the refusal comes before the mock reads its shared state.
const shared = {} as SharedState;

/** The largest page the spec allows: a list of every seeded pet is a list of at most so many. */
const PAGE = operationOfKind(BUNDLED_MODEL, 'list')?.pageSize?.maximum ?? 0;

describe('createMockApi with a profile and a shared (Redis) store', () => {
  it.each([
    [{ version: 1, listOrder: 'name' }, 'listOrder'],
    [{ version: 1, idScheme: 'random' }, 'idScheme'],
    [{ version: 1, categories: { known: ['3', '7'] } }, 'categories'],
  ] as const)('refuses %j, a choice only the in-memory store makes, naming %s', (profile, field) => {
    expect(() => createMockApi({ shared, profile })).toThrow(new RegExp(`profile: ${field} cannot be adopted with a Redis store`));
  });

  it('makes the same choices without the shared store', async () => {
    const mock = createMockApi({ profile: { version: 1, listOrder: 'id-desc' }, count: 3 });
    const response = await mock.fetch(new Request('http://mock.test/v1/pets', { headers: { authorization: 'Bearer petstore-dev-key' } }));
    expect(((await response.json()) as { id: number }[]).map((pet) => pet.id)).toEqual([3, 2, 1]);
  });
});

describe('createMockApi().fetch parses JSON bodies as UTF-8 only (RFC 8259)', () => {
  const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' };
  const post = (body: BodyInit) => {
    // A streamed body needs `duplex`, which Node's fetch knows and the DOM's RequestInit type does not yet.
    const init: RequestInit & { readonly duplex: 'half' } = { method: 'POST', headers, body, duplex: 'half' };
    return createMockApi().fetch(new Request('http://mock.test/v1/pets', init));
  };
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

  it('rejects bytes that are not UTF-8 with a 400 naming the body, never a name with U+FFFD', async () => {
    const response = await post(bytes('{"name":"', [0xff, 0xfe], '","categoryId":1}'));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^The request body is not UTF-8/) });
  });

  it('keeps a UTF-8 character split between two chunks of the body', async () => {
    const [head, tail] = [bytes('{"name":"Ren', [0xc3]), bytes([0xa9], '","categoryId":1}')];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        controller.enqueue(tail);
        controller.close();
      },
    });
    const response = await post(stream);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: 'René' });
  });
});

describe('createMockApi and the seeded pets', () => {
  const list = (): MockRequest => ({
    method: 'GET',
    target: `/v1/pets?limit=${PAGE}`,
    header: (name) => (name === 'authorization' ? 'Bearer petstore-dev-key' : undefined),
    text: async () => '',
  });

  it('answers at once from its first request with the default seed and at most the default count: the pets drawn at generation, no faker', () => {
    for (const count of [0, 3, 50]) {
      const answered = createMockApi({ count }).respond(list());
      expect(answered, `count ${count}`).not.toBeInstanceOf(Promise);
      expect(JSON.parse((answered as MockResponse).body)).toEqual(seededPets(1, count).slice(0, PAGE));
    }
  });

  it('waits for faker to draw another seed or count, then answers at once, with the pets faker draws', async () => {
    for (const options of [{ seed: 7, count: 3 }, { count: 51 }, { seed: 2, count: 5, bigIds: true }]) {
      const mock = createMockApi(options);
      const first = mock.respond(list());
      expect(first, JSON.stringify(options)).toBeInstanceOf(Promise);
      const drawn = seededPets(options.seed ?? 1, options.count, { bigIds: options.bigIds ?? false });
      expect(parseJson((await first).body)).toEqual(drawn.slice(0, PAGE));
      expect(mock.respond(list()), JSON.stringify(options)).not.toBeInstanceOf(Promise);
      expect(await mock.store.size).toBe(options.count);
    }
  });
});

describe('createMockApi with another spec', () => {
  const spec = compileSpec(variantSpec());
  const mismatches: string[] = [];
  const mock = createMockApi({ spec, count: 5, selfCheck: (mismatch) => mismatches.push(mismatch) });
  const call = async (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) => {
    const headers = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', ...init.headers };
    const response = await mock.fetch(
      new Request(`http://mock.test/v1${path}`, { method, headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) }),
    );
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };

  it('serves the variant with no code of its own: its field seeded and kept, its bound, its delete, every answer true to it', async () => {
    const seeded = (await call('GET', '/pets?limit=5')).json as { tag?: string }[];
    expect(seeded.every((pet) => typeof pet.tag === 'string')).toBe(true);
    const tag = 'x'.repeat(VARIANT_TAG_MAX_LENGTH);
    const created = await call('POST', '/pets', { body: { name: 'Rex', categoryId: 2, tag } });
    expect([created.status, created.json, created.headers.get('location')]).toEqual([
      201,
      { id: 6, name: 'Rex', categoryId: 2, status: 'available', tag },
      '/v1/pets/6',
    ]);
    expect((await call('POST', '/pets', { body: { name: 'Rex', categoryId: 2, tag: `${tag}y` } })).status).toBe(400);
    expect((await call('GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM + 1}`)).status).toBe(400);
    expect((await call('DELETE', '/pets/6')).status).toBe(204);
    expect((await call('DELETE', '/pets/6')).status).toBe(404);
    expect((await call('GET', '/pets/6')).status).toBe(404);
    expect(((await call('GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM}`)).json as { id: number }[]).map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5]);
    expect((await call('DELETE', '/pets/1', { headers: { prefer: 'code=404' } })).status).toBe(404);
    expect((await call('GET', '/pets/1')).status).toBe(200);
    const notAllowed = await call('PATCH', '/pets/1', { body: {} });
    expect([notAllowed.status, notAllowed.headers.get('allow')]).toEqual([405, 'GET, PUT, DELETE, HEAD, OPTIONS']);
    expect(mismatches).toEqual([]);
  });

  it('serves its replace with no code of its own, in the default session and in a named one, which a reset drops', async () => {
    const fresh = createMockApi({ spec, count: 5, selfCheck: (mismatch) => mismatches.push(mismatch) });
    const inSession = (session: string | undefined): VariantCall =>
      variantCall(
        () => 'http://mock.test/v1',
        (request) => fresh.fetch(request),
        session ? { 'x-mock-session': session } : {},
      );
    const seeded = (await inSession(undefined)('GET', '/pets/2')).json;
    await expectReplaces(inSession(undefined), 2);
    // A named session is an overlay of its own: the default session's replace is not in it, its own is not in the default session.
    expect(await inSession('alice')('GET', '/pets/2')).toEqual({ status: 200, json: seeded });
    const alices = await expectReplaces(inSession('alice'), 3);
    expect((await inSession(undefined)('GET', '/pets/3')).json).not.toEqual(alices[0]);
    expect((await fresh.fetch(new Request('http://mock.test/__mock/reset', { method: 'POST', headers: { 'x-mock-session': 'alice' } }))).status).toBe(200);
    expect((await inSession('alice')('GET', '/pets/3')).json).toEqual((await createMockApi({ spec, count: 5 }).store.get(3)) as unknown);
    expect(mismatches).toEqual([]);
  });

  it('refuses a spec with an operation of no known kind, naming it', () => {
    const doc = variantSpec();
    nodeAt(doc, 'paths', '/pets/{petId}').post = { operationId: 'adoptPet', responses: { '200': { description: 'adopted' } } };
    expect(() => compileSpec(doc)).toThrow(/POST \/pets\/\{petId\} \(adoptPet\) is of no kind the mock knows/);
  });
});
