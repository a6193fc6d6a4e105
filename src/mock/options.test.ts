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

  // What JavaScript (or a cast) may pass: each is refused where it enters with a sentence that names the
  // option, never a message of the code that would have tripped on it later, nor taken as another value.
  const wrong: [string, unknown, RegExp][] = [
    ['seed', '7', /^seed must be a number, a whole one from 0 to 4294967295; got the string "7"$/],
    ['seed', Number.NaN, /^seed must be a whole number from 0 to 4294967295; got NaN$/],
    ['count', 1.5, /^count must be a whole number from 0 to 10000000; got 1\.5$/],
    ['count', 1e9, /^count must be a whole number from 0 to 10000000/],
    ['delay', Number.POSITIVE_INFINITY, /^delay must be a whole number from 0 to 600000; got Infinity$/],
    ['sessionTtl', 0, /^sessionTtl must be a whole number from 1 to/],
    ['maxSessions', -1, /^maxSessions must be/],
    ['journalSize', '5', /^journalSize must be a number/],
    ['journalBodyLimit', -1, /^journalBodyLimit must be/],
    ['faultSeed', '1', /^faultSeed must be a number/],
    ['apiKey', 42, /^apiKey must be a string, such as 'test-key'; got number 42$/],
    ['apiKeys', 'one-key', /^apiKeys must be a list, such as/],
    ['apiKeys', [42], /^apiKey, apiKeys: each key is a string, or \{ key, label \}/],
    ['basePath', 'v1', /^basePath must be a path such as \/v1/],
    ['basePath', '/v1?x', /^basePath must be a path such as \/v1/],
    ['bigIds', 'yes', /^bigIds must be true or false; got the string "yes"$/],
    ['prefer', 0, /^prefer must be true or false; got number 0$/],
    ['adminKeyRequired', 'no', /^adminKeyRequired must be true or false/],
    ['selfCheck', 1, /^selfCheck must be true or false/],
    ['faults', null, /^faults must be an object of rates/],
    ['faults', { reset: '0.1' }, /^faults: the rate of reset must be a number from 0 to 1; got "0\.1"/],
    ['persist', 'save', /^persist must be a function/],
    ['restore', { pets: [] }, /^restore must be what persist was last given/],
    ['profile', 'petstore-profile.json', /^profile must be a profile document/],
    ['spec', {}, /^spec must be what compileSpec\(await loadSpecFile\(path\)\) gives/],
    ['shared', 'redis://127.0.0.1', /^shared must be what openSharedState gives/],
    ['now', 1924992000000, /^now must be a function/],
  ];
  for (const [name, value, message] of wrong) {
    it(`refuses ${name}: ${typeof value === 'number' ? String(value) : JSON.stringify(value)}, naming ${name}`, () => {
      expect(() => normalizeMockOptions({ [name]: value } as never)).toThrow(message);
    });
  }

  it('refuses options that are no object, naming what it takes', () => {
    expect(() => normalizeMockOptions('seed=7' as never)).toThrow(
      /^the mock takes an object of options, such as \{ port: 0 \}, or nothing; got the string "seed=7"$/,
    );
    expect(() => normalizeMockOptions(null as never)).toThrow(TypeError);
  });
});
