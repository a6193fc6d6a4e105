import { describe, expect, it } from 'vitest';
import { normalizeMockOptions } from './options.js';
import type { SharedState } from './store/shared-state.js';

describe('normalizeMockOptions', () => {
  it('refuses persist with shared state, whose pets Redis keeps', () => {
    const shared = {} as SharedState;
    expect(() => normalizeMockOptions({ shared, persist: async () => {} })).toThrow(/persist and shared cannot go together/);
    expect(normalizeMockOptions({ shared }).shared).toBe(shared);
  });
});
