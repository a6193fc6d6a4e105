import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageWithin } from './page-within.js';

const bytes = (text: string) => Buffer.byteLength(text);

describe('pageWithin', () => {
  it('keeps a page within the bytes as the first pets that fit, at least one, each whole', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.nat(), name: fc.string({ unit: 'binary' }) }), { maxLength: 12 }),
        fc.integer({ min: 2, max: 400 }),
        (pets, max) => {
          const body = JSON.stringify(pets);
          const cut = pageWithin(body, max);
          const kept = JSON.parse(cut) as unknown[];
          expect(kept).toEqual(pets.slice(0, kept.length));
          if (kept.length > 1 || pets.length === 0) expect(bytes(cut)).toBeLessThanOrEqual(Math.max(max, 2));
          if (kept.length < pets.length) expect(bytes(JSON.stringify(pets.slice(0, kept.length + 1)))).toBeGreaterThan(max);
          if (pets.length > 0) expect(kept.length).toBeGreaterThan(0);
        },
      ),
    );
  });

  it('reads names by JSON grammar: commas, braces and escaped quotes inside them end no pet', () => {
    const pets = [
      { id: 1, name: '},{"x":"\\"]' },
      { id: 2, name: '中'.repeat(10) },
    ];
    expect(pageWithin(JSON.stringify(pets), 40)).toBe(JSON.stringify(pets.slice(0, 1)));
    expect(pageWithin(JSON.stringify(pets), 200)).toBe(JSON.stringify(pets));
  });
});
