import type { ValidateFunction } from 'ajv';
import { BIG_ID_OFFSET, DEFAULT_COUNT, DEFAULT_SEED, seededPets } from '../fixtures/seed.js';
import { openapi } from '../generated/openapi.js';
import type { operations } from '../generated/types.js';
import * as validators from '../generated/validators.js';
import { type JsonValue, parseJson, stringifyJson, validationView } from '../json/lossless.js';
import { parametersOf } from '../spec/document.js';
import { BASE_PATH, GET_PET_REPLACEMENT, GET_PET_SUNSET, MAX_BODY_BYTES } from '../spec/facts.js';
import type { PetStatus } from '../types.js';
import { readLimited } from '../web/read-limited.js';
import { ADMIN_PREFIX, createAdmin, tooManySessions } from './admin.js';
import { AUTH_MESSAGES, type AuthProblem, apiKeyProblem, bearerCheck, DEFAULT_API_KEY, KEY_LABEL, type LabelledApiKey, UNAUTHORIZED_HEADERS } from './auth.js';
import { Coverage, type CoverageKeeper, type CoverageReport, type EnumValues } from './coverage.js';
import { ANSWER_HEADERS, errorResponse, JSON_CONTENT_TYPE, jsonResponse, type MockRequest, type MockResponse, shared } from './exchange.js';
import { memoize } from './memo.js';
import { andThen, type Pending } from './pending.js';
import { appliedPreferences, forcedResponse, type Preferences, readPreferences } from './prefer.js';
import { matchRoute, type Route, routesOf } from './routes.js';
import { createSelfCheck } from './self-check.js';
import { DEFAULT_SESSION, describeSessionName, SESSION_HEADER, type Session, type SessionRegistry, Sessions, sessionName } from './sessions.js';
import { type SharedState, unavailableAnswer } from './store/shared-state.js';
import type { PetDraft, PetStore, StoredPet } from './store.js';
import { describeErrors, readParameters } from './validation.js';

/**
 * How a mock behaves. Every field is optional; `normalizeMockOptions` fills in the defaults.
 * @example
 * const options: MockOptions = { apiKey: 'test-key', seed: 7, count: 10, delay: 200 };
 */
export interface MockOptions {
  /** The accepted bearer key, when there is one; accepted along with `apiKeys`. */
  readonly apiKey?: string;
  /**
   * Accepted bearer keys; a labelled one is shown by its label in the request log. Default, when
   * neither `apiKey` nor `apiKeys` names one: `[DEFAULT_API_KEY]` (`petstore-dev-key`).
   */
  readonly apiKeys?: readonly (string | LabelledApiKey)[];
  /** Seed of the generated pets. Default: `DEFAULT_SEED`. */
  readonly seed?: number;
  /** How many pets the mock starts with. Default: `DEFAULT_COUNT` (50). */
  readonly count?: number;
  /** Milliseconds added before every API answer, to rehearse a slow network. Default: 0. */
  readonly delay?: number;
  /**
   * The mock's clock in epoch milliseconds; moving it past 5 December 2030 retires getPet. Default:
   * `Date.now` (in `startMockServer`: the real clock read at most once a millisecond, see `coarseClock`).
   */
  readonly now?: () => number;
  /** The path every operation is served under. Default: the spec's `/v1`. */
  readonly basePath?: string;
  /** Ids beyond 2^53 (`BIG_ID_OFFSET` + n), exact in the JSON: a canary for clients that read ids into numbers. Default: false, ids from 1. */
  readonly bigIds?: boolean;
  /** Honour `Prefer: code=, delay=, auth=expired` and their `__code`-style query twins. Default: true. */
  readonly prefer?: boolean;
  /** Milliseconds a named session (`X-Mock-Session`) may stay idle before it is dropped. Default: 30 minutes. */
  readonly sessionTtl?: number;
  /** How many named sessions may be open at once; one more is answered 429. Default: 100. */
  readonly maxSessions?: number;
  /**
   * Check every answer against spec/openapi.yaml; a mismatch becomes a 500 naming it, and is passed
   * to the function when one is given (to log it, or to fail a test). Default: false.
   */
  readonly selfCheck?: boolean | ((mismatch: string) => void);
  /** Pets created in an earlier run, restored into the default session after the seeded ones (their ids follow on). Default: none. */
  readonly restore?: readonly PetDraft[];
  /**
   * Called after every change of the default session's pets (a create, a reset) with the pets
   * created since the seed; the answer waits for it, so a 201 means it is saved. Named sessions
   * are never saved. Default: none (state lives in memory).
   */
  readonly persist?: (created: readonly StoredPet[]) => Promise<void>;
  /** Whether `/__mock/*` needs the key too, as it must when the mock is reachable beyond this machine. Default: false. */
  readonly adminKeyRequired?: boolean;
  /**
   * State kept in Redis (`openSharedState`, or `startMockServer({ store })`), shared by every replica:
   * its sessions and coverage replace the in-memory ones. Default: none, state in this process.
   */
  readonly shared?: SharedState;
}

