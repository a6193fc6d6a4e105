import { describe, expect, it } from 'vitest';
import { excerpt, shortened } from './excerpt-text.js';

describe('shortened', () => {
  it('makes each run of 202 characters or more without a space an excerpt, and leaves the spaces and shorter runs as they are', () => {
    const text = `a b\t${'x'.repeat(201)} ${'y'.repeat(202)}\nz`;
    expect(shortened(text)).toBe(`a b\t${'x'.repeat(201)} ${excerpt('y'.repeat(202))}\nz`);
    expect(shortened(shortened(text))).toBe(shortened(text));
  });

  it('shortens a run of 20 million characters (a regular expression overflowed its stack on it) and a text of many long runs', () => {
    expect(shortened('x'.repeat(20_000_000))).toBe(excerpt('x'.repeat(20_000_000)));
    const many = shortened(`${'a'.repeat(300)} `.repeat(100_000));
    expect(many.length).toBeLessThan(2_100);
    expect(many).toMatch(/characters left out/);
  });
});
