import { describe, expect, it } from 'vitest';
import { entryFilter, type JournalEntry, type JournalRecord, MemoryJournal, parseJournalFilter } from './journal.js';
import { RecordRing } from './journal-ring.js';

const entry = (fields: Partial<JournalEntry>): JournalEntry => ({
  id: 1,
  time: '2026-01-01T00:00:00.000Z',
  session: 'default',
  method: 'GET',
  path: '/v1/pets',
  query: '',
  headers: {},
  status: 200,
  operation: 'listPets',
  rule: 'operation',
  latencyMs: 0,
  ...fields,
});

const record = (session: string, target: string): JournalRecord => ({
  time: 0,
  session,
  method: 'GET',
  target,
  contentType: undefined,
  accept: undefined,
  prefer: undefined,
  sessionHeader: undefined,
  authorization: undefined,
  body: undefined,
  bodyTruncated: false,
  status: 200,
  operation: 'listPets',
  rule: 'operation',
  latencyMs: 0,
  keyLabel: undefined,
});

describe('RecordRing', () => {
  it('numbers later the records pushed without an id, oldest first, and only as many as it was told', () => {
    const ring = new RecordRing('default', 3);
    ring.push(record('default', '/a'), 0);
    ring.push(record('default', '/b'), 0);
    expect(ring.unnumbered()).toBe(2);
    expect(ring.records()).toEqual([]);
    ring.number(10, 2);
    ring.push(record('default', '/c'), 0);
    ring.push(record('default', '/d'), 0);
    expect(ring.unnumbered()).toBe(2);
    // One of the two counted, then another pushed before the ids came: the oldest waiting gets the id.
    ring.push(record('default', '/e'), 0);
    ring.number(12, 1);
    expect(ring.records().map(({ id, record: { target } }) => [id, target])).toEqual([[12, '/c']]);
    expect(ring.unnumbered()).toBe(2);
    ring.number(13, 2);
    expect(ring.records().map(({ id, record: { target } }) => [id, target])).toEqual([
      [12, '/c'],
      [13, '/d'],
      [14, '/e'],
    ]);
    expect(ring.last).toBe(14);
  });

  it('keeps the last `size` records with their ids, oldest first, each field as it was given', () => {
    const ring = new RecordRing('a', 3);
    expect(ring.records()).toEqual([]);
    expect(ring.last).toBe(0);
    const kept = (i: number): JournalRecord => ({
      ...record('a', `/v1/pets/${i}`),
      time: 1000.5 + i,
      accept: 'text/plain',
      body: `body ${i}`,
      bodyTruncated: i % 2 === 0,
      rule: i % 2 === 0 ? 'session-cap' : 'error',
      status: 400 + i,
      latencyMs: i / 10,
      keyLabel: 'ci',
      operation: undefined,
    });
    for (let i = 1; i <= 5; i++) ring.push(kept(i), i * 10);
    expect(ring.records()).toEqual([3, 4, 5].map((i) => ({ id: i * 10, record: kept(i) })));
    expect(ring.records(40).map(({ id }) => id)).toEqual([50]);
    expect(ring.last).toBe(50);
  });
});

describe('entryFilter', () => {
  it('matches a method in any case, a path with *, a status or its class, an operation, and ids after since', () => {
    expect(entryFilter({ method: 'get' })(entry({}))).toBe(true);
    expect(entryFilter({ path: '/v1/pets/*' })(entry({ path: '/v1/pets/7' }))).toBe(true);
    expect(entryFilter({ path: '/v1/pets/*' })(entry({ path: '/v1/pets' }))).toBe(false);
    expect(entryFilter({ path: '/v1/pets.json' })(entry({ path: '/v1/petsXjson' }))).toBe(false);
    expect(entryFilter({ status: '4xx' })(entry({ status: 404 }))).toBe(true);
    expect(entryFilter({ status: 404 })(entry({ status: 400 }))).toBe(false);
    expect(entryFilter({ operation: 'getPet' })(entry({}))).toBe(false);
    expect(entryFilter({ since: 1 })(entry({ id: 1 }))).toBe(false);
  });
  it('reads * as any run, stars in a row as one, and every other character as itself', () => {
    const matches = (pattern: string, path: string) => entryFilter({ path: pattern })(entry({ path }));
    expect(matches('*', '')).toBe(true);
    expect(matches('/v1/*/7', '/v1/pets/7')).toBe(true);
    expect(matches('*pets*pets', '/v1/pets/pets')).toBe(true);
    expect(matches('*pets*pets', '/v1/pets')).toBe(false);
    expect(matches('a*a', 'a')).toBe(false);
    expect(matches('/v1/pets/(7)', '/v1/pets/(7)')).toBe(true);
    expect(matches('/v1/pets/[7]+', '/v1/pets/7')).toBe(false);
    expect(matches('**', '/anything')).toBe(true);
  });

  it('tests a hostile pattern (stars by the thousand) against a long path at once, not by backtracking', () => {
    // As a RegExp, four stars and an `x` against 600 characters took 5 s of CPU; 5,000 stars, forever.
    // CPU time, which a busy machine does not stretch as it does the wall clock.
    const cpuMs = (since: NodeJS.CpuUsage) => {
      const { user, system } = process.cpuUsage(since);
      return (user + system) / 1000;
    };
    let started = process.cpuUsage();
    expect(entryFilter({ path: '****x' })(entry({ path: `/v1/${'a'.repeat(600)}` }))).toBe(false);
    expect(cpuMs(started)).toBeLessThan(500);
    started = process.cpuUsage();
    const path = `/v1/${'a'.repeat(8000)}`;
    expect(entryFilter({ path: `${'*'.repeat(5000)}x` })(entry({ path }))).toBe(false);
    expect(entryFilter({ path: `/v1/${'*a'.repeat(3000)}!` })(entry({ path }))).toBe(false);
    expect(entryFilter({ path: `${'*a'.repeat(3000)}` })(entry({ path }))).toBe(true);
    expect(cpuMs(started)).toBeLessThan(1000);
  });
});

describe('parseJournalFilter', () => {
  it('reads the filters of a query, and says what is wrong with one', () => {
    expect(parseJournalFilter(new URLSearchParams('method=POST&status=4xx&since=3'))).toEqual({ method: 'POST', status: '4xx', since: 3 });
    expect(parseJournalFilter(new URLSearchParams('limit=3'))).toEqual({ error: expect.stringMatching(/^limit is not a filter/) });
    expect(parseJournalFilter(new URLSearchParams('since=-1'))).toEqual({ error: expect.stringMatching(/^since must be/) });
    expect(parseJournalFilter(new URLSearchParams('status=600'))).toEqual({ error: expect.stringMatching(/^status must be/) });
  });
});

describe('MemoryJournal', () => {
  const format = (kept: JournalRecord, id: number) => entry({ id, session: kept.session, path: kept.target });

  it('keeps a ring for the default session and at most maxRings named ones, the least recently written going first', () => {
    const journal = new MemoryJournal({ size: 2, maxRings: 2, format });
    journal.record(record('default', '/d'));
    journal.record(record('a', '/a'));
    journal.record(record('b', '/b'));
    journal.record(record('a', '/a2'));
    journal.record(record('c', '/c'));
    expect(journal.list({ session: 'b' }).entries).toEqual([]);
    expect(journal.list({ session: 'a' }).entries.map((kept) => kept.path)).toEqual(['/a', '/a2']);
    expect(journal.list({}).entries.map((kept) => kept.path)).toEqual(['/d']);
    expect(journal.list({}).last).toBe(5);
  });
});
