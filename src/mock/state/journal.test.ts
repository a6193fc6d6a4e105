import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryFilter, type JournalEntry, type JournalRecord, journalSession, MemoryJournal, newestWithin, parseJournalFilter } from './journal.js';
import { JOURNAL_SESSION_BYTES, JOURNAL_TOTAL_BYTES, JournalRings, RecordRing, textBytes } from './journal-ring.js';

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

describe('the journal, bounded in bytes as well as in records', () => {
  /** A record of `session` whose target is `length` characters: 128 + 2 × (length + 3 for GET) bytes as a ring counts it. */
  const sized = (session: string, length: number, tag: string): JournalRecord => ({ ...record(session, `/${tag}`.padEnd(length, 'x')), operation: undefined });
  const bytes = (length: number) => 128 + 2 * (length + 3);
  const targets = (ring: RecordRing | undefined) => (ring?.records() ?? []).map(({ record: kept }) => kept.target.replace(/x+$/, ''));

  it('states its bounds once: 4 MiB a session, 32 MiB in all', () => {
    expect([JOURNAL_SESSION_BYTES, JOURNAL_TOTAL_BYTES]).toEqual([4 * 1024 * 1024, 32 * 1024 * 1024]);
  });

  it('counts a string as the greater of its memory and its JSON: a control character as its 6-byte escape', () => {
    expect(textBytes('pets')).toBe(8);
    expect(textBytes('\u0001')).toBe(6);
    expect(textBytes('"\\')).toBe(4);
    expect(textBytes('\u20ac'.repeat(3))).toBe(9);
    expect(textBytes('\ud800')).toBe(6);
    for (const text of ['\u0000\u001f', 'a"b', '\u00e9t\u00e9', '\u{1f600}', 'plain'])
      expect(textBytes(text)).toBeGreaterThanOrEqual(Math.max(2 * text.length, Buffer.byteLength(JSON.stringify(text)) - 2));
  });

  it('answers the newest entries whose JSON fits in a page, saying when older ones were left out', () => {
    const entries = [3, 2, 1].map((id) => entry({ id, path: `/v1/${'x'.repeat(1000)}` }));
    const size = JSON.stringify(entries[0]).length + 1;
    expect(newestWithin(entries, 2 + 2 * size)).toEqual({ entries: [entries[1], entries[0]], truncated: true });
    expect(newestWithin(entries, 2 + 3 * size)).toEqual({ entries: [...entries].reverse() });
  });

  it('counts a record sent again (equal strings, each its own copy) as it counts the first', () => {
    const ring = new RecordRing('a', 4);
    const sent = ['/v1/\u0001a', '/v1/\u0001a', '/v1/b', '/v1/\u0001a', '/v1/\u0001a', '/v1/b', '/v1/b'];
    const expected = (target: string) => 128 + textBytes('GET') + textBytes(target) + textBytes('listPets');
    sent.forEach((target, i) => {
      // A string of its own each time, as each request's parser makes it.
      ring.push(record('a', [...target].join('')), i + 1);
    });
    expect(ring.bytes).toBe(sent.slice(-4).reduce((sum, target) => sum + expected(target), 0));
    const kept = ring.records().map(({ record: { target } }) => target);
    expect(kept).toEqual(sent.slice(-4));
  });

  it('keeps the newest records of a session that fit in its bytes, however few, and always the last one', () => {
    const ring = new RecordRing('a', 100, bytes(1000) * 3);
    for (let i = 1; i <= 5; i++) ring.push(sized('a', 1000, `r${i}`), i);
    expect(targets(ring)).toEqual(['/r3', '/r4', '/r5']);
    expect(ring.bytes).toBe(bytes(1000) * 3);
    ring.push(sized('a', 10_000, 'huge'), 6);
    expect(targets(ring)).toEqual(['/huge']);
    ring.push(sized('a', 10, 'small'), 7);
    expect(targets(ring)).toEqual(['/small']);
  });

  it('files every session past the total under it, dropping whole rings least recently written, never the default one', () => {
    const rings = new JournalRings({ size: 100, maxRings: 10, sessionBytes: bytes(100) * 10, totalBytes: bytes(100) * 4 });
    rings.push(sized('default', 100, 'd1'), 1);
    rings.push(sized('a', 100, 'a1'), 2);
    rings.push(sized('b', 100, 'b1'), 3);
    rings.push(sized('a', 100, 'a2'), 4);
    expect(rings.bytes).toBe(bytes(100) * 4);
    rings.push(sized('c', 100, 'c1'), 5);
    expect([...rings.names()]).toEqual(['default', 'a', 'c']);
    rings.push(sized('c', 100, 'c2'), 6);
    rings.push(sized('c', 100, 'c3'), 7);
    expect([...rings.names()]).toEqual(['default', 'c']);
    expect(targets(rings.get('default'))).toEqual(['/d1']);
    expect(rings.bytes).toBeLessThanOrEqual(bytes(100) * 4);
  });

  it('keeps what a model of the bounds keeps, whatever the sessions and sizes (fast-check)', () => {
    // 12 records a session: a ring grows from 8 to 12 slots, and wraps.
    const bounds = { size: 12, maxRings: 3, sessionBytes: bytes(60) * 14, totalBytes: bytes(60) * 30 };
    const pushes = fc.array(fc.tuple(fc.constantFrom('default', 'a', 'b', 'c', 'd', 'e'), fc.integer({ min: 1, max: 150 })), { minLength: 30, maxLength: 120 });
    fc.assert(
      fc.property(pushes, (sent) => {
        const rings = new JournalRings(bounds);
        // The model: a list per session, in the order of last write.
        const model = new Map<string, { tag: string; bytes: number }[]>();
        const total = () => [...model.values()].flat().reduce((sum, kept) => sum + kept.bytes, 0);
        sent.forEach(([session, length], i) => {
          const pushed = sized(session, length, `${session}${i}`);
          rings.push(pushed, i + 1);
          const list = model.get(session) ?? [];
          model.delete(session);
          if (list.length === 0 && session !== 'default' && [...model.keys()].filter((name) => name !== 'default').length >= bounds.maxRings) {
            const oldest = [...model.keys()].find((name) => name !== 'default');
            if (oldest !== undefined) model.delete(oldest);
          }
          list.push({ tag: `/${session}${i}`, bytes: bytes(pushed.target.length) });
          if (list.length > bounds.size) list.shift();
          while (list.reduce((sum, kept) => sum + kept.bytes, 0) > bounds.sessionBytes && list.length > 1) list.shift();
          model.set(session, list);
          while (total() > bounds.totalBytes) {
            const oldest = [...model.keys()].find((name) => name !== 'default' && name !== session);
            if (oldest === undefined) break;
            model.delete(oldest);
          }
        });
        expect(Object.fromEntries([...rings.names()].map((name) => [name, targets(rings.get(name))]))).toEqual(
          Object.fromEntries([...model].map(([name, list]) => [name, list.map((kept) => kept.tag)])),
        );
        expect(rings.bytes).toBe(total());
      }),
      { numRuns: 300 },
    );
  });
});

describe('journalSession', () => {
  it('files a request under the session it named only once it passed the key check', () => {
    expect(journalSession(true, 'alice')).toBe('alice');
    expect(journalSession(false, 'alice')).toBe('default');
    expect(journalSession(true, undefined)).toBe('default');
  });
});