/** The options with every default filled in; `apiKey` is folded into `apiKeys`, labels into `keyLabels`. */
export interface ResolvedMockOptions extends Required<Omit<MockOptions, 'apiKey' | 'apiKeys' | 'selfCheck' | 'persist' | 'shared'>> {
  readonly apiKeys: readonly string[];
  /** The label of each labelled key, by key. */
  readonly keyLabels: ReadonlyMap<string, string>;
  /** Where self-check mismatches go; `undefined` when the self-check is off. */
  readonly selfCheck: ((mismatch: string) => void) | undefined;
  readonly persist: MockOptions['persist'];
  readonly shared: SharedState | undefined;
}

const DEFAULT_SESSION_TTL = 30 * 60_000;
const DEFAULT_MAX_SESSIONS = 100;

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be a whole number, ${min} or more; got ${value}`);
  return value;
}

/** The options with every default filled in, as a new object; the caller's object is never changed. */
export function normalizeMockOptions(options: MockOptions = {}): ResolvedMockOptions {
  const named = [...(options.apiKey === undefined ? [] : [options.apiKey]), ...(options.apiKeys ?? [])];
  const keyLabels = new Map<string, string>();
  const apiKeys = (named.length > 0 ? named : [DEFAULT_API_KEY]).map((entry) => {
    if (typeof entry === 'string') return entry;
    if (!KEY_LABEL.test(entry.label))
      throw new TypeError(`apiKeys: a key label is a word of letters, digits, '_', '.' or '-'; got ${JSON.stringify(entry.label)}`);
    keyLabels.set(entry.key, entry.label);
    return entry.key;
  });
  for (const key of apiKeys) {
    const problem = apiKeyProblem(key);
    if (problem !== undefined) throw new TypeError(`apiKey, apiKeys: ${problem}`);
  }
  const count = options.count ?? DEFAULT_COUNT;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number of pets, 0 or more; got ${count}`);
  const delay = options.delay ?? 0;
  if (!(delay >= 0)) throw new RangeError(`delay must be 0 or more milliseconds; got ${delay}`);
  const { selfCheck = false } = options;
  return {
    apiKeys,
    keyLabels,
    seed: options.seed ?? DEFAULT_SEED,
    count,
    delay,
    now: options.now ?? Date.now,
    basePath: (options.basePath ?? BASE_PATH).replace(/\/+$/, ''),
    bigIds: options.bigIds ?? false,
    prefer: options.prefer ?? true,
    sessionTtl: wholeNumber('sessionTtl', options.sessionTtl ?? DEFAULT_SESSION_TTL, 1),
    maxSessions: wholeNumber('maxSessions', options.maxSessions ?? DEFAULT_MAX_SESSIONS, 0),
    selfCheck: selfCheck === true ? () => {} : selfCheck === false ? undefined : selfCheck,
    restore: [...(options.restore ?? [])],
    persist: options.persist,
    shared: options.shared,
    adminKeyRequired: options.adminKeyRequired ?? false,
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
  /**
   * `handle` for hosts that write answers themselves: an answer that needs no waiting (no body to
   * read, no delay, nothing to save) comes back at once rather than in a promise.
   */
  respond(request: MockRequest): Pending<MockResponse>;
  /** `handle` for a web-standard `Request`. */
  fetch(request: Request): Promise<Response>;
  /** Puts the mock back as it started: the default session's pets and clock seeded again, every named session dropped. Coverage is kept. */
  reset(): Pending<void>;
  /** What clients have exercised so far (`GET /__mock/coverage`). */
  coverage(): Pending<CoverageReport>;
  /**
   * Whether a request to this path is the mock's to answer: the base path and everything under it,
   * and the admin endpoints. Hosts that share the network with other services (MSW) claim only these.
   */
  serves(path: string): boolean;
  /** The default session's store: that of requests without `X-Mock-Session`. */
  readonly store: PetStore;
  readonly options: ResolvedMockOptions;
}

