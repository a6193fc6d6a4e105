import { describe, expect, it } from 'vitest';
import { Budget } from './budget.js';

describe('Budget', () => {
  it('keeps each owner within its bound and all owners within the total, in bytes and in count', () => {
    const budget = new Budget({ ownerBytes: 10, totalBytes: 15, ownerCount: 3, totalCount: 4 });
    const [a, b] = [budget.share(), budget.share()];
    expect(a.take(10, 1)).toBeUndefined();
    expect(a.take(1)).toBe('owner bytes');
    expect(b.take(6)).toBe('total bytes');
    expect(b.take(5, 4)).toBe('owner count');
    expect(b.take(5, 2)).toBeUndefined();
    expect(a.take(0, 2)).toBe('total count');
    expect([budget.bytes, budget.count]).toEqual([15, 3]);
  });

  it('always lets an owner give back, and a released owner gives back all it held', () => {
    const budget = new Budget({ totalBytes: 10 });
    const a = budget.share();
    a.adjust(12);
    expect(a.take(-1)).toBeUndefined();
    a.release();
    expect(budget.bytes).toBe(0);
    // Released: what it takes counts against its own bound only.
    expect(a.take(-11 + 10)).toBeUndefined();
    expect(budget.bytes).toBe(0);
    expect(budget.share().take(10)).toBeUndefined();
  });

  it('says when a share that keeps its newest holds too much, so that its oldest go', () => {
    const kept = new Budget({ totalBytes: 10, totalCount: 2 }).share();
    kept.adjust(4, 1);
    kept.adjust(4, 1);
    expect(kept.exceeded).toBe(false);
    kept.adjust(1, 1);
    expect(kept.exceeded).toBe(true);
    kept.adjust(-4, -1);
    expect(kept.exceeded).toBe(false);
  });
});
