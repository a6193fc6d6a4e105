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

  it('keeps a key in use however many others pass once, and at most twice `capacity` characters of keys', () => {
    const seen: string[] = [];
    const echo = memoize((key) => {
      seen.push(key);
      return key;
    }, 4);
    // 'hot' is asked again between each pair of keys seen once: it is never computed again.
    const once = Array.from({ length: 20 }, (_, i) => `k${i}`);
    for (const key of once) {
      echo('hot');
      echo(key);
    }
    expect(seen.filter((key) => key === 'hot')).toEqual(['hot']);
    expect(seen.filter((key) => key !== 'hot')).toEqual(once);
    // The latest key seen once is still known; the first, 20 keys and more than twice 4 characters ago, is not.
    const computed = seen.length;
    echo('k19');
    echo('k0');
    expect(seen.slice(computed)).toEqual(['k0']);
  });

  it('never keeps a key longer than `capacity`', () => {
    let computed = 0;
    const count = memoize(() => ++computed, 3);
    count('long key');
    count('long key');
    expect(computed).toBe(2);
  });
});
