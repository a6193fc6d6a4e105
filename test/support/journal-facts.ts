/**
 * The request journal's facts, as one suite run against every host of the handler (in process, the
 * Node server, MSW): what each entry holds, the rule that decided it, sessions, bounds, filters, and
 * that no key ever shows, in any form. Each fact reads the journal both from code (`mock.requests`)
 * and over HTTP (`GET /__mock/requests`), which must agree.
 */
import { describe, expect, it } from 'vitest';
import type { MockOptions } from '../../src/mock/create-mock-api.js';
import type { JournalEntry, JournalPage } from '../../src/mock/state/journal.js';
import { ADMIN, AUTH, JSON_HEADERS, type MockTarget, type StartTarget, selfChecked, withStarted } from './http-facts.js';

const SECRET = 's3cr+t/k=y';
const SECRET_AUTH = { authorization: `Bearer ${SECRET}` };
/** Every form the request log hides; the journal must show none of them. */
const SECRET_FORMS = [SECRET, encodeURIComponent(SECRET), encodeURIComponent(encodeURIComponent(SECRET)), btoa(SECRET), btoa(SECRET).replace(/=+$/, '')];

/** The journal read over HTTP, with the session header when one is given. */
async function page(target: MockTarget, query = '', session?: string): Promise<JournalPage> {
  const response = await target.request(`/__mock/requests${query}`, { headers: session === undefined ? {} : { 'x-mock-session': session } });
  expect(response.status).toBe(200);
  return (await response.json()) as JournalPage;
}

