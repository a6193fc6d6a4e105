import { describe, expect, it } from 'vitest';
import { checkBearer, parseApiKey } from './auth.js';

describe('checkBearer', () => {
  const keys = ['alpha-key', 'beta'];

  it('accepts any accepted key with the Bearer scheme in any case, telling which one', () => {
    for (const header of ['Bearer alpha-key', 'Bearer\talpha-key']) expect(checkBearer(header, keys)).toBe(0);
    for (const header of ['bearer beta', 'BEARER  beta ']) expect(checkBearer(header, keys)).toBe(1);
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

describe('parseApiKey', () => {
  it('reads label=key when the label is a word and a key follows', () => {
    expect(parseApiKey('ci=s3cret')).toEqual({ label: 'ci', key: 's3cret' });
    expect(parseApiKey('qa-team.eu=a=b')).toEqual({ label: 'qa-team.eu', key: 'a=b' });
  });

  it('keeps every other value whole, base64 padding included', () => {
    for (const value of ['petstore-dev-key', 'dGVzdA==', 'abc=', '=abc', '1ci=key', 'two words=key', `${'x'.repeat(33)}=key`])
      expect(parseApiKey(value)).toBe(value);
  });
});
