import { describe, expect, it } from 'vitest';
import { numberOfRandomId, randomIdOf } from './random-ids.js';

describe('random-looking ids', () => {
  it('are positive int64 values, in no order, and lead back to their pet number', () => {
    const ids = [1, 2, 3, 4, 5, 1_000_000].map(randomIdOf);
    expect(ids.every((id) => id > 0n && id < 2n ** 63n)).toBe(true);
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).not.toEqual(ids);
    expect(ids.map(numberOfRandomId)).toEqual([1, 2, 3, 4, 5, 1_000_000]);
  });

  it('lead ids no pet has nowhere near a small pet number', () => {
    expect(numberOfRandomId(0)).toBe(0);
    expect(numberOfRandomId(-5)).toBe(0);
    expect(numberOfRandomId(2n ** 63n)).toBe(0);
    expect(numberOfRandomId(1)).toBeGreaterThan(1_000_000);
  });
});
