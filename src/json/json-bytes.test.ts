import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextBytes } from './json-bytes.js';

describe('jsonTextBytes', () => {
  it("is the UTF-8 bytes JSON.stringify writes for a value's strings and names, escapes included", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), (record) => {
        const text = Object.entries(record)
          .map(([key, value]) => JSON.stringify(key) + JSON.stringify(value))
          .join('');
        expect(jsonTextBytes(record)).toBe(Buffer.byteLength(text));
      }),
    );
    expect(jsonTextBytes({ name: '\u0001'.repeat(1_000) })).toBe(6 + 2 + 6_000);
    expect(jsonTextBytes({ a: '\ud800', b: '😀' })).toBe(3 + 8 + 3 + 6);
  });
});
