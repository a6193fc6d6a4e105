import type { ValidateFunction } from 'ajv';
import { DEFAULT_COUNT, DEFAULT_SEED, seededPets } from '../fixtures/seed.js';
import { openapi } from '../generated/openapi.js';
import type { operations } from '../generated/types.js';
import * as validators from '../generated/validators.js';
import { type JsonValue, parseJson, validationView } from '../json/lossless.js';
import { parametersOf } from '../spec/document.js';
import { BASE_PATH, GET_PET_REPLACEMENT, GET_PET_SUNSET, MAX_BODY_BYTES } from '../spec/facts.js';
import type { PetStatus } from '../types.js';
import { readLimited } from '../web/read-limited.js';
import { AUTH_MESSAGES, type AuthProblem, checkBearer, DEFAULT_API_KEY } from './auth.js';
import { errorResponse, JSON_CONTENT_TYPE, jsonResponse, type MockRequest, type MockResponse } from './exchange.js';
import { memoize } from './memo.js';
import { matchRoute, type Route, routesOf } from './routes.js';
import { PetStore } from './store.js';
import { describeErrors, readParameters } from './validation.js';

/**
 * How a mock behaves. Every field is optional; `normalizeMockOptions` fills in the defaults.
 * @example
 * const options: MockOptions = { apiKey: 'test-key', seed: 7, count: 10, delay: 200 };
 */
export interface MockOptions {
  /** The accepted bearer key, when there is one; accepted along with `apiKeys`. */
  readonly apiKey?: string;
  /** Accepted bearer keys. Default, when neither `apiKey` nor `apiKeys` names one: `[DEFAULT_API_KEY]` (`petstore-dev-key`). */
  readonly apiKeys?: readonly string[];
  /** Seed of the generated pets. Default: `DEFAULT_SEED`. */
  readonly seed?: number;
  /** How many pets the mock starts with. Default: `DEFAULT_COUNT` (50). */
  readonly count?: number;
  /** Milliseconds added before every API answer, to rehearse a slow network. Default: 0. */
  readonly delay?: number;
  /** The mock's clock in epoch milliseconds; moving it past 5 December 2030 retires getPet. Default: `Date.now`. */
  readonly now?: () => number;
  /** The path every operation is served under. Default: the spec's `/v1`. */
  readonly basePath?: string;
}

/** The options with every default filled in; `apiKey` is folded into `apiKeys`. */
export type ResolvedMockOptions = Required<Omit<MockOptions, 'apiKey'>>;

