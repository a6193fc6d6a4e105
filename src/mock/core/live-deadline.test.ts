import { describe, expect, it } from 'vitest';
import { liveDeadline } from './live-deadline.js';

/** Keeps the event loop busy for `ms`, as making a large answer does. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('liveDeadline', () => {
  it('does not count a stall of its own process: an answer that came meanwhile is read first', async () => {
    let expired = false;
    const deadline = liveDeadline(20, () => {
      expired = true;
    });
    // The answer is there once the loop is free again, after the deadline was due.
    setImmediate(() => setImmediate(() => deadline.clear()));
    // Past the deadline and the 100 ms a timer may run late on a busy machine.
    stall(300);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(expired).toBe(false);
  });

  it('ends a wait for an answer that never comes', async () => {
    const expired = await new Promise<boolean>((resolve) => {
      liveDeadline(20, () => resolve(true));
      stall(100);
    });
    expect(expired).toBe(true);
  });
});
