import { describe, expect, it } from 'vitest';
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
