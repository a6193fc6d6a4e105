import { describe, expect, it } from 'vitest';
import { MockClock, parseClockBody } from './clock.js';

describe('MockClock', () => {
  it('keeps ticking from the time it was set to, and goes back to its base clock on reset', () => {
    let base = 1_000;
    const clock = new MockClock(() => base);
    clock.set(50_000);
    base += 10;
    expect(clock.now()).toBe(50_010);
    clock.reset();
    expect(clock.now()).toBe(1_010);
  });

  it('starts ahead of its base clock by the offset it is given, as a shared store keeps it', () => {
    const clock = new MockClock(() => 1_000, 86_400_000);
    expect(clock.now()).toBe(86_401_000);
    clock.reset();
    expect(clock.now()).toBe(1_000);
  });
});

describe('parseClockBody', () => {
  it('reads an ISO date, or null for the base clock', () => {
    expect(parseClockBody('{"now":"2031-01-01T00:00:00Z"}')).toEqual({ time: Date.UTC(2031, 0, 1) });
    expect(parseClockBody('{"now":null}')).toEqual({ time: null });
  });

  it('says what is wrong otherwise', () => {
    expect(parseClockBody('')).toEqual({ error: expect.stringMatching(/not valid JSON/) });
    expect(parseClockBody('"2031"')).toEqual({ error: expect.stringMatching(/JSON object with `now`/) });
    expect(parseClockBody('{"now":1}')).toEqual({ error: expect.stringMatching(/ISO 8601 date .* got 1/) });
  });
});
