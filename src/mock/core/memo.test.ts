import { describe, expect, it } from 'vitest';
import { memoize } from './memo.js';

describe('memoize', () => {
  it('computes once per key, undefined results included', () => {
    const seen: string[] = [];
    const length = memoize((key) => {
      seen.push(key);
      return key === 'none' ? undefined : key.length;
    });
    expect([length('abc'), length('abc'), length('none'), length('none'), length('de')]).toEqual([3, 3, undefined, undefined, 2]);
    expect(seen).toEqual(['abc', 'none', 'de']);
  });

  it('holds at most `capacity` keys, starting over when full', () => {
    const seen: string[] = [];
    const echo = memoize((key) => {
      seen.push(key);
      return key;
    }, 2);
    for (const key of ['a', 'b', 'c', 'a']) echo(key);
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });
});
