import { describe, expect, it } from 'vitest';
import { andThen } from './pending.js';

describe('andThen', () => {
  it('applies the function at once to a value that is here', () => {
    let seen: number | undefined;
    const result = andThen(2, (value) => {
      seen = value;
      return value * 3;
    });
    expect(result).toBe(6);
    expect(seen).toBe(2);
  });

  it('applies the function later to a promised value, and passes a rejection on', async () => {
    const result = andThen(Promise.resolve(2), (value) => value * 3);
    expect(result).toBeInstanceOf(Promise);
    await expect(result).resolves.toBe(6);
    await expect(andThen(Promise.reject(new Error('no')), () => 1)).rejects.toThrow('no');
  });
});
