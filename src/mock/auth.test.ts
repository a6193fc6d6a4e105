import { describe, expect, it } from 'vitest';
import { checkBearer } from './auth.js';

describe('checkBearer', () => {
  const keys = ['alpha-key', 'beta'];

  it('accepts any accepted key with the Bearer scheme in any case', () => {
    for (const header of ['Bearer alpha-key', 'bearer beta', 'BEARER  beta ', 'Bearer\talpha-key']) expect(checkBearer(header, keys)).toBeUndefined();
  });

  it('names what is wrong with a refused credential', () => {
    expect(checkBearer(undefined, keys)).toBe('missing');
    expect(checkBearer('  ', keys)).toBe('missing');
    expect(checkBearer('alpha-key', keys)).toBe('scheme');
    expect(checkBearer('Basic YWxwaGEta2V5', keys)).toBe('scheme');
    expect(checkBearer('Bearer', keys)).toBe('empty');
    expect(checkBearer('Bearer ', keys)).toBe('empty');
    for (const near of ['alpha', 'alpha-key2', 'alpha-kez', 'Alpha-key', 'betaalpha-key']) expect(checkBearer(`Bearer ${near}`, keys)).toBe('key');
  });
});
