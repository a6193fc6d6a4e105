/**
 * The HTTP facts of the mock, as one suite that runs against every host of the one handler:
 * in process, the Node server on a real port, and MSW's `setupServer`. A host passes when it answers exactly
 * as the spec and the decision table of the README say.
 */

import type { ValidateFunction } from 'ajv';
import { parseItem } from 'structured-headers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as validators from '../../src/generated/validators.js';
import type { MockApi, MockOptions } from '../../src/mock/create-mock-api.js';
import { FULL_PAGE, LIMIT, LIMIT_RANGE_MESSAGE } from './page-size.js';

export interface MockTarget {
  /** The API's base URL, ending in `/v1`. */
  readonly baseUrl: string;
  /** The mock behind the host. */
  readonly mock: MockApi;
  /** A request to `baseUrl + path`, or to the origin when `path` starts with `/__mock`. */
  request(path: string, init?: RequestInit): Promise<Response>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export type StartTarget = (options: MockOptions) => Promise<MockTarget>;

/** The URL `MockTarget.request` means: `/__mock/...` lives at the origin, everything else under the base URL. */
export function urlFor(baseUrl: string, path: string): string {
  return path.startsWith('/__mock') ? new URL(path, baseUrl).href : baseUrl + path;
}

export const KEY = 'petstore-dev-key';
export const AUTH = { authorization: `Bearer ${KEY}` };
export const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };
/** What a script adds to a state-changing admin request, and a page on another origin cannot add unasked. */
export const ADMIN = { 'x-mock-admin': '1' };
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

export interface Answer {
  readonly response: Response;
  readonly text: string;
  readonly json: unknown;
}

/** A response read whole, after checking what every response carries: JSON, and CORS on the API but never on the admin. */
export async function answer(response: Response, { admin = false } = {}): Promise<Answer> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  expect(response.headers.get('content-type'), 'every response is application/json').toMatch(/^application\/json/);
  if (admin) expect(response.headers.get('access-control-allow-origin'), 'admin answers carry no CORS').toBeNull();
  else expect(response.headers.get('access-control-allow-origin'), 'every API response carries CORS').toBe('*');
  return { response, text, json };
}

/** Asserts an Error body of the spec whose status is the HTTP status and whose message matches. */
export function expectError(result: Answer, status: number, message?: RegExp): void {
  expect(result.response.status, result.text).toBe(status);
  expect(validators.Error(result.json), `Error body: ${result.text}`).toBe(true);
  const body = result.json as { status: number; message: string };
  expect(body.status).toBe(status);
  if (message) expect(body.message).toMatch(message);
}

export function expectValid(validator: ValidateFunction, value: unknown): void {
  expect(validator(value), JSON.stringify(validator.errors)).toBe(true);
}

/**
 * `start` with the mock's self-check on: every answer is checked against spec/openapi.yaml, and each
 * test of the calling suite fails when one broke it, whatever the test itself looked at.
 */
export function selfChecked(start: StartTarget): StartTarget {
  const mismatches: string[] = [];
  afterEach(() => {
    expect(mismatches.splice(0), 'answers that break spec/openapi.yaml (self-check)').toEqual([]);
  });
  return (options) => start({ selfCheck: (mismatch) => mismatches.push(mismatch), ...options });
}

/** Runs `body` against a target `start` starts with `options`, closing it after, whatever `body` does. */
export async function withStarted(start: StartTarget, options: MockOptions, body: (target: MockTarget) => Promise<void>): Promise<void> {
  const target = await start(options);
  try {
    await body(target);
  } finally {
    await target.close();
  }
}