type OperationId = keyof operations;

/** An operation's path and query parameters as a request-target gives them: checked, or the 400 that refuses them. */
type Inputs = { readonly value: Readonly<Record<string, unknown>> } | { readonly error: MockResponse };

/** An operation as one request-target reaches it. */
interface Reached {
  readonly operationId: OperationId;
  readonly inputs: Inputs;
  /** The documented enum values the target's query carries, as coverage counts them. */
  readonly enumValues: EnumValues;
}

/**
 * What a request-target's text alone decides: where it leads and, for each operation of its route,
 * the inputs it gives. Worked out once per distinct target and shared by its requests, never changed.
 */
interface Target {
  /** Still percent-encoded, base path included. */
  readonly path: string;
  readonly query: string;
  readonly area: 'api' | 'admin' | 'elsewhere';
  /** The route of an API path, when one matches. */
  readonly route: Route | undefined;
  /** The route's operations, by method. */
  readonly operations: ReadonlyMap<string, Reached>;
}

interface Context {
  readonly request: MockRequest;
  readonly inputs: Inputs;
  readonly session: Session;
}

/** What the handler learns of a request on the way, for coverage, the self-check and the log. */
interface Trace {
  reached: Reached | undefined;
  keyLabel: string | undefined;
  session: string | undefined;
}

const routes: readonly Route[] = routesOf(openapi);
const NO_INPUTS: Inputs = { value: {} };
const ROUTE_OPERATIONS = new Map(routes.flatMap((route) => [...route.operations.values()].map((entry) => [entry.operationId, entry])));

function parametersIn(operationId: OperationId, location: 'query' | 'path') {
  const entry = ROUTE_OPERATIONS.get(operationId);
  return entry ? parametersOf(openapi, entry.operation).filter((p) => p.in === location) : [];
}

const LIST_QUERY = parametersIn('listPets', 'query');
const GET_PATH = parametersIn('getPet', 'path');

const PREFLIGHT_HEADERS = {
  'access-control-allow-headers': 'Authorization, Content-Type, Prefer, X-Mock-Session',
  'access-control-max-age': '600',
};
const UNAUTHORIZED = Object.fromEntries(
  Object.entries(AUTH_MESSAGES).map(([problem, message]) => [problem, shared(errorResponse('unauthorized', message, UNAUTHORIZED_HEADERS))]),
) as Record<AuthProblem, MockResponse>;
const SUNSET_MS = GET_PET_SUNSET.getTime();
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

/**
 * Creates a mock of the pet store: the seeded store and the one function that answers requests.
 * Every host calls it (the Node server `respond`, MSW `handle`); no rule of the interface lives anywhere else.
 * @example
 * const mock = createMockApi({ seed: 7, count: 10 });
 * const response = await mock.fetch(new Request('http://mock.test/v1/pets?limit=2', {
 *   headers: { authorization: 'Bearer petstore-dev-key' },
 * }));
 */
