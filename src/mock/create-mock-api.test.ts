import { describe, expect, it } from 'vitest';
import { seededPets } from '../fixtures/seed.js';
import { parseJson } from '../json/lossless.js';
import type { MockRequest, MockResponse } from './core/messages.js';
import { createMockApi } from './create-mock-api.js';
import type { SharedState } from './state/redis/shared-state.js';

// Never touched: the refusal comes before the mock reads its shared state.
const shared = {} as SharedState;

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
    target: '/v1/pets?limit=100',
    header: (name) => (name === 'authorization' ? 'Bearer petstore-dev-key' : undefined),
    text: async () => '',
  });

  it('answers at once from its first request with the default seed and at most the default count: the pets drawn at generation, no faker', () => {
    for (const count of [0, 3, 50]) {
      const answered = createMockApi({ count }).respond(list());
      expect(answered, `count ${count}`).not.toBeInstanceOf(Promise);
      expect(JSON.parse((answered as MockResponse).body)).toEqual(seededPets(1, count));
    }
  });

  it('waits for faker to draw another seed or count, then answers at once, with the pets faker draws', async () => {
    for (const options of [{ seed: 7, count: 3 }, { count: 51 }, { seed: 2, count: 5, bigIds: true }]) {
      const mock = createMockApi(options);
      const first = mock.respond(list());
      expect(first, JSON.stringify(options)).toBeInstanceOf(Promise);
      const drawn = seededPets(options.seed ?? 1, options.count, { bigIds: options.bigIds ?? false });
      expect(parseJson((await first).body)).toEqual(drawn);
      expect(mock.respond(list()), JSON.stringify(options)).not.toBeInstanceOf(Promise);
      expect(await mock.store.size).toBe(options.count);
    }
  });
});