export function runHttpFacts(host: string, startHost: StartTarget): void {
  const start = selfChecked(startHost);
  describe(`HTTP facts: ${host}`, () => {
    let target: MockTarget;
    const call = async (path: string, init?: RequestInit) => answer(await target.request(path, init), { admin: path.startsWith('/__mock') });
    const post = (body: string, headers: Record<string, string> = JSON_HEADERS) => call('/pets', { method: 'POST', headers, body });

    beforeAll(async () => {
      target = await start({});
    });
    afterAll(() => target.close());
    beforeEach(() => target.reset());

    describe('authentication', () => {
      const refused: [string, Record<string, string>][] = [
        ['no Authorization header', {}],
        ['a wrong key', { authorization: 'Bearer wrong-key' }],
        ['the key without the Bearer scheme', { authorization: KEY }],
        ['Basic credentials', { authorization: `Basic ${btoa(`user:${KEY}`)}` }],
        ['an empty bearer token', { authorization: 'Bearer ' }],
        ['a key that is a prefix of the right one', { authorization: `Bearer ${KEY.slice(0, -1)}` }],
      ];
      const operations: [string, string, string][] = [
        ['listPets', '/pets', 'GET'],
        ['createPet', '/pets', 'POST'],
        ['getPet', '/pets/1', 'GET'],
      ];
      for (const [operation, path, method] of operations) {
        for (const [what, headers] of refused) {
          it(`${operation} answers 401 with WWW-Authenticate for ${what}`, async () => {
            const result = await call(path, {
              method,
              headers: { ...headers, 'content-type': 'application/json' },
              body: method === 'POST' ? '{"name":"Rex","categoryId":1}' : null,
            });
            expectError(result, 401);
            expect(result.response.headers.get('www-authenticate')).toMatch(/^Bearer/);
          });
        }
      }

      it('refuses two Authorization headers with 401, even when both carry the key: the credential is ambiguous', async () => {
        const headers = new Headers([
          ['authorization', `Bearer ${KEY}`],
          ['authorization', `Bearer ${KEY}`],
        ]);
        expectError(await call('/pets', { headers }), 401);
      });

      it('checks the credential before validating anything', async () => {
        expectError(await call('/pets?limit=0'), 401);
        expectError(await post('{bad json', { 'content-type': 'application/json' }), 401);
        expectError(await call('/pets/abc'), 401);
      });

      it('accepts the Bearer scheme in any case', async () => {
        for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
          expect((await call('/pets', { headers: { authorization: `${scheme} ${KEY}` } })).response.status).toBe(200);
        }
      });
    });

    describe('GET /v1/pets', () => {
      it(`answers a bare array of ${LIMIT.default} pets in ascending id order by default`, async () => {
        const result = await call('/pets', { headers: AUTH });
        expect(result.response.status).toBe(200);
        expectValid(validators.listPets200, result.json);
        const ids = (result.json as { id: number }[]).map((pet) => pet.id);
        expect(ids).toEqual(Array.from({ length: LIMIT.default }, (_, i) => i + 1));
      });

      it(`honours limit ${LIMIT.minimum} and limit ${LIMIT.maximum}`, async () => {
        expect(((await call(`/pets?limit=${LIMIT.minimum}`, { headers: AUTH })).json as unknown[]).length).toBe(LIMIT.minimum);
        expect(((await call(`/pets?${FULL_PAGE}`, { headers: AUTH })).json as unknown[]).length).toBe(50);
      });

      for (const limit of [`${LIMIT.minimum - 1}`, `${LIMIT.maximum + 1}`, '-1', '1.5', 'abc', '', '1e2', '99999999999999999999999', ' 5']) {
        it(`answers 400 naming limit for limit=${JSON.stringify(limit)}`, async () => {
          expectError(await call(`/pets?limit=${encodeURIComponent(limit)}`, { headers: AUTH }), 400, /limit/);
        });
      }

      it('filters by status, keeping id order', async () => {
        for (const status of ['available', 'pending', 'sold']) {
          const result = await call(`/pets?status=${status}&${FULL_PAGE}`, { headers: AUTH });
          expectValid(validators.listPets200, result.json);
          const pets = result.json as { id: number; status: string }[];
          expect(pets.length).toBeGreaterThan(0);
          expect(pets.every((pet) => pet.status === status)).toBe(true);
          expect(pets.map((pet) => pet.id)).toEqual([...pets.map((pet) => pet.id)].sort((a, b) => a - b));
        }
      });

      for (const status of ['Sold', 'SOLD', '', 'adopted']) {
        it(`answers 400 naming status for status=${JSON.stringify(status)}`, async () => {
          expectError(await call(`/pets?status=${status}`, { headers: AUTH }), 400, /status/);
        });
      }
    });

    describe('exact numbers', () => {
      for (const categoryId of ['9007199254740993.5', '4.9999999999999999', '1.5', '1e-400']) {
        it(`refuses categoryId ${categoryId} with 400 naming it: a fraction is never rounded to an integer`, async () => {
          expectError(await post(`{"name":"Rex","categoryId":${categoryId}}`), 400, /^categoryId must be an integer/);
        });
      }

      for (const [categoryId, kept] of [
        ['9007199254740993.0', '9007199254740993'],
        ['1e2', '100'],
        ['12.50e1', '125'],
      ]) {
        it(`keeps categoryId ${categoryId} exactly, as the integer ${kept}`, async () => {
          const created = await post(`{"name":"Rex","categoryId":${categoryId}}`);
          expect(created.response.status).toBe(201);
          expect(created.text).toContain(`"categoryId":${kept},`);
        });
      }

      it(`names the documented bounds of limit, ${LIMIT.minimum} to ${LIMIT.maximum}, whatever the value`, async () => {
        for (const limit of ['99999999999999999999', `${LIMIT.minimum - 1}`, `${LIMIT.maximum + 1}`, '-9223372036854775809']) {
          expectError(await call(`/pets?limit=${limit}`, { headers: AUTH }), 400, new RegExp(`^${LIMIT_RANGE_MESSAGE}\\.$`));
        }
      });

      // `-0` is a second spelling of 0, never an id's: refused as malformed, not served as pet 0 or answered 404.
      for (const petId of ['9007199254740993.5', '4.9999999999999999', '1.0', '1e2', '-0']) {
        it(`refuses petId ${petId} with 400 naming it: a path takes an integer in plain digits`, async () => {
          expectError(await call(`/pets/${petId}`, { headers: AUTH }), 400, /petId/);
        });
      }
    });

    describe('POST /v1/pets', () => {
      it('answers 201 with the Pet and its Location, then serves it by id and in the list', async () => {
        const created = await post('{"name":"Rex","categoryId":3,"status":"pending"}');
        expect(created.response.status).toBe(201);
        expectValid(validators.createPet201, created.json);
        const pet = created.json as { id: number };
        expect(created.json).toEqual({ id: pet.id, name: 'Rex', categoryId: 3, status: 'pending' });
        expect(created.response.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
        expect((await call(`/pets/${pet.id}`, { headers: AUTH })).json).toEqual(created.json);
        const pending = (await call(`/pets?status=pending&${FULL_PAGE}`, { headers: AUTH })).json as { id: number }[];
        expect(pending.map((p) => p.id)).toContain(pet.id);
      });

      it('gives a new pet the status available when none is sent', async () => {
        expect((await post('{"name":"Rex","categoryId":3}')).json).toMatchObject({ status: 'available' });
      });

      it('ignores unknown fields and a client-sent id', async () => {
        const result = await post('{"id":1,"name":"Rex","categoryId":3,"colour":"brown"}');
        expect(result.response.status).toBe(201);
        const pet = result.json as Record<string, unknown>;
        expect(pet.id).not.toBe(1);
        expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
      });

      it('assigns unique positive ids to concurrent creates', async () => {
        const results = await Promise.all(Array.from({ length: 25 }, (_, i) => post(JSON.stringify({ name: `pet ${i}`, categoryId: 1 }))));
        const ids = results.map((result) => (result.json as { id: number }).id);
        expect(new Set(ids).size).toBe(25);
        expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
      });

      it('keeps a categoryId beyond 2^53 exactly, in the answer and when read back', async () => {
        const created = await post('{"name":"Big","categoryId":9223372036854775807}');
        expect(created.response.status).toBe(201);
        expect(created.text).toContain('"categoryId":9223372036854775807');
        const id = /"id":(\d+)/.exec(created.text)?.[1];
        expect((await call(`/pets/${id}`, { headers: AUTH })).text).toContain('"categoryId":9223372036854775807');
      });

      it('keeps unicode names exactly', async () => {
        const name = 'Zoë 🐕 小狗';
        expect((await post(JSON.stringify({ name, categoryId: 1 }))).json).toMatchObject({ name });
      });

      const invalid: [string, string, RegExp][] = [
        ['a missing name', '{"categoryId":1}', /name/],
        ['a null name', '{"name":null,"categoryId":1}', /name/],
        ['a numeric name', '{"name":7,"categoryId":1}', /name/],
        ['a missing categoryId', '{"name":"Rex"}', /categoryId/],
        ['a string categoryId', '{"name":"Rex","categoryId":"1"}', /categoryId/],
        ['a fractional categoryId', '{"name":"Rex","categoryId":1.5}', /categoryId/],
        ['a categoryId beyond int64', '{"name":"Rex","categoryId":9223372036854775808}', /categoryId/],
        ['a status outside the enum', '{"name":"Rex","categoryId":1,"status":"adopted"}', /status/],
        ['malformed JSON', '{"name":', /JSON/],
        ['an empty body', '', /body/],
        ['an array', '[{"name":"Rex","categoryId":1}]', /object/],
        ['null', 'null', /object/],
        ['JSON nested 10,000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, /nest deeper than 128 levels/],
      ];
      for (const [what, body, message] of invalid) {
        it(`answers 400 naming the fault for ${what}`, async () => {
          expectError(await post(body), 400, message);
          expect(((await call(`/pets?${FULL_PAGE}`, { headers: AUTH })).json as unknown[]).length).toBe(50);
        });
      }

      it('answers 415 for a body that is not sent as JSON', async () => {
        expectError(await post('name=Rex&categoryId=1', { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' }), 415);
        expectError(await post('{"name":"Rex","categoryId":1}', { ...AUTH, 'content-type': 'text/plain' }), 415);
      });

      it('accepts a JSON content type with parameters', async () => {
        expect((await post('{"name":"Rex","categoryId":1}', { ...AUTH, 'content-type': 'application/json; charset=utf-8' })).response.status).toBe(201);
      });

      it('answers 413 for a body over 1 MiB', async () => {
        const body = JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 });
        expectError(await post(body), 413);
      });

      it('rejects a body whose bytes are not UTF-8 with a 400 naming the body (RFC 8259)', async () => {
        const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]);
        expectError(await call('/pets', { method: 'POST', headers: JSON_HEADERS, body }), 400, /^The request body is not UTF-8/);
      });

      it('neither pollutes prototypes nor echoes __proto__ or constructor keys', async () => {
        const result = await post('{"name":"Rex","categoryId":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
        expect(result.response.status).toBe(201);
        expect(result.text).not.toMatch(/__proto__|constructor|polluted/);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expectError(await post('{"__proto__":{"name":"Rex","categoryId":1}}'), 400, /name/);
      });
    });

    describe('GET /v1/pets/{petId}', () => {
      it('answers 200 with the pet, its deprecation, its sunset and a link to the replacement', async () => {
        const result = await call('/pets/7', { headers: AUTH });
        expect(result.response.status).toBe(200);
        expectValid(validators.getPet200, result.json);
        expect(result.json).toMatchObject({ id: 7 });
        expect(result.response.headers.get('deprecation')).toBeTruthy();
        expect(result.response.headers.get('sunset')).toBe(SUNSET);
        expect(result.response.headers.get('link')).toMatch(/<\/v1\/pets>; rel="successor-version"/);
      });

      it('announces its deprecation on every answer, real or forced, as RFC 9745 writes it, with its sunset and its successor', async () => {
        const answers: [string, string, Record<string, string>, number][] = [
          ['a pet', '/pets/7', AUTH, 200],
          ['an absent id', '/pets/51', AUTH, 404],
          ['an id that is not an int64', '/pets/abc', AUTH, 400],
          ['no key', '/pets/7', {}, 401],
          ['Prefer: code=404', '/pets/7', { ...AUTH, prefer: 'code=404' }, 404],
          ['__code=404', '/pets/7?__code=404', AUTH, 404],
          ['__code=503', '/pets/7?__code=503', AUTH, 503],
          ['Prefer: auth=expired', '/pets/7', { ...AUTH, prefer: 'auth=expired' }, 401],
        ];
        for (const [what, path, headers, status] of answers) {
          const { response } = await call(path, { headers });
          expect(response.status, what).toBe(status);
          const [deprecatedAt] = parseItem(response.headers.get('deprecation') ?? '');
          expect(deprecatedAt, `Deprecation of ${what}: ${response.headers.get('deprecation')}`).toEqual(new Date('2025-06-01T00:00:00Z'));
          expect(response.headers.get('sunset'), what).toBe(SUNSET);
          expect(response.headers.get('link'), what).toMatch(/<\/v1\/pets>; rel="successor-version"/);
        }
      });

      it('tells a client when to retry a forced 429 or 503 (Retry-After, which a page may read), and not a forced 500', async () => {
        for (const [path, wait] of [
          ['/pets/7?__code=429', '1'],
          ['/pets/7?__code=503', '1'],
          ['/pets/7?__code=500', null],
        ] as const) {
          const { response } = await call(path, { headers: AUTH });
          expect(response.headers.get('retry-after'), path).toBe(wait);
          expect(response.headers.get('access-control-expose-headers'), path).toContain('Retry-After');
        }
      });

      it('gives a forced 404 exactly the headers of a real one, but for Preference-Applied', async () => {
        // What the transport adds (date, length, keep-alive) is no part of the answer.
        const answerHeaders = (response: Response) =>
          Object.fromEntries(
            [...response.headers].filter(([name]) => !['date', 'content-length', 'connection', 'keep-alive', 'preference-applied'].includes(name)),
          );
        const real = answerHeaders((await call('/pets/51', { headers: AUTH })).response);
        expect(answerHeaders((await call('/pets/7', { headers: { ...AUTH, prefer: 'code=404' } })).response)).toEqual(real);
        expect(answerHeaders((await call('/pets/7?__code=404', { headers: AUTH })).response)).toEqual(real);
      });

      for (const id of ['51', '0', '-1', '9223372036854775807']) {
        it(`answers 404 for the absent id ${id}`, async () => {
          expectError(await call(`/pets/${id}`, { headers: AUTH }), 404);
        });
      }

      for (const id of ['abc', '1.5', '9223372036854775808', '1e2']) {
        it(`answers 400 naming petId for ${id}`, async () => {
          expectError(await call(`/pets/${id}`, { headers: AUTH }), 400, /petId/);
        });
      }
    });

    describe('routing and CORS', () => {
      it('answers a HEAD with the head its GET has, Content-Length too, and no body (RFC 9110 §9.3.2, §8.6); under a fault as well', async () => {
        for (const [path, prefer] of [
          ['/pets?limit=3', ''],
          ['/pets/1', ''],
          ['/pets/0', ''],
          ['/pets', 'code=503'],
          ['/pets', 'fault=slow, trickle=50'],
        ] as const) {
          const headers = { ...AUTH, ...(prefer === '' ? {} : { prefer }) };
          const get = await target.request(path, { headers });
          const length = new TextEncoder().encode(await get.text()).length;
          const head = await target.request(path, { method: 'HEAD', headers });
          expect([head.status, head.headers.get('content-length'), await head.text()], `HEAD ${path} ${prefer}`).toEqual([get.status, String(length), '']);
        }
      });

      it('answers 404 for an unknown path', async () => {
        expectError(await call('/owners', { headers: AUTH }), 404);
        expectError(await call('/pets/1/toys', { headers: AUTH }), 404);
      });

      it('answers 405 with Allow for a known path with another method', async () => {
        // PATCH is no kind of operation the mock serves: on a spec it serves, it is never documented.
        const result = await call('/pets/1', { method: 'PATCH', headers: AUTH });
        expectError(result, 405);
        expect(result.response.headers.get('allow')).toMatch(/GET/);
        const put = await call('/pets', { method: 'PUT', headers: JSON_HEADERS, body: '{}' });
        expectError(put, 405);
        expect(put.response.headers.get('allow')).toMatch(/GET.*POST|POST.*GET/);
      });

      it('answers a CORS preflight without a credential', async () => {
        const response = await target.request('/pets', {
          method: 'OPTIONS',
          headers: {
            origin: 'http://localhost:5173',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        expect(response.status).toBeLessThan(300);
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/);
        expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(/authorization/);
      });
    });

    describe('admin', () => {
      it('reports health and resets to the seeded pets', async () => {
        await post('{"name":"Rex","categoryId":1}');
        const health = await call('/__mock/health');
        expect(health.json).toMatchObject({ status: 'ok', pets: 51 });
        expect((await call('/__mock/reset', { method: 'POST', headers: ADMIN })).json).toMatchObject({ pets: 50 });
        expect((await call('/pets/51', { headers: AUTH })).response.status).toBe(404);
      });
    });
  });

  describe(`HTTP facts with options: ${host}`, () => {
    it('answers 410 on getPet once its clock passes the sunset, and 200 before', async () => {
      let now = Date.parse('2030-12-04T23:59:59Z');
      const target = await start({ now: () => now });
      try {
        expect((await target.request('/pets/1', { headers: AUTH })).status).toBe(200);
        now = Date.parse('2030-12-05T00:00:00Z');
        const gone = await answer(await target.request('/pets/1', { headers: AUTH }));
        expectError(gone, 410, /GET \/v1\/pets/);
        expect(gone.response.headers.get('sunset')).toBe(SUNSET);
        expect((await target.request('/pets', { headers: AUTH })).status).toBe(200);
      } finally {
        await target.close();
      }
    });

    it('answers 410 with only Sunset once a session clock passes the sunset, before reading petId and whatever the request prefers; a missing key is still 401, with only Sunset', async () => {
      const target = await start({});
      const as = (session: string, headers: Record<string, string> = AUTH) => ({ headers: { ...headers, 'x-mock-session': session } });
      const onlySunset = (result: Answer, what: string) => {
        expect(result.response.headers.get('sunset'), what).toBe(SUNSET);
        expect(result.response.headers.get('deprecation'), what).toBeNull();
        expect(result.response.headers.get('link'), what).toBeNull();
      };
      try {
        const moved = await target.request('/__mock/clock', {
          method: 'POST',
          headers: { 'x-mock-session': 'r', 'content-type': 'application/json', 'x-mock-admin': '1' },
          body: '{"now":"2030-12-06T00:00:00Z"}',
        });
        expect(moved.status).toBe(200);
        const cases: [string, string, Record<string, string>, number][] = [
          ['a pet', '/pets/1', AUTH, 410],
          ['an id that is not an int64', '/pets/abc', AUTH, 410],
          ['Prefer: code=404', '/pets/1', { ...AUTH, prefer: 'code=404' }, 410],
          ['__code=503', '/pets/1?__code=503', AUTH, 410],
          ['Prefer: auth=expired', '/pets/1', { ...AUTH, prefer: 'auth=expired' }, 410],
          ['no key', '/pets/1', {}, 401],
          ['a wrong key', '/pets/abc', { authorization: 'Bearer wrong-key' }, 401],
        ];
        for (const [what, path, headers, status] of cases) {
          const result = await answer(await target.request(path, as('r', headers)));
          expectError(result, status, status === 410 ? /removed/ : undefined);
          onlySunset(result, what);
          expect(result.response.headers.get('preference-applied'), what).toBeNull();
        }
        // Other sessions keep today: the deprecation notice, and the 400 of a bad petId.
        const today = await answer(await target.request('/pets/abc', { headers: AUTH }));
        expectError(today, 400, /petId/);
        expect(today.response.headers.get('deprecation')).toBe('@1748736000');
      } finally {
        await target.close();
      }
    });

    it('decides removal by a session clock without opening the session', async () => {
      const target = await start({ now: () => Date.parse('2030-12-06T00:00:00Z') });
      try {
        const result = await answer(await target.request('/pets/abc', { headers: { ...AUTH, 'x-mock-session': 'fresh' } }));
        expectError(result, 410);
        expect(result.response.headers.get('deprecation')).toBeNull();
        const sessions = await target.request('/__mock/sessions');
        expect(await sessions.json()).toMatchObject({ sessions: [] });
      } finally {
        await target.close();
      }
    });

    it('refuses bad inputs before it opens a session: ?limit=0 under a new X-Mock-Session is 400, opens nothing, and stays 400 past the cap', async () => {
      const target = await start({ maxSessions: 1 });
      const as = (session: string) => ({ headers: { ...AUTH, 'x-mock-session': session } });
      try {
        expectError(await answer(await target.request('/pets?limit=0', as('first'))), 400, /limit/);
        expect((await answer(await target.request('/__mock/sessions'), { admin: true })).json).toMatchObject({ sessions: [] });
        expect((await target.request('/pets', as('first'))).status).toBe(200);
        expectError(await answer(await target.request('/pets?limit=0', as('second'))), 400, /limit/);
        expectError(await answer(await target.request('/pets/abc', as('second'))), 400, /petId/);
        const badBody = { method: 'POST', headers: { ...JSON_HEADERS, 'x-mock-session': 'second' }, body: '{"name":7}' };
        expectError(await answer(await target.request('/pets', badBody)), 400, /name/);
        expect((await answer(await target.request('/__mock/sessions'), { admin: true })).json).toMatchObject({ sessions: [{ name: 'first' }] });
        expectError(await answer(await target.request('/pets', as('second'))), 429);
      } finally {
        await target.close();
      }
    });

    it('accepts every configured key and refuses the default one then', async () => {
      const target = await start({ apiKeys: ['alpha', 'beta'] });
      try {
        for (const key of ['alpha', 'beta']) expect((await target.request('/pets', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
        expect((await target.request('/pets', { headers: AUTH })).status).toBe(401);
      } finally {
        await target.close();
      }
    });

    it('accepts a single apiKey, alone or with apiKeys, and refuses the default one then', async () => {
      const target = await start({ apiKey: 'gamma', apiKeys: ['delta'] });
      try {
        for (const key of ['gamma', 'delta']) expect((await target.request('/pets', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
        expect((await target.request('/pets', { headers: AUTH })).status).toBe(401);
      } finally {
        await target.close();
      }
    });

    it('serves the pets of its seed and count', async () => {
      const target = await start({ seed: 7, count: 3 });
      try {
        const pets = (await (await target.request('/pets', { headers: AUTH })).json()) as { id: number }[];
        expect(pets.map((pet) => pet.id)).toEqual([1, 2, 3]);
      } finally {
        await target.close();
      }
    });
  });
}