/** The options with every default filled in, as a new object; the caller's object is never changed. */
export function normalizeMockOptions(options: MockOptions = {}): ResolvedMockOptions {
  const named = [...(options.apiKey === undefined ? [] : [options.apiKey]), ...(options.apiKeys ?? [])];
  const apiKeys = named.length > 0 ? named : [DEFAULT_API_KEY];
  for (const key of apiKeys) if (key === '') throw new TypeError('apiKey, apiKeys: an API key cannot be empty');
  const count = options.count ?? DEFAULT_COUNT;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number of pets, 0 or more; got ${count}`);
  const delay = options.delay ?? 0;
  if (!(delay >= 0)) throw new RangeError(`delay must be 0 or more milliseconds; got ${delay}`);
  return {
    apiKeys,
    seed: options.seed ?? DEFAULT_SEED,
    count,
    delay,
    now: options.now ?? Date.now,
    basePath: (options.basePath ?? BASE_PATH).replace(/\/+$/, ''),
  };
}

/**
 * A running mock: one request handler over one store.
 * @example
 * const mock: MockApi = createMockApi();
 * const response = await mock.fetch(new Request('http://mock.test/v1/pets'));  // 401: no key
 */
export interface MockApi {
  /** Answers one request. Never throws: a fault of the mock itself is a 500 Error response. */
  handle(request: MockRequest): Promise<MockResponse>;
  /** `handle` for a web-standard `Request`. */
  fetch(request: Request): Promise<Response>;
  /** Puts the store back to the seeded pets. */
  reset(): void;
  /**
   * Whether a request to this path is the mock's to answer: the base path and everything under it,
   * and the admin endpoints. Hosts that share the network with other services (MSW) claim only these.
   */
  serves(path: string): boolean;
  readonly store: PetStore;
  readonly options: ResolvedMockOptions;
}

type OperationId = keyof operations;

interface Context {
  readonly request: MockRequest;
  readonly params: Readonly<Record<string, string>>;
}

const routes: readonly Route[] = routesOf(openapi);
const ROUTE_OPERATIONS = new Map(routes.flatMap((route) => [...route.operations.values()].map((entry) => [entry.operationId, entry])));

function parametersIn(operationId: OperationId, location: 'query' | 'path') {
  const entry = ROUTE_OPERATIONS.get(operationId);
  return entry ? parametersOf(openapi, entry.operation).filter((p) => p.in === location) : [];
}

const LIST_QUERY = parametersIn('listPets', 'query');
const GET_PATH = parametersIn('getPet', 'path');

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Deprecation, Sunset, Link, WWW-Authenticate',
};
const PREFLIGHT_HEADERS = {
  'access-control-allow-headers': 'Authorization, Content-Type, Prefer, X-Mock-Session',
  'access-control-max-age': '600',
};
const UNAUTHORIZED_HEADERS = { 'www-authenticate': 'Bearer' };
// The answers the mock makes most are made with their final headers, CORS included, and `handle`
// merges nothing into them: see `final`.
const ANSWER_HEADERS = { 'content-type': JSON_CONTENT_TYPE, ...CORS_HEADERS };
const UNAUTHORIZED = Object.fromEntries(
  Object.entries(AUTH_MESSAGES).map(([problem, message]) => [problem, final(errorResponse('unauthorized', message, UNAUTHORIZED_HEADERS))]),
) as Record<AuthProblem, MockResponse>;
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Validates `data` and returns the view ajv checked (with defaults applied), or a 400 response. */
function validate(
  validator: ValidateFunction,
  data: JsonValue | Record<string, unknown>,
  whole: string,
): { value: Record<string, unknown> } | { error: MockResponse } {
  const view = validationView(data as JsonValue);
  if (validator(view)) return { value: view as Record<string, unknown> };
  return { error: errorResponse('bad_request', `${describeErrors(validator.errors ?? [], data, whole)}.`) };
}

function withHeaders(response: MockResponse, headers: Readonly<Record<string, string>>): MockResponse {
  return { ...response, headers: { ...response.headers, ...headers } };
}

/** The response with the headers every answer carries; those made with them already are returned as they are. */
function final(response: MockResponse): MockResponse {
  return 'access-control-allow-origin' in response.headers ? response : withHeaders(response, CORS_HEADERS);
}

/**
 * Creates a mock of the pet store: the seeded store and the one function that answers requests.
 * Every host (the Node server, MSW) calls `handle`; no rule of the interface lives anywhere else.
 * @example
 * const mock = createMockApi({ seed: 7, count: 10 });
 * const response = await mock.fetch(new Request('http://mock.test/v1/pets?limit=2', {
 *   headers: { authorization: 'Bearer petstore-dev-key' },
 * }));
 */
export function createMockApi(options: MockOptions = {}): MockApi {
  const settings = normalizeMockOptions(options);
  const { basePath } = settings;
  const store = new PetStore(seededPets(settings.seed, settings.count));
  const deprecationHeaders = {
    deprecation: 'true',
    sunset: GET_PET_SUNSET.toUTCString(),
    link: `<${basePath}${GET_PET_REPLACEMENT.path}>; rel="successor-version"`,
  };
  const petHeaders = { ...ANSWER_HEADERS, ...deprecationHeaders };
  // A route and a query's validity depend on their text alone: a client repeating a request pays for them once.
  const routeOf = memoize((path) => matchRoute(routes, path));
  const checkListQuery = memoize((query) => {
    const search = new URLSearchParams(query);
    const checked = validate(
      validators.listPetsQuery,
      readParameters(LIST_QUERY, (name) => search.get(name)),
      'The query',
    );
    return 'error' in checked ? { error: final(checked.error) } : checked;
  });

  const implementations: Record<OperationId, (context: Context) => MockResponse | Promise<MockResponse>> = {
    listPets({ request }) {
      const checked = checkListQuery(request.query);
      if ('error' in checked) return checked.error;
      const { limit, status } = checked.value as { limit: number; status?: PetStatus };
      return { status: 200, headers: ANSWER_HEADERS, body: store.listJson(limit, status) };
    },

    async createPet({ request }) {
      const contentType = request.header('content-type');
      if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) {
        return errorResponse(
          'unsupported_media_type',
          `The request body must be sent as ${JSON_CONTENT_TYPE}; got ${contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType}`}.`,
        );
      }
      const text = await request.text(MAX_BODY_BYTES);
      if (text === undefined) return errorResponse('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`);
      if (text.trim() === '') return errorResponse('bad_request', 'The request body is required: send a NewPet such as {"name": "Rex", "categoryId": 1}.');
      let body: JsonValue;
      try {
        body = parseJson(text);
      } catch (error) {
        return errorResponse('malformed_json', `The request body is not valid JSON: ${(error as Error).message}.`);
      }
      const checked = validate(validators.createPetBody, body, 'The request body');
      if ('error' in checked) return checked.error;
      // The view carries the spec's defaults; the body as sent carries categoryId exactly.
      const sent = body as Record<string, JsonValue>;
      const pet = store.create({
        name: checked.value.name as string,
        categoryId: sent.categoryId as number | bigint,
        status: checked.value.status as PetStatus,
      });
      return jsonResponse(201, store.petJson(pet.id) as string, { location: `${basePath}/pets/${pet.id}` });
    },

    getPet({ params }) {
      if (settings.now() >= GET_PET_SUNSET.getTime()) {
        return errorResponse(
          'gone',
          `GET ${basePath}/pets/{petId} was removed on ${deprecationHeaders.sunset}; use GET ${basePath}${GET_PET_REPLACEMENT.path} with the status filter.`,
          { sunset: deprecationHeaders.sunset },
        );
      }
      const values = readParameters(GET_PATH, (name) => params[name]);
      const checked = validate(validators.getPetPath, values, 'The path');
      if ('error' in checked) return withHeaders(checked.error, deprecationHeaders);
      const id = values.petId as number | bigint;
      const json = store.petJson(id);
      if (json === undefined) return withHeaders(errorResponse('not_found', `No pet has id ${id}.`), deprecationHeaders);
      return { status: 200, headers: petHeaders, body: json };
    },
  };

  async function answerApi(request: MockRequest, method: string, path: string): Promise<MockResponse> {
    const match = routeOf(path);
    if (method === 'OPTIONS') {
      const allow = match?.route.allow ?? 'OPTIONS';
      return jsonResponse(204, '', { allow, 'access-control-allow-methods': allow, ...PREFLIGHT_HEADERS });
    }
    const problem = checkBearer(request.header('authorization'), settings.apiKeys);
    if (problem) return UNAUTHORIZED[problem];
    if (!match) return errorResponse('not_found', `No operation is served at ${basePath}${path}. ${describeOperations(basePath)}`);
    const entry = match.route.operations.get(method === 'HEAD' ? 'GET' : method);
    if (!entry)
      return errorResponse('method_not_allowed', `${method} is not allowed on ${basePath}${match.route.template}; allowed: ${match.route.allow}.`, {
        allow: match.route.allow,
      });
    if (settings.delay > 0) await new Promise((resolve) => setTimeout(resolve, settings.delay));
    return implementations[entry.operationId as OperationId]({ request, params: match.params });
  }

  function answerAdmin(method: string, path: string): MockResponse {
    const allowed = ADMIN_ROUTES[path];
    if (!allowed) return errorResponse('not_found', `No admin endpoint at ${path}; there are ${Object.keys(ADMIN_ROUTES).join(' and ')}.`);
    if (method !== allowed) return errorResponse('method_not_allowed', `${path} answers ${allowed} only.`, { allow: allowed });
    if (path === '/__mock/reset') store.reset();
    return jsonResponse(200, JSON.stringify({ status: 'ok', pets: store.size }));
  }

  const isApiPath = (path: string) => path === basePath || path.startsWith(`${basePath}/`);
  const isAdminPath = (path: string) => path.startsWith(ADMIN_PREFIX);

  async function handle(request: MockRequest): Promise<MockResponse> {
    let response: MockResponse;
    try {
      const method = request.method.toUpperCase();
      const { path } = request;
      if (isApiPath(path)) response = await answerApi(request, method, path.slice(basePath.length));
      else if (isAdminPath(path)) response = answerAdmin(method, path);
      else response = errorResponse('not_found', `No operation is served at ${path}: the API lives under ${basePath}. ${describeOperations(basePath)}`);
    } catch (error) {
      response = errorResponse('internal_error', `The mock failed to answer: ${(error as Error).message}. This is a bug in petstore-mock; please report it.`);
    }
    return final(response);
  }

  return {
    handle,
    fetch: async (request) => toResponse(await handle(fromRequest(request)), request.method),
    reset: () => store.reset(),
    serves: (path) => isApiPath(path) || isAdminPath(path),
    store,
    options: settings,
  };
}

const ADMIN_PREFIX = '/__mock/';
const ADMIN_ROUTES: Readonly<Record<string, string>> = { '/__mock/health': 'GET', '/__mock/reset': 'POST' };

function describeOperations(basePath: string): string {
  const list = routes.flatMap((route) => [...route.operations.keys()].map((method) => `${method} ${basePath}${route.template}`));
  return `The operations are ${list.join(', ')}.`;
}

/** A web `Request` as the handler's `MockRequest`. */
export function fromRequest(request: Request): MockRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    query: url.search.slice(1),
    header: (name) => request.headers.get(name) ?? undefined,
    text: (maxBytes) => readLimited(request.body, maxBytes),
  };
}

/** The handler's answer as a web `Response`; bodies are dropped where HTTP forbids them. */
export function toResponse(response: MockResponse, method: string): Response {
  const bodyless = response.status === 204 || response.status === 304 || method.toUpperCase() === 'HEAD';
  return new Response(bodyless ? null : response.body, { status: response.status, headers: response.headers });
}
