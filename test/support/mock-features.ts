/**
 * What this mock does beyond answering the interface, as one suite run against every host of the
 * handler (in process, the Node server, MSW): isolated sessions, the big-id canary, per-request
 * control with `Prefer`, auth scenarios, coverage, the self-check and the clock. The self-check is on
 * throughout, so every answer here is also checked against spec/openapi.yaml.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openapi } from '../../src/generated/openapi.js';
import * as validators from '../../src/generated/validators.js';
import { parseJson } from '../../src/json/lossless.js';
import type { MockOptions } from '../../src/mock/create-mock-api.js';
import type { CoverageReport } from '../../src/mock/state/coverage.js';
import { operationsOf } from '../../src/openapi/document.js';
import { ADMIN, AUTH, answer, expectError, expectValid, JSON_HEADERS, type MockTarget, type StartTarget, selfChecked, withStarted } from './http-facts.js';
import { FULL_PAGE, SEED_WITH_ROOM } from './page-size.js';

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
/** The pets the sessions' target starts with: few enough that a session's own few pets still fit on a full page. */
const SEED = SEED_WITH_ROOM;
const FIRST_BIG_ID = 2n ** 53n + 1n;

/** Each operation, a request to it, and the error statuses the spec documents for it. */
const OPERATIONS = operationsOf(openapi).map(({ operationId, method, path, operation }) => ({
  operationId,
  method: method.toUpperCase(),
  path: path.replace('{petId}', '1'),
  body: method === 'post' ? '{"name":"Rex","categoryId":1}' : null,
  errors: Object.keys(operation.responses)
    .map(Number)
    .filter((status) => status >= 400),
}));

function inSession(session: string, headers: Record<string, string> = AUTH): Record<string, string> {
  return { ...headers, 'x-mock-session': session };
}

