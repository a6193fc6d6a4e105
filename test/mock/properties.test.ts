/**
 * Property-based tests of the one handler: whatever a half-written front-end sends, the mock
 * answers, never with a 5xx, and every answer is valid by spec/openapi.yaml for its operation and
 * status, or an Error whose `status` is the HTTP status.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openapi } from '../../src/generated/openapi.js';
import * as validators from '../../src/generated/validators.js';
import { parseJson, validationView } from '../../src/json/lossless.js';
import type { MockRequest, MockResponse } from '../../src/mock/core/messages.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { matchRoute, routesOf } from '../../src/mock/pipeline/routes.js';

/** At least 10,000 cases per run; more with FAST_CHECK_RUNS. */
const RUNS = Math.max(10_000, Number(process.env.FAST_CHECK_RUNS ?? 0));
const KEY = 'petstore-dev-key';
const routes = routesOf(openapi);
const byName = validators as unknown as Record<string, ((value: unknown) => boolean) | undefined>;

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

function toMockRequest(sent: Sent): MockRequest {
  return {
    method: sent.method,
    target: sent.query === '' ? sent.path : `${sent.path}?${sent.query}`,
    header: (name) => sent.headers[name],
    text: async (maxBytes) => (Buffer.byteLength(sent.body) > maxBytes ? undefined : sent.body),
  };
}

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const number = fc.oneof(fc.integer(), fc.double(), int64, fc.bigInt(), fc.constantFrom(0, -0, 1e308, 5e-324, 2 ** 53, 2 ** 53 + 2));
const numberText = number.map((n) => (typeof n === 'bigint' ? n.toString() : Number.isFinite(n) ? JSON.stringify(n) : '1e400'));
const status = fc.oneof(fc.constantFrom('available', 'pending', 'sold', 'SOLD', '', 'adopted'), fc.string());

/** Bodies from valid to garbage: NewPets, near-NewPets with wrong types, arbitrary JSON, deep nesting, text. */
const body = fc.oneof(
  fc
    .record({ name: fc.string({ unit: 'grapheme' }), categoryId: numberText, status: fc.option(status) })
    .map(
      ({ name, categoryId, status }) =>
        `{"name":${JSON.stringify(name)},"categoryId":${categoryId}${status === null ? '' : `,"status":${JSON.stringify(status)}`}}`,
    ),
  fc
    .record({ name: fc.jsonValue(), categoryId: fc.jsonValue(), status: fc.jsonValue(), id: fc.jsonValue() }, { requiredKeys: [] })
    .map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '{"__proto__":{"name":"x","categoryId":1}}',
    '{"constructor":{"prototype":{"name":"x"}},"categoryId":1}',
    '{"name":"x","categoryId":1,"name":2}',
  ),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.string({ unit: 'binary' }),
  fc.constant(''),
);

const path = fc.oneof(
  fc.constantFrom('/v1/pets', '/v1/pets/', '/v1/pets/1', '/v1/pets/51', '/v1', '/v1/', '/', '/__mock/health', '/__mock/reset', '/__mock/nope', '/v2/pets'),
  numberText.map((id) => `/v1/pets/${id}`),
  fc.string().map((segment) => `/v1/pets/${encodeURIComponent(segment)}`),
  fc.string().map((segment) => `/v1/pets/${segment}`),
  fc.webPath(),
  fc.array(fc.string(), { maxLength: 4 }).map((segments) => `/v1/${segments.join('/')}`),
);

const query = fc.oneof(
  fc.constant(''),
  fc
    .tuple(fc.option(numberText), fc.option(status))
    .map(([limit, value]) =>
      [limit === null ? '' : `limit=${encodeURIComponent(limit)}`, value === null ? '' : `status=${encodeURIComponent(value)}`].filter(Boolean).join('&'),
    ),
  fc.webQueryParameters(),
  fc.string(),
);

const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant(`Bearer ${KEY}`) },
  fc.constant(`bearer ${KEY}`),
  fc.constant(undefined),
  fc.string().map((token) => `Bearer ${token}`),
  fc.string(),
);

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  fc.constant('application/json; charset=utf-8'),
  fc.constant(undefined),
  fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json', 'APPLICATION/JSON'),
  fc.string(),
);

const anyMethod = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'get', 'post'),
  fc.string({ minLength: 1, maxLength: 8 }),
);

/** A request aimed at one operation (most of them reach its logic), or anywhere at all. */
const aimed = fc.oneof(
  { weight: 3, arbitrary: fc.record({ method: fc.constant('GET'), path: fc.constant('/v1/pets'), query }) },
  { weight: 3, arbitrary: fc.record({ method: fc.constant('POST'), path: fc.constant('/v1/pets'), query }) },
  { weight: 2, arbitrary: fc.record({ method: fc.constant('GET'), path, query }) },
  { weight: 2, arbitrary: fc.record({ method: anyMethod, path, query }) },
);

