import { describe, expect, it } from 'vitest';
import { overlongNumber } from './number-length.js';

describe('overlongNumber', () => {
  it('finds the first number longer than the limit, where it starts, never digits inside a string', () => {
    expect(overlongNumber(`[{"id":${'9'.repeat(101)}}]`)).toEqual({ at: 7, length: 101 });
    expect(overlongNumber(`{"n":-1.5e+${'0'.repeat(95)}}`)).toEqual({ at: 5, length: 101 });
    expect(overlongNumber(`{"id":${'9'.repeat(100)}}`)).toBeUndefined();
    expect(overlongNumber(`{"name":"${'9'.repeat(1000)}","q":"\\"${'1'.repeat(1000)}"}`)).toBeUndefined();
  });
});
