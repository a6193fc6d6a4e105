import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiKeyProblem } from '../../http/header-value.js';
import { bearerCheck, parseApiKey } from './auth.js';

describe('bearerCheck', () => {
  const checkBearer = (header: string | undefined, keys: readonly string[]) => bearerCheck(keys)(header);
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
    // A token with whitespace inside is not of the form, even when a key begins it.
    for (const split of ['Bearer alpha-key x', 'Bearer alpha\u00a0-key', 'Bearer beta\n']) expect(checkBearer(split, keys)).toBe('scheme');
  });

  it('refuses keys that could never be sent: empty, or with whitespace', () => {
    expect(() => bearerCheck(['ok', ''])).toThrow('an API key cannot be empty');
    expect(() => bearerCheck(['two words'])).toThrow('an API key cannot contain whitespace (found at character 4): a Bearer token is one word');
    expect(apiKeyProblem('tab\there')).toMatch(/character 4/);
    expect(apiKeyProblem('petstore-dev-key')).toBeUndefined();
  });

  it('refuses keys no HTTP header can carry as they are: a non-ASCII or a control character (red team 7, #2)', () => {
    for (const key of ['euro-€-key', 'esc-\u001b-key', 'nul-\u0000-key', 'del-\u007f-key'])
      expect(apiKeyProblem(key), JSON.stringify(key)).toMatch(/^an API key is sent in an HTTP header, which carries visible ASCII only/);
    expect(apiKeyProblem('~!@#$%^&*()_+{}|:"<>?')).toBeUndefined();
  });
});

describe('the Authorization format', () => {
  // The format as a regular expression: the reference the hand-written reader must agree with.
  const FORMAT = /^bearer(?:[ \t]+(\S*))?[ \t]*$/i;
  function reference(authorization: string, keys: readonly string[]): string | number {
    if (authorization.trim() === '') return 'missing';
    const match = FORMAT.exec(authorization);
    if (match === null) return 'scheme';
    if (!match[1]) return 'empty';
    const index = keys.indexOf(match[1]);
    return index === -1 ? 'key' : index;
  }

  it('reads every header as the regular expression of the format does', () => {
    const keys = ['k1', 'key'];
    // Pieces that meet the format's edges: the scheme in any case, spaces, tabs, other whitespace, keys.
    const piece = fc.constantFrom(
      'Bearer',
      'bearer',
      'BEARER',
      'BeArEr',
      'Bear',
      'Basic',
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '\u2028',
      '\ufeff',
      'k1',
      'key',
      'x',
      'ſ',
      'é',
    );
    const check = bearerCheck(keys);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const header = pieces.join('');
        expect(check(header)).toBe(reference(header, keys));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('the key comparison', () => {
  /** A header that counts how often its characters are read. */
  function counted(text: string): { value: string; reads: () => number } {
    let reads = 0;
    const value = {
      length: text.length,
      charCodeAt: (i: number) => {
        reads++;
        return text.charCodeAt(i);
      },
    };
    return { value: value as unknown as string, reads: () => reads };
  }

  it('reads as much of a refused token whatever part of it matches a key, so its time does not tell how much matched', () => {
    const check = bearerCheck(['alpha-key-0123456789', 'beta-key-9876543210']);
    const readsFor = (token: string) => {
      const header = counted(`Bearer ${token}`);
      expect(check(header.value)).toBe('key');
      return header.reads();
    };
    const reads = readsFor('xxxxxxxxxxxxxxxxxxxx');
    for (const near of ['alpha-key-012345678X', 'Xlpha-key-0123456789', 'beta-key-987654321XY', 'alpha-key-0123456789'.replace('-', '+')]) {
      expect(readsFor(near)).toBe(reads);
    }
  });

  it('compares the token with every accepted key in full, whichever one it carries', () => {
    const check = bearerCheck(['alpha-key-0123456789', 'beta-key-9876543210']);
    const readsFor = (token: string) => {
      const header = counted(`Bearer ${token}`);
      check(header.value);
      return header.reads();
    };
    // The scheme, its separator and the token's two ends (9 reads), then one read per character of each key.
    expect(readsFor('alpha-key-0123456789')).toBe(9 + 20 + 19);
    expect(readsFor('beta-key-9876543210')).toBe(9 + 20 + 19);
  });
});

describe('parseApiKey', () => {
  it('reads label=key when the label is a word and a key follows', () => {
    expect(parseApiKey('ci=s3cret')).toEqual({ label: 'ci', key: 's3cret' });
    expect(parseApiKey('qa-team.eu=a=b')).toEqual({ label: 'qa-team.eu', key: 'a=b' });
  });

  it('reads label:key, and a label with nothing after it as an empty key', () => {
    expect(parseApiKey('ci:s3cr=t')).toEqual({ label: 'ci', key: 's3cr=t' });
    expect(parseApiKey('ci:')).toEqual({ label: 'ci', key: '' });
    expect(parseApiKey('ci=')).toEqual({ label: 'ci', key: '' });
  });

  it('keeps a padded base64 key whole, even one whose head reads as a label (issue 23)', () => {
    for (const value of ['Zm9vYmFyYmF6cXV4MTIzNDU2Nzg=', 'qa-team=', 'ab_c-d==']) expect(parseApiKey(value)).toBe(value);
  });

  it('keeps every other value whole, base64 padding included', () => {
    for (const value of ['petstore-dev-key', 'dGVzdA==', 'abc=', '=abc', '1ci=key', 'two words=key', `${'x'.repeat(33)}=key`])
      expect(parseApiKey(value)).toBe(value);
  });
});
