/**
 * What the benchmark sends, and what each answer must be. The answers are made here from the seeded
 * fixtures, independently of the mock: the bare baseline writes exactly these bytes, and the mock is
 * checked against them before it is measured.
 */
import { seededPets } from '../src/fixtures/seed.js';
import { DEFAULT_COUNT, DEFAULT_SEED } from '../src/fixtures/seeding.js';
import { DEFAULT_API_KEY } from '../src/mock/core/defaults.js';
import { AUTH_MESSAGES } from '../src/mock/pipeline/auth.js';
import { BUNDLED_MODEL } from '../src/openapi/bundled-model.js';
import { operationOfKind } from '../src/openapi/resource-model.js';
import type { BareConfig } from './servers.js';

/** A request, its path relative to the API's base URL. */
export interface BenchRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Paths sent in turn in place of `path`, one per request, over all connections. */
  readonly paths?: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** An answer as it goes on the wire, without the headers of the connection (date, keep-alive, length). */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One throughput scenario: the mock against the bare baseline (and Prism where `prism` is set). */
export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly request: BenchRequest;
  /** The answer to the first such request sent to a freshly started server. */
  readonly answer: Answer;
  /** The mock's req/s must be at least this share of the bare baseline's. */
  readonly minRatio: number;
  /** The mock's req/s must be at least this multiple of Prism's. */
  readonly minPrismRatio?: number;
}

export const BASE_PATH = '/v1';
const AUTH = { authorization: `Bearer ${DEFAULT_API_KEY}` };
const pets = seededPets(DEFAULT_SEED, DEFAULT_COUNT);
/** `limit`'s bounds and default page, as the spec gives them. */
const PAGE = operationOfKind(BUNDLED_MODEL, 'list')?.pageSize;
if (PAGE?.default === undefined) throw new Error("the spec's list has no page size with a default: the benchmark's list scenarios read it");
const { minimum, maximum, default: defaultPage } = PAGE;

// What every answer of the mock carries, and getPet's deprecation notice.
const JSON_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Deprecation, Sunset, Link, WWW-Authenticate, Preference-Applied, Retry-After',
  'content-type': 'application/json',
};
const DEPRECATION_HEADERS = { deprecation: '@1748736000', link: `<${BASE_PATH}/pets>; rel="successor-version"`, sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' };

const ok = (status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): Answer => ({
  status,
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(value),
});
const error = (code: string, status: number, message: string, headers: Readonly<Record<string, string>> = {}): Answer =>
  ok(status, { code, message, status }, headers);

const get = (path: string, headers: Readonly<Record<string, string>> = AUTH): BenchRequest => ({ method: 'GET', path, headers });

/** The answer to a request without a key, whatever its path. */
const UNAUTHORIZED = error('unauthorized', 401, AUTH_MESSAGES.missing, { 'www-authenticate': 'Bearer' });

const NEW_PET = { name: 'Rex', categoryId: 3, status: 'pending' };

/** Every throughput scenario, in the order they run. */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'list',
    title: `GET /v1/pets?limit=${defaultPage}`,
    request: get(`/pets?limit=${defaultPage}`),
    answer: ok(200, pets.slice(0, defaultPage)),
    minRatio: 0.85,
    minPrismRatio: 20,
  },
  {
    id: 'sold',
    title: `GET /v1/pets?status=sold&limit=${maximum}`,
    request: get(`/pets?status=sold&limit=${maximum}`),
    answer: ok(200, pets.filter((pet) => pet.status === 'sold').slice(0, maximum)),
    minRatio: 0.8,
  },
  {
    id: 'create',
    title: 'POST /v1/pets (valid body)',
    request: { method: 'POST', path: '/pets', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(NEW_PET) },
    answer: ok(201, { id: pets.length + 1, ...NEW_PET }, { location: `${BASE_PATH}/pets/${pets.length + 1}` }),
    minRatio: 0.7,
  },
  {
    id: 'get',
    title: 'GET /v1/pets/7',
    request: get('/pets/7'),
    answer: ok(200, pets[6], DEPRECATION_HEADERS),
    minRatio: 0.85,
  },
  { id: 'unauthorized', title: 'GET /v1/pets without a key (401)', request: get('/pets', {}), answer: UNAUTHORIZED, minRatio: 0.85 },
  {
    id: 'bad-limit',
    title: `GET /v1/pets?limit=${minimum - 1} (400)`,
    request: get(`/pets?limit=${minimum - 1}`),
    answer: error('bad_request', 400, `limit must be an integer from ${minimum} to ${maximum}.`),
    minRatio: 0.85,
  },
];

/** The bare baseline's configuration: every scenario's answer, made once. */
export function bareConfig(): BareConfig {
  return {
    apiKey: DEFAULT_API_KEY,
    unauthorized: UNAUTHORIZED,
    answers: Object.fromEntries(
      SCENARIOS.filter((scenario) => scenario.request.method === 'GET' && scenario.answer !== UNAUTHORIZED).map((scenario) => [
        `GET ${BASE_PATH}${scenario.request.path}`,
        scenario.answer,
      ]),
    ),
    create: { path: `${BASE_PATH}/pets`, headers: JSON_HEADERS, firstId: pets.length + 1 },
  };
}

/** getPet over this many distinct ids (issue 36: no cliff past the router's memo)... */
export const DISTINCT_IDS = 10_000;
/** ...beside the same route over this many, which any memo holds. */
export const FEW_IDS = 200;

/** `GET /pets/1` to `GET /pets/<count>`, in turn. */
export function getPetsRequest(count: number): BenchRequest {
  return { ...get('/pets/1'), paths: Array.from({ length: count }, (_, i) => `/pets/${i + 1}`) };
}
