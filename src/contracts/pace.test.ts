import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { DeadlineError } from '../errors.js';
import { sleepUnlessAborted, waits } from './pace.js';

const realSchedule = waits.schedule;
afterEach(() => {
  waits.schedule = realSchedule;
});

describe('sleepUnlessAborted', () => {
  it('puts one listener on the deadline however many waits are on it (Node 20 warns past ten: MaxListenersExceededWarning)', async () => {
    const pending: (() => void)[] = [];
    waits.schedule = (_, done) => {
      pending.push(done);
      return () => {};
    };
    const deadline = new AbortController();
    const sleeps = Array.from({ length: 25 }, () => sleepUnlessAborted(1_000, deadline.signal));
    expect(getEventListeners(deadline.signal, 'abort')).toHaveLength(1);
    for (const done of pending) done();
    await Promise.all(sleeps);
  });

  it('ends every wait at once when the deadline falls', async () => {
    waits.schedule = () => () => {};
    const deadline = new AbortController();
    const sleeps = Array.from({ length: 12 }, () => sleepUnlessAborted(60_000, deadline.signal));
    deadline.abort();
    for (const sleep of sleeps) await expect(sleep).rejects.toBeInstanceOf(DeadlineError);
    await expect(sleepUnlessAborted(1, deadline.signal)).rejects.toBeInstanceOf(DeadlineError);
  });
});
