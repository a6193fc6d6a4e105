import { describe, expect, it } from 'vitest';
import { integerDenoted } from './integer-spellings.js';

describe('integerDenoted', () => {
  it('reads the integer each spelling of it denotes, whatever its sign, spaces, leading zeros, zero fraction or exponent', () => {
    for (const spelling of ['123', '+123', ' 123', '123 ', '0123', '123.0', '123.000', '123e0', '12.3e1', '1230e-1', '1.23E2'])
      expect([spelling, integerDenoted(spelling)]).toEqual([spelling, 123n]);
    expect(integerDenoted('-0')).toBe(0n);
    expect(integerDenoted('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(integerDenoted('9007199254740993.0')).toBe(2n ** 53n + 1n);
  });

  it('reads another integer where the spelling denotes one: 123e1 is 1230', () => {
    expect(integerDenoted('123e1')).toBe(1230n);
  });

  it('reads no integer in a text that denotes none: text, a fraction, hex, no digits, a number past every int64', () => {
    for (const spelling of ['123abc', '123.5', '12.35e1', '0x10', '', ' ', '+', '1_000', '.5', '5.', '1e99999', '1'.repeat(41)])
      expect([spelling, integerDenoted(spelling)]).toEqual([spelling, undefined]);
  });
});