export function createMockApi(options: MockOptions = {}): MockApi {
  const settings = normalizeMockOptions(options);
  const { basePath } = settings;
  const sharedState = settings.shared;
  const memory = sharedState
    ? undefined
    : new Sessions({
        seed: seededPets(settings.seed, settings.count, { bigIds: settings.bigIds }),
        idOffset: settings.bigIds ? BIG_ID_OFFSET : undefined,
        now: settings.now,
        ttl: settings.sessionTtl,
        max: settings.maxSessions,
      });
  for (const pet of settings.restore) memory?.default.store.create(pet);
  const sessions: SessionRegistry = sharedState?.sessions ?? (memory as Sessions);
  const defaultStore = sharedState ? sharedState.store.store(DEFAULT_SESSION) : (memory as Sessions).default.store;
  const coverage: CoverageKeeper = sharedState?.coverage ?? new Coverage(basePath);

  /** Saves the default session's pets where `persist` keeps them; an Error response when that fails. */
  async function save(): Promise<MockResponse | undefined> {
    if (!settings.persist) return undefined;
    try {
      await settings.persist(await defaultStore.created());
      return undefined;
    } catch (error) {
      return errorResponse('internal_error', `The change is made in memory but could not be saved: ${(error as Error).message}.`);
    }
  }
  const authorize = bearerCheck(settings.apiKeys);
  const answerAdmin = createAdmin(sessions, coverage);
  const selfCheck = settings.selfCheck && createSelfCheck(settings.selfCheck);
  const deprecationHeaders = {
    deprecation: 'true',
    sunset: GET_PET_SUNSET.toUTCString(),
    link: `<${basePath}${GET_PET_REPLACEMENT.path}>; rel="successor-version"`,
  };
  const petHeaders = Object.freeze({ ...ANSWER_HEADERS, ...deprecationHeaders });

  /** Each operation's path and query parameters, read from a target and checked against the spec. */
  const inputsOf: Record<OperationId, (params: Readonly<Record<string, string>>, query: string) => Inputs> = {
    listPets(_, query) {
      const search = new URLSearchParams(query);
      const checked = validate(
        validators.listPetsQuery,
        readParameters(LIST_QUERY, (name) => search.get(name)),
        'The query',
      );
      return 'error' in checked ? { error: shared(checked.error) } : checked;
    },
    createPet: () => NO_INPUTS,
    getPet(params) {
      const values = readParameters(GET_PATH, (name) => params[name]);
      const checked = validate(validators.getPetPath, values, 'The path');
      // The path as sent holds a petId beyond 2^53 exactly; the view ajv checked does not.
      return 'error' in checked ? { error: shared(withHeaders(checked.error, deprecationHeaders)) } : { value: values };
    },
  };

  const apiPrefix = `${basePath}/`;
  const isApiPath = (path: string) => path === basePath || path.startsWith(apiPrefix);
  const isAdminPath = (path: string) => path.startsWith(ADMIN_PREFIX);

  // A client repeating a request pays once for what its target's text decides.
  const targetOf = memoize((text): Target => {
    const mark = text.indexOf('?');
    const path = mark === -1 ? text : text.slice(0, mark);
    const query = mark === -1 ? '' : text.slice(mark + 1);
    if (!isApiPath(path)) return { path, query, area: isAdminPath(path) ? 'admin' : 'elsewhere', route: undefined, operations: new Map() };
    const match = matchRoute(routes, path.slice(basePath.length));
    const operations = new Map<string, Reached>();
    if (match === undefined) return { path, query, area: 'api', route: undefined, operations };
    for (const [method, { operationId }] of match.route.operations) {
      const id = operationId as OperationId;
      operations.set(method, { operationId: id, inputs: inputsOf[id](match.params, query), enumValues: coverage.enumValuesOf(id, query) });
    }
    return { path, query, area: 'api', route: match.route, operations };
  });

  const implementations: Record<OperationId, (context: Context) => Pending<MockResponse>> = {
    listPets({ inputs, session }) {
      if ('error' in inputs) return inputs.error;
      const { limit, status } = inputs.value as { limit: number; status?: PetStatus };
      return andThen(session.store.listJson(limit, status), (body) => ({ status: 200, headers: ANSWER_HEADERS, body }));
    },

    async createPet({ request, session }) {
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
      // Coverage counts the body as sent, before the defaults fill it in.
      coverage.recordBody('createPet', body);
      const checked = validate(validators.createPetBody, body, 'The request body');
      if ('error' in checked) return checked.error;
      // The view carries the spec's defaults; the body as sent carries categoryId exactly.
      const sent = body as Record<string, JsonValue>;
      const pet = await session.store.create({
        name: checked.value.name as string,
        categoryId: sent.categoryId as number | bigint,
        status: checked.value.status as PetStatus,
      });
      const unsaved = session.name === DEFAULT_SESSION ? await save() : undefined;
      return unsaved ?? jsonResponse(201, stringifyJson(pet), { location: `${basePath}/pets/${pet.id}` });
    },

    getPet({ inputs, session }) {
      if (session.clock.now() >= SUNSET_MS) {
        return errorResponse(
          'gone',
          `GET ${basePath}/pets/{petId} was removed on ${deprecationHeaders.sunset}; use GET ${basePath}${GET_PET_REPLACEMENT.path} with the status filter.`,
          { sunset: deprecationHeaders.sunset },
        );
      }
      if ('error' in inputs) return inputs.error;
      const id = inputs.value.petId as number | bigint;
      return andThen(session.store.petJson(id), (json) =>
        json === undefined ? errorResponse('not_found', `No pet has id ${id}.`, deprecationHeaders) : { status: 200, headers: petHeaders, body: json },
      );
    },
  };

  /** A request under the base path. */
  function answerApi(request: MockRequest, method: string, target: Target, trace: Trace): Pending<MockResponse> {
    const { route } = target;
    if (method === 'OPTIONS') {
      const allow = route?.allow ?? 'OPTIONS';
      return jsonResponse(204, '', { allow, 'access-control-allow-methods': allow, ...PREFLIGHT_HEADERS });
    }
    const reached = target.operations.get(method === 'HEAD' ? 'GET' : method);
    trace.reached = reached;
    const key = authorize(request.header('authorization'));
    if (typeof key === 'string') return UNAUTHORIZED[key];
    if (settings.keyLabels.size > 0) trace.keyLabel = settings.keyLabels.get(settings.apiKeys[key] as string);
    if (!route) return errorResponse('not_found', `No operation is served at ${target.path}. ${describeOperations(basePath)}`);
    if (!reached)
      return errorResponse('method_not_allowed', `${method} is not allowed on ${basePath}${route.template}; allowed: ${route.allow}.`, { allow: route.allow });
    return answerOperation(request, target.query, reached, trace);
  }

  /**
   * An authorized request to an operation: its session, then what it prefers (a forced answer never
   * opens a session nor touches state), then the operation itself.
   */
  function answerOperation(request: MockRequest, query: string, reached: Reached, trace: Trace): Pending<MockResponse> {
    const header = request.header(SESSION_HEADER);
    const name = sessionName(header);
    if (name === undefined) return errorResponse('bad_request', describeSessionName(header ?? ''));
    if (name !== DEFAULT_SESSION) trace.session = name;
    const preferences = settings.prefer ? readPreferences(request.header('prefer'), query, reached.operationId) : undefined;
    if (preferences && 'error' in preferences) return preferences.error;
    const delay = preferences?.delay ?? settings.delay;
    const response =
      delay > 0
        ? new Promise<void>((resolve) => setTimeout(resolve, delay)).then(() => operate(request, reached, name, preferences))
        : operate(request, reached, name, preferences);
    return preferences ? andThen(response, (made) => withHeaders(made, { 'preference-applied': appliedPreferences(preferences) })) : response;
  }

  /** The operation's answer: the one the request forces, or the operation's own in the request's session. */
  function operate(request: MockRequest, reached: Reached, name: string, preferences: Preferences | undefined): Pending<MockResponse> {
    const forced = preferences && forcedResponse(preferences, reached.operationId);
    if (forced) return forced;
    return andThen(sessions.open(name), (session) =>
      session ? implementations[reached.operationId]({ request, inputs: reached.inputs, session }) : tooManySessions(sessions),
    );
  }

  /** The admin, behind the key when the mock is reachable beyond this machine; a reset is saved. */
  async function answerAdminWithKey(request: MockRequest, method: string, path: string): Promise<MockResponse> {
    if (settings.adminKeyRequired) {
      const key = authorize(request.header('authorization'));
      if (typeof key === 'string') return UNAUTHORIZED[key];
    }
    const response = await answerAdmin(request, method, path);
    const reset = method === 'POST' && path.endsWith('/reset') && response.status === 200;
    return (reset && (await save())) || response;
  }

  function route(request: MockRequest, trace: Trace): Pending<MockResponse> {
    const { method } = request;
    const target = targetOf(request.target);
    if (target.area === 'api') return answerApi(request, method, target, trace);
    if (target.area === 'admin') return answerAdminWithKey(request, method, target.path);
    return errorResponse('not_found', `No operation is served at ${target.path}: the API lives under ${basePath}. ${describeOperations(basePath)}`);
  }

  /** The answer as it leaves: self-checked, counted, with what the log may add. */
  function conclude(trace: Trace, made: MockResponse): MockResponse {
    const { reached } = trace;
    const response = selfCheck ? selfCheck(reached?.operationId, made) : made;
    if (reached) coverage.record(reached.operationId, response.status, reached.enumValues);
    return trace.keyLabel === undefined && trace.session === undefined ? response : { ...response, logDetail: logDetailOf(trace) };
  }

  function respond(request: MockRequest): Pending<MockResponse> {
    const trace: Trace = { reached: undefined, keyLabel: undefined, session: undefined };
    let made: Pending<MockResponse>;
    try {
      made = route(request, trace);
    } catch (error) {
      made = failure(error);
    }
    return made instanceof Promise
      ? made.then(
          (response) => conclude(trace, response),
          (error: unknown) => conclude(trace, failure(error)),
        )
      : conclude(trace, made);
  }

  const handle = async (request: MockRequest): Promise<MockResponse> => respond(request);

  return {
    handle,
    respond,
    fetch: async (request) => toResponse(await handle(fromRequest(request)), request.method),
    reset: () => sessions.resetAll(),
    coverage: () => coverage.report(),
    serves: (path) => isApiPath(path) || isAdminPath(path),
    store: defaultStore,
    options: settings,
  };
}

