import { describe, expect, it } from 'vitest';
import { MOCK_DEFAULTS } from './core/defaults.js';
import { normalizeMockOptions } from './options.js';
import type { SharedState } from './state/redis/shared-state.js';

describe('normalizeMockOptions', () => {
  it('refuses persist with shared state, whose pets Redis keeps', () => {
    const shared = {} as SharedState;
    expect(() => normalizeMockOptions({ shared, persist: async () => {} })).toThrow(/persist and shared cannot go together/);
    expect(normalizeMockOptions({ shared }).shared).toBe(shared);
  });

  it('asks the key of the admin only where other machines reach the mock: a server bound beyond loopback', () => {
    expect(normalizeMockOptions().adminKeyRequired).toBe(false);
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.1.2.3']) expect(normalizeMockOptions({}, { host }).adminKeyRequired, host).toBe(false);
    // Beyond loopback a key of the user's own is needed (src/mock/pipeline/server-reach.ts): the default one is public.
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      expect(normalizeMockOptions({ apiKey: 'own-key' }, { host }).adminKeyRequired, host).toBe(true);
      expect(() => normalizeMockOptions({}, { host }), host).toThrow(`host ${host} lets other machines reach the mock`);
    }
    expect(normalizeMockOptions({ adminKeyRequired: false, apiKey: 'own-key' }, { host: '0.0.0.0' }).adminKeyRequired).toBe(false);
    expect(normalizeMockOptions({ adminKeyRequired: true }, { host: '127.0.0.1' }).adminKeyRequired).toBe(true);
  });

  it('fills in seed, count and bigIds from MOCK_DEFAULTS, and never changes the caller object', () => {
    const options = Object.freeze({ delay: 5 });
    expect(normalizeMockOptions(options)).toMatchObject({ seed: MOCK_DEFAULTS.seed, count: MOCK_DEFAULTS.count, bigIds: MOCK_DEFAULTS.bigIds, delay: 5 });
    expect(options).toEqual({ delay: 5 });
  });
});