const request: fc.Arbitrary<Sent> = fc
  .record({
    aimed,
    authorization,
    contentType,
    extra: fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }).map((name) => name.toLowerCase()),
      fc.string(),
      { maxKeys: 3 },
    ),
    body,
  })
  .map(({ aimed: { method, path, query }, authorization, contentType, extra, body }) => ({
    method,
    path,
    query,
    headers: { ...extra, ...(authorization === undefined ? {} : { authorization }), ...(contentType === undefined ? {} : { 'content-type': contentType }) },
    body,
  }));

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype', 'polluted']);

/** Every key of every object in `value`, own keys as JSON.parse defines them (it makes `__proto__` an own key). */
function keysIn(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const own = Array.isArray(value) ? [] : Object.keys(value);
  return [...own, ...Object.values(value).flatMap(keysIn)];
}

/** Every way `response` breaks the spec for `sent`, or none. */
function problems(sent: Sent, response: MockResponse): string[] {
  const found: string[] = [];
  if (response.status >= 500) found.push(`answered ${response.status}`);
  if (!/^application\/json/.test(response.headers['content-type'] ?? '')) found.push('no JSON Content-Type');
  if (response.status === 204) return response.body === '' ? found : [...found, '204 with a body'];
  let body: unknown;
  try {
    body = validationView(parseJson(response.body));
  } catch {
    return [...found, `a body that is not JSON: ${response.body.slice(0, 80)}`];
  }
  const method = sent.method.toUpperCase() === 'HEAD' ? 'GET' : sent.method.toUpperCase();
  const basePath = '/v1';
  const match = sent.path.startsWith(`${basePath}/`) ? matchRoute(routes, sent.path.slice(basePath.length)) : undefined;
  const operationId = match?.route.operations.get(method)?.operationId;
  const validator = operationId ? byName[`${operationId}${response.status}`] : undefined;
  if (response.status >= 400) {
    if (!validators.Error(body)) found.push(`an Error body that breaks the schema: ${response.body.slice(0, 120)}`);
    else if ((body as { status: number }).status !== response.status) found.push('an Error whose status is not the HTTP status');
  } else if (operationId && !validator) {
    found.push(`${operationId} answered ${response.status}, which the spec does not document`);
  }
  if (validator && !validator(body)) found.push(`a ${operationId} ${response.status} body that breaks the schema: ${response.body.slice(0, 120)}`);
  // A key, not a value: a pet may well be named "__proto__", and the mock must echo that name.
  if (response.status === 201 && keysIn(JSON.parse(response.body)).some((key) => PROTOTYPE_KEYS.has(key))) found.push('echoed a prototype key');
  return found;
}

describe('the handler, under arbitrary requests', () => {
  it(`never throws, never answers 5xx, and answers every request by the spec (${RUNS} cases)`, async () => {
    const mock = createMockApi();
    await fc.assert(
      fc.asyncProperty(request, async (sent) => {
        const response = await mock.respond(toMockRequest(sent));
        expect(problems(sent, response)).toEqual([]);
      }),
      // A pet named like a prototype key is a valid pet, found once in CI after 9,426 cases; kept as a case.
      {
        numRuns: RUNS,
        examples: [
          [
            {
              method: 'POST',
              path: '/v1/pets',
              query: '',
              headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
              body: '{"name":"__proto__","categoryId":0}',
            },
          ],
        ],
      },
    );
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it('takes no member of Object.prototype for a method', async () => {
    const mock = createMockApi();
    for (const method of ['valueOf', 'constructor', '__proto__', 'hasOwnProperty']) {
      for (const path of ['/__mock/health', '/__mock/coverage', '/v1/pets']) {
        const response = await mock.respond(toMockRequest({ method, path, query: '', headers: { authorization: 'Bearer petstore-dev-key' }, body: '' }));
        expect(response.status, `${method} ${path}`).toBe(405);
      }
    }
  });

  it('creates exactly the valid NewPets it is sent, and keeps them exactly', async () => {
    const mock = createMockApi({ count: 0 });
    const newPet = fc.record({ name: fc.string({ unit: 'grapheme' }), categoryId: int64, status: fc.constantFrom('available', 'pending', 'sold') });
    await fc.assert(
      fc.asyncProperty(newPet, async (pet) => {
        const text = `{"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId},"status":"${pet.status}"}`;
        const sent: Sent = {
          method: 'POST',
          path: '/v1/pets',
          query: '',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: text,
        };
        const created = await mock.respond(toMockRequest(sent));
        expect(created.status).toBe(201);
        const id = (parseJson(created.body) as { id: number }).id;
        const read = await mock.respond(toMockRequest({ ...sent, method: 'GET', path: `/v1/pets/${id}`, body: '' }));
        expect(read.body).toBe(`{"id":${id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId},"status":"${pet.status}"}`);
      }),
      { numRuns: 2_000 },
    );
  });
});