export function runMockFeatures(host: string, startHost: StartTarget): void {
  const start = selfChecked(startHost);

  /** Runs `body` against a target started with `options`, closing it after. */
  const withTarget = (options: MockOptions, body: (target: MockTarget) => Promise<void>) => withStarted(start, options, body);

  describe(`mock features: ${host}`, () => {
    let target: MockTarget;
    const call = async (path: string, init?: RequestInit) => answer(await target.request(path, init), { admin: path.startsWith('/__mock') });
    const names = async (session: string) =>
      ((await call(`/pets?${FULL_PAGE}`, { headers: inSession(session) })).json as { name: string }[]).map((pet) => pet.name);
    const create = (session: string, name: string) =>
      call('/pets', { method: 'POST', headers: inSession(session, JSON_HEADERS), body: JSON.stringify({ name, categoryId: 1 }) });

    beforeAll(async () => {
      target = await start({ count: SEED });
    });
    afterAll(() => target.close());
    beforeEach(() => target.reset());

    describe('isolated sessions (X-Mock-Session)', () => {
      it('gives each session its own copy of the seeded pets, opened on first use', async () => {
        expect((await create('alice', 'Rex')).response.status).toBe(201);
        expect(await names('alice')).toHaveLength(SEED + 1);
        expect(await names('bob')).toHaveLength(SEED);
        expect(await names('default')).toHaveLength(SEED);
        expect(((await call(`/pets?${FULL_PAGE}`, { headers: AUTH })).json as unknown[]).length).toBe(SEED);
        expect((await call(`/pets/${SEED + 1}`, { headers: inSession('alice') })).json).toMatchObject({ id: SEED + 1, name: 'Rex' });
      });

      it('keeps parallel workers apart: each sees its own pets and never another worker’s', async () => {
        const workers = Array.from({ length: 4 }, (_, w) => `worker-${w}`);
        await Promise.all(workers.flatMap((worker) => Array.from({ length: 5 }, (_, i) => create(worker, `${worker} pet ${i}`))));
        for (const worker of workers) {
          const seen = await names(worker);
          expect(seen).toHaveLength(SEED + 5);
          expect(seen.filter((name) => name.startsWith('worker-')).sort()).toEqual(Array.from({ length: 5 }, (_, i) => `${worker} pet ${i}`));
        }
        expect(await names('default')).toHaveLength(SEED);
      });

      it('resets or drops one session and leaves the others; /__mock/reset without a session resets them all', async () => {
        await create('a', 'Rex');
        await create('b', 'Rex');
        expect((await call('/__mock/sessions/a/reset', { method: 'POST', headers: ADMIN })).json).toEqual({ status: 'ok', session: 'a', pets: SEED });
        expect(await names('a')).toHaveLength(SEED);
        expect(await names('b')).toHaveLength(SEED + 1);
        expect((await call('/__mock/sessions', {})).json).toMatchObject({
          sessions: [
            { name: 'a', pets: SEED },
            { name: 'b', pets: SEED + 1 },
          ],
        });
        expect((await call('/__mock/sessions/b', { method: 'DELETE', headers: ADMIN })).json).toEqual({ status: 'ok', session: 'b', dropped: true });
        expect(await names('b')).toHaveLength(SEED);
        await create('b', 'Rex');
        await create('default', 'Rex');
        expect((await call('/__mock/reset', { method: 'POST', headers: { ...ADMIN, 'x-mock-session': 'b' } })).json).toMatchObject({
          session: 'b',
          pets: SEED,
        });
        expect(await names('default')).toHaveLength(SEED + 1);
        await create('b', 'Rex');
        expect((await call('/__mock/reset', { method: 'POST', headers: ADMIN })).json).toMatchObject({ pets: SEED, sessions: 0 });
        expect(await names('default')).toHaveLength(SEED);
        expect((await call('/__mock/sessions', {})).json).toMatchObject({ sessions: [] });
        expectError(await call('/__mock/sessions/default', { method: 'DELETE', headers: ADMIN }), 400, /reset it/);
      });

      for (const bad of ['', 'a b', 'a/b', 'x'.repeat(65), 'über']) {
        it(`answers 400 naming X-Mock-Session for the name ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 5)}…` : bad)}`, async () => {
          expectError(await call('/pets', { headers: inSession(bad) }), 400, /X-Mock-Session/);
        });
      }

      it('allows X-Mock-Session and Prefer in a CORS preflight, and exposes Preference-Applied', async () => {
        const preflight = await target.request('/pets', {
          method: 'OPTIONS',
          headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-mock-session, prefer' },
        });
        expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-mock-session');
        expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('prefer');
        expect((await call('/pets', { headers: AUTH })).response.headers.get('access-control-expose-headers')).toContain('Preference-Applied');
      });
    });

    describe('the clock (POST /__mock/clock) and the getPet rehearsal', () => {
      it('moves one session past the sunset: its getPet answers 410 while other sessions keep 200', async () => {
        const moved = await call('/__mock/clock', { method: 'POST', headers: { ...ADMIN, 'x-mock-session': 'late' }, body: '{"now":"2031-01-01T00:00:00Z"}' });
        expect(moved.json).toMatchObject({ session: 'late', now: expect.stringMatching(/^2031-01-01T00:00:0\d/) });
        const gone = await call('/pets/1', { headers: inSession('late') });
        expectError(gone, 410, /removed/);
        expect(gone.response.headers.get('sunset')).toBe(SUNSET);
        expect((await call('/pets/1', { headers: AUTH })).response.status).toBe(200);
        expect((await call('/__mock/clock', { headers: { 'x-mock-session': 'late' } })).json).toMatchObject({ now: expect.stringMatching(/^2031/) });
        await call('/__mock/clock', { method: 'POST', headers: { ...ADMIN, 'x-mock-session': 'late' }, body: '{"now":null}' });
        expect((await call('/pets/1', { headers: inSession('late') })).response.status).toBe(200);
      });

      for (const body of ['{"now":"soon"}', '{"then":"2031-01-01"}', '[]', '{"now":', '{"now":20310101}']) {
        it(`answers 400 naming now for the clock body ${body}`, async () => {
          expectError(await call('/__mock/clock', { method: 'POST', headers: ADMIN, body }), 400, /now/);
        });
      }
    });

    describe('per-request control (Prefer)', () => {
      for (const { operationId, method, path, body, errors } of OPERATIONS) {
        it(`${operationId}: Prefer code= answers each documented error status (${errors.join(', ')}) as a valid Error, leaving the state alone`, async () => {
          for (const status of errors) {
            const result = await call(path, { method, headers: { ...JSON_HEADERS, prefer: `code=${status}` }, body });
            expectError(result, status, /asked for it/);
            expect(result.response.headers.get('preference-applied')).toBe(`code=${status}`);
            if (status === 401) expect(result.response.headers.get('www-authenticate')).toBe('Bearer');
            if (status === 410) expect(result.response.headers.get('sunset')).toBe(SUNSET);
          }
          expect(await target.mock.store.size).toBe(SEED);
        });
      }

      it('takes __code, __delay and __auth in the query for tools that cannot set headers; the header comes first', async () => {
        expectError(await call('/pets/1?__code=404', { headers: AUTH }), 404);
        expectError(await call('/pets?__code=503&status=sold', { headers: AUTH }), 503);
        expectError(await call('/pets?__auth=expired', { headers: AUTH }), 401, /expired/);
        expectError(await call('/pets?__code=500', { headers: { ...AUTH, prefer: 'code=503' } }), 503);
      });

      it('reads several preferences, separated by commas or semicolons, quoted or not, and ignores those it does not know', async () => {
        const result = await call('/pets', { headers: { ...AUTH, prefer: 'respond-async, code="500"; delay=1, example=cat, return=minimal' } });
        expectError(result, 500);
        expect(result.response.headers.get('preference-applied')).toBe('code=500, delay=1');
        const plain = await call('/pets?limit=1', { headers: { ...AUTH, prefer: 'return=minimal, dynamic=true' } });
        expect(plain.response.status).toBe(200);
        expect(plain.response.headers.get('preference-applied')).toBeNull();
      });

      const refused: [string, string, RegExp][] = [
        ['/pets', 'code=404', /listPets does not document 404.*400, 401, 429, 500, 503/],
        ['/pets', 'code=200', /only an error status can be forced/],
        ['/pets/1', 'code=201', /only an error status/],
        ['/pets', 'code=abc', /HTTP status/],
        ['/pets', 'code=4044', /HTTP status/],
        ['/pets', 'delay=-1', /delay must be/],
        ['/pets', 'delay=60001', /delay must be/],
        ['/pets', 'auth=revoked', /auth=expired/],
      ];
      for (const [path, prefer, message] of refused) {
        it(`answers 400 saying why for Prefer: ${prefer} on ${path}`, async () => {
          expectError(await call(path, { headers: { ...AUTH, prefer } }), 400, message);
        });
      }

      it('waits delay= milliseconds, and says so in Preference-Applied', async () => {
        const started = performance.now();
        const result = await call('/pets?limit=1', { headers: { ...AUTH, prefer: 'delay=150' } });
        expect(performance.now() - started).toBeGreaterThanOrEqual(140);
        expect(result.response.status).toBe(200);
        expect(result.response.headers.get('preference-applied')).toBe('delay=150');
      });

      it('checks the key before any preference: without one, every request gets the real 401', async () => {
        for (const prefer of ['code=404', 'code=401', 'auth=expired']) {
          const result = await call('/pets/1', { headers: { prefer } });
          expectError(result, 401, /Missing credential/);
          expect(result.response.headers.get('preference-applied')).toBeNull();
        }
      });
    });

    describe('auth scenarios', () => {
      it('answers Prefer: auth=expired with 401 and WWW-Authenticate: Bearer error="invalid_token", on a valid key', async () => {
        const result = await call('/pets', { headers: { ...AUTH, prefer: 'auth=expired, code=503' } });
        expectError(result, 401, /expired/);
        expect(result.response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
        expect(result.response.headers.get('preference-applied')).toBe('auth=expired');
      });
    });
  });

  // Each of these starts a mock of its own, after the shared one has closed: MSW intercepts for one
  // server at a time.
  describe(`mock features with options: ${host}`, () => {
    // The `now` option is held to the rule of --now: a reading no date may show is the request's 500
    // naming `now` and the range, on the API and the clock; the journal, which needs no clock, still reads.
    const beyond = {
      NaN: Number.NaN,
      Infinity: Number.POSITIVE_INFINITY,
      'year 10000': Date.parse('+010000-01-01T00:00:00Z'),
      'year 0': Date.parse('0000-06-01T00:00:00Z'),
      'a string': '2031',
    };
    for (const [what, reading] of Object.entries(beyond)) {
      it(`answers 500 naming now and its range, never an Invalid Date, to a now() that reads ${what}`, async () => {
        let next: unknown = reading;
        await withTarget({ now: () => next as number }, async (broken) => {
          for (const [path, headers] of [
            ['/pets/1', AUTH],
            ['/pets', AUTH],
            ['/__mock/clock', {}],
          ] as const) {
            const result = await answer(await broken.request(path, { headers }), { admin: path.startsWith('/__mock') });
            expectError(result, 500, /now option\) read .* 0001 to 9998.*0001-01-01T00:00:00\.000Z to 9998-12-31T23:59:59\.999Z/);
            expect(result.response.headers.get('date') ?? '').not.toMatch(/Invalid/);
          }
          // The journal needs no clock to be read: the requests the clock failed are filed at the epoch.
          const journal = await answer(await broken.request('/__mock/requests', {}), { admin: true });
          expect((journal.json as { entries: { time: string; status: number }[] }).entries).toEqual([
            expect.objectContaining({ time: '1970-01-01T00:00:00.000Z', status: 500 }),
            expect.objectContaining({ time: '1970-01-01T00:00:00.000Z', status: 500 }),
          ]);
          next = Date.parse('2031-01-01T00:00:00Z');
          expectError(await answer(await broken.request('/pets/1', { headers: AUTH })), 410, /removed/);
        });
      });
    }

    it('says which option is wrong when now() throws', async () => {
      await withTarget(
        {
          now: () => {
            throw new Error('no time today');
          },
        },
        async (broken) => expectError(await answer(await broken.request('/pets/1', { headers: AUTH })), 500, /now option\) threw: no time today/),
      );
    });

    it('refuses a now that is no function with a TypeError naming now, before serving', async () => {
      await expect(start({ now: '2031-01-01T00:00:00Z' as unknown as () => number })).rejects.toThrow(/^now must be a function .*got "2031-01-01T00:00:00Z"/);
    });

    it('answers 429 past the cap on sessions, and opens sessions again once idle ones expire', async () => {
      await withTarget({ maxSessions: 2, sessionTtl: 200 }, async (capped) => {
        const list = async (session: string) => answer(await capped.request('/pets', { headers: inSession(session) }));
        expect((await list('one')).response.status).toBe(200);
        expect((await list('two')).response.status).toBe(200);
        expectError(await list('three'), 429, /cap/);
        expect((await list('default')).response.status).toBe(200);
        expect((await list('one')).response.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 250));
        expect((await list('three')).response.status).toBe(200);
      });
    });

    it('ignores Prefer and __code when the mock is started with prefer: false (--no-prefer)', async () => {
      await withTarget({ prefer: false }, async (plain) => {
        expect((await plain.request('/pets/1?__code=404', { headers: { ...AUTH, prefer: 'code=500, auth=expired' } })).status).toBe(200);
      });
    });

    it('accepts labelled keys by their key', async () => {
      await withTarget({ apiKeys: [{ label: 'ci', key: 'ci-secret' }, 'plain'] }, async (labelled) => {
        for (const key of ['ci-secret', 'plain']) expect((await labelled.request('/pets', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
        expect((await labelled.request('/pets', { headers: { authorization: 'Bearer ci' } })).status).toBe(401);
      });
    });

    describe('big ids (bigIds, --big-ids)', () => {
      it('serves ids beyond 2^53 exactly in list, create, Location and get by id', async () => {
        await withTarget({ bigIds: true }, async (big) => {
          const list = await answer(await big.request('/pets?limit=2', { headers: AUTH }));
          expect(list.text).toMatch(new RegExp(`^\\[\\{"id":${FIRST_BIG_ID},"name":"Gus"`));
          expect(list.text).toContain(`"id":${FIRST_BIG_ID + 1n},`);
          const created = await answer(
            await big.request('/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Rex","categoryId":3,"status":"sold"}' }),
          );
          const id = FIRST_BIG_ID + 50n;
          expect(created.text).toBe(`{"id":${id},"name":"Rex","categoryId":3,"status":"sold"}`);
          expect(created.response.headers.get('location')).toBe(`/v1/pets/${id}`);
          expect((await answer(await big.request(`/pets/${id}`, { headers: AUTH }))).text).toBe(created.text);
          expect((await answer(await big.request(`/pets?status=sold&${FULL_PAGE}`, { headers: AUTH }))).text).toContain(`"id":${id},`);
          expect(parseJson(list.text)).toMatchObject([{ id: FIRST_BIG_ID }, { id: FIRST_BIG_ID + 1n }]);
        });
      });

      it('shows a client that reads ids with JSON.parse its mistake at once: the id it parsed names no pet', async () => {
        await withTarget({ bigIds: true }, async (big) => {
          const [first] = (await (await big.request('/pets?limit=1', { headers: AUTH })).json()) as { id: number }[];
          expect(String(first?.id)).not.toBe(String(FIRST_BIG_ID));
          expectError(await answer(await big.request(`/pets/${first?.id}`, { headers: AUTH })), 404);
        });
      });
    });

    describe('coverage (GET /__mock/coverage)', () => {
      it('lists per operation the documented statuses and enum values exercised, and those never exercised', async () => {
        await withTarget({}, async (fresh) => {
          const send = (path: string, init?: RequestInit) => fresh.request(path, init);
          await send('/pets?status=sold', { headers: AUTH });
          await send('/pets', { headers: AUTH });
          await send('/pets');
          await send('/pets/999', { headers: AUTH });
          await send('/pets/1', { headers: { ...AUTH, prefer: 'code=500' } });
          await send('/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Rex","categoryId":1,"status":"pending"}' });
          await send('/pets', { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Rex","categoryId":1}' });
          const result = await answer(await send('/__mock/coverage'), { admin: true });
          const report = result.json as CoverageReport;
          const byId = Object.fromEntries(report.operations.map((operation) => [operation.operationId, operation]));
          expect(byId.listPets).toMatchObject({
            method: 'GET',
            path: '/v1/pets',
            statuses: { '200': 2, '400': 0, '401': 1, '429': 0, '500': 0, '503': 0 },
            enums: { 'query.status': { available: 0, pending: 0, sold: 1 } },
          });
          expect(byId.listPets?.missed).toEqual(['400', '429', '500', '503', 'query.status=available', 'query.status=pending']);
          expect(byId.createPet?.enums).toEqual({ 'body.status': { available: 0, pending: 1, sold: 0 } });
          expect(byId.getPet?.statuses).toMatchObject({ '200': 0, '404': 1, '500': 1 });
          expect(report.covered).toBe(7);
          // Every status the spec documents for its operations, and every value of their enum inputs (status in the query and in the body).
          const statuses = operationsOf(openapi).reduce((sum, { operation }) => sum + Object.keys(operation.responses).length, 0);
          expect(report.total).toBe(statuses + 3 + 3);
          await fresh.mock.reset();
          expect(((await answer(await send('/__mock/coverage'), { admin: true })).json as CoverageReport).covered).toBe(7);
          expect(((await answer(await send('/__mock/coverage', { method: 'DELETE', headers: ADMIN }), { admin: true })).json as CoverageReport).covered).toBe(
            0,
          );
        });
      });
    });

    describe('self-check', () => {
      it('turns an answer that breaks the spec into a 500 naming the mismatch, and reports it', async () => {
        const reported: string[] = [];
        const broken = await startHost({ selfCheck: (mismatch) => reported.push(mismatch) });
        try {
          await broken.mock.store.create({ name: 42 as unknown as string, categoryId: 1, status: 'available' });
          const result = await answer(await broken.request('/pets/51', { headers: AUTH }));
          expectError(result, 500, /^Self-check: getPet answered 200 with a body that breaks its schema .*name must be string/);
          expect(reported).toEqual([expect.stringMatching(/getPet answered 200 .*\/name must be string/)]);
          expectValid(validators.getPet500, result.json);
        } finally {
          await broken.close();
        }
      });
    });
  });
}
