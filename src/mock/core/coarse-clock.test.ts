import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coarseClock } from './coarse-clock.js';

describe('coarseClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the clock once for the calls of the same moment, and again once its timer has run', async () => {
    let time = 1_000;
    const read = vi.fn(() => time);
    const now = coarseClock(read);
    expect([now(), now(), now()]).toEqual([1_000, 1_000, 1_000]);
    expect(read).toHaveBeenCalledTimes(1);
    time = 2_000;
    await sleep(5);
    expect(now()).toBe(2_000);
    expect(read).toHaveBeenCalledTimes(2);
    // The one timer, set again for the second reading, runs again: the clock moves on every time.
    time = 3_000;
    await sleep(5);
    expect([now(), now()]).toEqual([3_000, 3_000]);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it("keeps moving when a test's fake timers are installed after it was made", async () => {
    let time = 1_000;
    const now = coarseClock(() => time);
    vi.useFakeTimers();
    expect(now()).toBe(1_000);
    time = 2_000;
    vi.useRealTimers();
    await sleep(5);
    expect(now()).toBe(2_000);
  });
});