function failure(error: unknown): MockResponse {
  const unavailable = unavailableAnswer(error);
  if (unavailable) return unavailable;
  return errorResponse('internal_error', `The mock failed to answer: ${(error as Error).message}. This is a bug in petstore-mock; please report it.`);
}

/** `key=ci session=worker-1`: what the request log shows of a request beyond its line; never a key. */
function logDetailOf(trace: Trace): string {
  return [trace.keyLabel === undefined ? '' : `key=${trace.keyLabel}`, trace.session === undefined ? '' : `session=${trace.session}`].filter(Boolean).join(' ');
}

function describeOperations(basePath: string): string {
  const list = routes.flatMap((route) => [...route.operations.keys()].map((method) => `${method} ${basePath}${route.template}`));
  return `The operations are ${list.join(', ')}.`;
}

/** A web `Request` as the handler's `MockRequest`. */
export function fromRequest(request: Request): MockRequest {
  const url = new URL(request.url);
  return {
    // Fetch leaves the case of methods other than the six it knows as sent: `patch`.
    method: request.method.toUpperCase(),
    target: url.pathname + url.search,
    header: (name) => request.headers.get(name) ?? undefined,
    text: (maxBytes) => readLimited(request.body, maxBytes),
  };
}

/** The handler's answer as a web `Response`; bodies are dropped where HTTP forbids them. */
export function toResponse(response: MockResponse, method: string): Response {
  const bodyless = response.status === 204 || response.status === 304 || method.toUpperCase() === 'HEAD';
  return new Response(bodyless ? null : response.body, { status: response.status, headers: response.headers });
}
