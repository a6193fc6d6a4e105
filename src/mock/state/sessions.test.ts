import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seededPets } from '../../fixtures/seed.js';
import { SeedIndex } from './seed-index.js';
import { DEFAULT_SESSION, SESSION_BYTES, SESSIONS_BYTES, Sessions, sessionName, sessionsOpenable } from './sessions.js';

const options = { seed: new SeedIndex(seededPets(1, 3)), now: () => 0, ttl: 1_000, max: 2 };

afterEach(() => {
  vi.useRealTimers();
});

describe('sessionName', () => {
  it('is the default session without a header, the name when it is one, and undefined otherwise', () => {
    expect(sessionName(undefined)).toBe(DEFAULT_SESSION);
    expect(sessionName('worker-1.chromium_~')).toBe('worker-1.chromium_~');
    for (const bad of ['', ' ', 'a b', 'a/b', 'a%2Fb', 'ü', 'x'.repeat(65)]) expect(sessionName(bad)).toBeUndefined();
  });
});

describe('Sessions', () => {
  // Time moves only when a test moves it: on a loaded machine, opening 6,553 sessions took longer than
  // the ttl of 1 s, and the first ones expired under the test's feet.
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it("reads a session's clock without opening it: one not open reads the base clock, not the default session's", async () => {
    const sessions = new Sessions(options);
    sessions.default.clock.set(5_000);
    expect(sessions.now('r')).toBe(0);
    expect(await sessions.list()).toEqual([]);
    sessions.open('r')?.clock.set(9_000);
    expect(sessions.now('r')).toBe(9_000);
    expect(sessions.now(DEFAULT_SESSION)).toBe(5_000);
  });

  it('opens named sessions from the seed up to the cap; the default session does not count', () => {
    const sessions = new Sessions(options);
    expect(sessions.open('a')?.store.size).toBe(3);
    expect(sessions.open('b')).toBeDefined();
    expect(sessions.open('c')).toBeUndefined();
    expect(sessions.open(DEFAULT_SESSION)).toBe(sessions.default);
    expect(sessions.open('a')).toBe(sessions.open('a'));
  });

  it('opens named sessions up to their own bytes (SESSIONS_BYTES) whatever the cap; a drop or resetAll gives the room back', () => {
    const sessions = new Sessions({ ...options, max: 100_000 });
    const openable = SESSIONS_BYTES / SESSION_BYTES;
    expect(sessionsOpenable(100_000)).toBe(Math.floor(openable));
    expect(sessionsOpenable(100)).toBe(100);
    for (let i = 0; i < sessionsOpenable(100_000); i++) expect(sessions.open(`s${i}`)).toBeDefined();
    expect(sessions.open('one-more')).toBeUndefined();
    expect(sessions.open('s0')).toBeDefined();
    expect(sessions.drop('s0')).toBe(true);
    expect(sessions.open('one-more')).toBeDefined();
    expect(sessions.open('two-more')).toBeUndefined();
    sessions.resetAll();
    expect(sessions.open('two-more')).toBeDefined();
  });

  it('drops sessions idle for ttl milliseconds, least recently used first, and keeps those in use', async () => {
    const sessions = new Sessions(options);
    sessions.open('a');
    sessions.open('b');
    vi.advanceTimersByTime(600);
    sessions.open('a');
    vi.advanceTimersByTime(600);
    expect((await sessions.list()).map((session) => session.name)).toEqual(['a']);
    expect(sessions.open('c')).toBeDefined();
    vi.advanceTimersByTime(1_000);
    expect(await sessions.list()).toEqual([]);
  });

  it('resets a session to the seed and its clock to the base clock; resetAll drops every named one', () => {
    const sessions = new Sessions(options);
    const a = sessions.open('a');
    a?.store.create({ name: 'Rex', categoryId: 1, status: 'sold' });
    a?.clock.set(5_000);
    sessions.reset('a');
    expect([a?.store.size, a?.clock.now()]).toEqual([3, 0]);
    sessions.reset('never-opened');
    expect(sessions.find('never-opened')).toBeUndefined();
    sessions.default.store.create({ name: 'Rex', categoryId: 1, status: 'sold' });
    sessions.resetAll();
    expect([sessions.default.store.size, sessions.find('a')]).toEqual([3, undefined]);
  });
});