export function runJournalFacts(host: string, startHost: StartTarget): void {
  // The self-check on throughout: every response here is checked against spec/openapi.yaml too.
  const start = selfChecked(startHost);
  const withTarget = (options: MockOptions, body: (target: MockTarget) => Promise<void>) => withStarted(start, options, body);

  describe(`${host}: the request journal`, () => {
    it('journals each API request, oldest first: method, path, query, headers, body, status, operation, rule, latency', () =>
      withTarget({}, async (target) => {
        await target.request('/pets?limit=2', { headers: { ...AUTH, accept: 'application/json' } });
        const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
        await target.request('/pets', { method: 'POST', headers: { ...JSON_HEADERS, prefer: 'delay=20' }, body });
        await target.request('/__mock/health');
        const entries = await target.mock.requests();
        expect(entries).toHaveLength(2);
        const [list, create] = entries as [JournalEntry, JournalEntry];
        expect(list).toMatchObject({
          session: 'default',
          method: 'GET',
          path: '/v1/pets',
          query: 'limit=2',
          headers: { authorization: 'Bearer ***', accept: 'application/json' },
          status: 200,
          operation: 'listPets',
          rule: 'operation',
        });
        expect(list.body).toBeUndefined();
        expect(create).toMatchObject({ method: 'POST', body, status: 201, operation: 'createPet', rule: 'operation', headers: { prefer: 'delay=20' } });
        expect(create.id).toBeGreaterThan(list.id);
        // delay=20 waited 20 ms, and the latency counts it. A Node timer is set from the event loop's clock, read at the
        // start of the turn in whole milliseconds, so by the clock the journal reads it may fire up to 2 ms early
        // (CI saw 18.9 under MSW); a latency that left the delay out would be under 1 ms.
        expect(create.latencyMs).toBeGreaterThanOrEqual(18);
        expect(Date.parse(create.time)).toBeGreaterThan(Date.now() - 60_000);
        expect((await page(target)).entries).toEqual(entries);
      }));

    it('names the rule that decided each response', () =>
      withTarget({ maxSessions: 0 }, async (target) => {
        const sent: [string, RequestInit][] = [
          ['/pets', {}],
          ['/elsewhere', { headers: AUTH }],
          ['/pets/1', { method: 'DELETE', headers: AUTH }],
          ['/pets', { headers: { ...AUTH, 'x-mock-session': 'bad name!' } }],
          ['/pets', { headers: { ...AUTH, prefer: 'code=abc' } }],
          ['/pets?limit=0', { headers: AUTH }],
          ['/pets', { headers: { ...AUTH, prefer: 'code=503' } }],
          ['/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'Rex' }],
          ['/pets', { headers: { ...AUTH, 'x-mock-session': 'one-too-many' } }],
          ['/pets/1', { headers: AUTH }],
        ];
        for (const [path, init] of sent) await target.request(path, init);
        const decided = (await target.mock.requests()).map(({ status, rule }) => `${status} ${rule}`);
        expect(decided).toEqual([
          '401 auth',
          '404 route',
          '405 route',
          '400 session',
          '400 prefer',
          '400 validation',
          '503 prefer',
          '415 validation',
          '200 operation',
        ]);
        // The capped session's own journal holds its 429.
        expect((await target.mock.requests({ session: 'one-too-many' })).map(({ status, rule }) => `${status} ${rule}`)).toEqual(['429 session-cap']);
      }));

    it('keeps a journal per session (X-Mock-Session), read from code and over HTTP', () =>
      withTarget({}, async (target) => {
        await target.request('/pets', { headers: { ...AUTH, 'x-mock-session': 'alice' } });
        await target.request('/pets/2', { headers: { ...AUTH, 'x-mock-session': 'bob' } });
        await target.request('/pets/3', { headers: AUTH });
        expect((await target.mock.requests({ session: 'alice' })).map((entry) => entry.path)).toEqual(['/v1/pets']);
        expect((await page(target, '', 'bob')).entries.map((entry) => [entry.session, entry.path, entry.headers['x-mock-session']])).toEqual([
          ['bob', '/v1/pets/2', 'bob'],
        ]);
        expect((await target.mock.requests()).map((entry) => entry.path)).toEqual(['/v1/pets/3']);
      }));

    it('keeps the last journalSize requests of a session, and its ids go on counting', () =>
      withTarget({ journalSize: 3 }, async (target) => {
        for (let limit = 1; limit <= 5; limit++) await target.request(`/pets?limit=${limit}`, { headers: AUTH });
        const { entries, last } = await page(target);
        expect(entries.map((entry) => entry.query)).toEqual(['limit=3', 'limit=4', 'limit=5']);
        expect(entries.map((entry) => entry.id)).toEqual([last - 2, last - 1, last]);
      }));

    it('filters by method, path pattern, status or class, operation and since', () =>
      withTarget({}, async (target) => {
        await target.request('/pets?limit=1', { headers: AUTH });
        await target.request('/pets/1', { headers: AUTH });
        await target.request('/pets/999999', { headers: AUTH });
        await target.request('/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Rex","categoryId":1}' });
        const paths = async (query: string) => (await page(target, query)).entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
        expect(await paths('?method=post')).toEqual(['POST /v1/pets 201']);
        expect(await paths('?path=/v1/pets/*')).toEqual(['GET /v1/pets/1 200', 'GET /v1/pets/999999 404']);
        expect(await paths('?status=4xx')).toEqual(['GET /v1/pets/999999 404']);
        expect(await paths('?status=200&operation=getPet')).toEqual(['GET /v1/pets/1 200']);
        const all = (await page(target)).entries;
        expect((await page(target, `?since=${all[1]?.id}`)).entries).toEqual(all.slice(2));
        expect((await target.mock.requests({ method: 'GET', status: '2xx' })).map((entry) => entry.path)).toEqual(['/v1/pets', '/v1/pets/1']);
        const bad = await target.request('/__mock/requests?status=teapot');
        expect(bad.status).toBe(400);
        expect(await bad.text()).toMatch(/status must be a status such as 404/);
      }));

    it('forgets on DELETE /__mock/requests and on reset; the ids go on', () =>
      withTarget({}, async (target) => {
        await target.request('/pets', { headers: AUTH });
        await target.request('/pets', { headers: { ...AUTH, 'x-mock-session': 'a' } });
        const before = (await page(target)).last;
        const cleared = await target.request('/__mock/requests', { method: 'DELETE', headers: { ...ADMIN, 'x-mock-session': 'a' } });
        expect(cleared.status).toBe(200);
        expect(await target.mock.requests({ session: 'a' })).toEqual([]);
        expect(await target.mock.requests()).toHaveLength(1);
        await target.reset();
        expect(await target.mock.requests()).toEqual([]);
        await target.request('/pets', { headers: AUTH });
        expect((await target.mock.requests())[0]?.id).toBeGreaterThan(before);
      }));

    it('cuts a body at journalBodyLimit, and hides a key the cut would have split', () =>
      withTarget({ journalBodyLimit: 20, apiKeys: [SECRET] }, async (target) => {
        const body = JSON.stringify({ name: `ab${SECRET}`, categoryId: 1 });
        await target.request('/pets', { method: 'POST', headers: { ...SECRET_AUTH, 'content-type': 'application/json' }, body });
        const [entry] = await target.mock.requests();
        expect(entry?.body).toBe('{"name":"ab***","cat');
        expect(entry?.bodyTruncated).toBe(true);
      }));

    it('never shows a key: not in the path, the query, the body, a header or the session, in any encoding the request log knows', () =>
      withTarget({ apiKeys: [SECRET] }, async (target) => {
        const headers = { ...SECRET_AUTH, 'content-type': 'application/json', prefer: `code=${SECRET}` };
        await target.request(`/pets?token=${encodeURIComponent(SECRET)}&x=${btoa(SECRET)}`, { headers });
        await target.request(`/pets/${encodeURIComponent(encodeURIComponent(SECRET))}`, { headers });
        await target.request('/pets', { method: 'POST', headers, body: JSON.stringify({ name: SECRET, categoryId: 1 }) });
        await target.request('/pets', {
          method: 'POST',
          headers: { ...SECRET_AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ name: SECRET, categoryId: 1 }),
        });
        await target.request('/pets', { headers: { authorization: `Bearer ${SECRET}x` } });
        const fromCode = JSON.stringify(await target.mock.requests());
        const overHttp = JSON.stringify(await page(target));
        for (const text of [fromCode, overHttp]) {
          for (const form of SECRET_FORMS) expect(text).not.toContain(form);
          expect(text).toContain('***');
        }
        expect(await target.mock.requests()).toHaveLength(5);
      }));

    it('is off with journalSize 0: mock.requests() throws, GET /__mock/requests is a 404 that says why', () =>
      withTarget({ journalSize: 0 }, async (target) => {
        await target.request('/pets', { headers: AUTH });
        expect(() => target.mock.requests()).toThrow(/journal is off/);
        const response = await target.request('/__mock/requests');
        expect(response.status).toBe(404);
        expect(await response.text()).toMatch(/journal is off/);
      }));
  });
}
