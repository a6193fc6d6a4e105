/**
 * The one path every request walks, in the same order:
 *   route -> auth -> session name -> preferences -> (delay) -> removed (410) -> inputs (400) -> forced answer
 *   -> the body's inputs (400, 413, 415) -> open session -> operation -> headers the operation
 *   always carries -> the profile's form -> self-check
 * Each step answers or passes on. Nothing here knows an operation's rules: those live in
 * src/mock/operations/, what a target decides in the router, and the answer's conformance in src/openapi/conformance.ts.
 */

import { tooManySessions, withoutCors } from '../admin/endpoints.js';
import {
  errorResponse,
  jsonResponse,
  type MockRequest,
  type MockResponse,
  mergePrepared,
  type PreparedAnswer,
  type PreparedHeaders,
  prepared,
  preparedResponse,
} from '../core/messages.js';
import { andThen, type Pending } from '../core/pending.js';
import type { OperationId, Reading } from '../operations/operation.js';
import type { CoverageKeeper } from '../state/coverage.js';
import { unavailableAnswer } from '../state/redis/shared-state.js';
import { DEFAULT_SESSION, describeSessionName, SESSION_HEADER, type SessionRegistry, sessionName } from '../state/sessions.js';
import { AUTH_MESSAGES, type AuthProblem, UNAUTHORIZED_HEADERS } from './auth.js';
import { appliedPreferences, forcedResponse, type Preferences, readPreferences } from './prefer.js';
import type { Reached, Router, Target } from './router.js';
import type { Route } from './routes.js';

/** The parts of a mock the pipeline runs through; `createMockApi` wires them. */
export interface PipelineParts {
  readonly basePath: string;
  readonly router: Router;
  readonly sessions: SessionRegistry;
  readonly coverage: CoverageKeeper;
  /** The key a bearer header carries (its index in `apiKeys`), or why it carries none. */
  readonly authorize: (authorization: string | undefined) => AuthProblem | number;
  readonly keyLabels: ReadonlyMap<number, string>;
  readonly adminKeyRequired: boolean;
  readonly answerAdmin: (request: MockRequest, method: string, path: string) => Promise<MockResponse>;
  /** Whether to honour `Prefer` and its query twins. */
  readonly prefer: boolean;
  /** Milliseconds before every API answer, unless the request prefers another delay. */
  readonly delay: number;
  /** Gives every answer the form a profile chooses (Error codes, charset); `undefined` keeps the mock's own. */
  readonly form: ((response: MockResponse) => MockResponse) | undefined;
  readonly selfCheck: ((operationId: OperationId | undefined, response: MockResponse, removed: boolean) => MockResponse) | undefined;
}

/** What the pipeline learns of a request on the way, for the steps after the operation and for the log. */
interface Trace {
  reached: Reached | undefined;
  preferences: Preferences | undefined;
  /** Whether the operation is removed (past its sunset) by the clock of the request's session: it then answers its 410, and carries its headers of then. */
  removed: boolean;
  /** Whether the answer is the one the preferences forced (`code=`, `auth=expired`), not one the request's inputs or the operation made. */
  forced: boolean;
  keyLabel: string | undefined;
  session: string | undefined;
}

const unauthorized = (problem: AuthProblem): PreparedAnswer => prepared(errorResponse('unauthorized', AUTH_MESSAGES[problem], UNAUTHORIZED_HEADERS));
/** The 401 of each way a credential can be wrong, made once. */
const UNAUTHORIZED: { readonly [P in AuthProblem]: PreparedAnswer } = {
  missing: unauthorized('missing'),
  scheme: unauthorized('scheme'),
  empty: unauthorized('empty'),
  key: unauthorized('key'),
};
const PREFLIGHT_HEADERS = {
  'access-control-allow-headers': 'Authorization, Content-Type, Prefer, X-Mock-Session',
  'access-control-max-age': '600',
};

/** `response` with `extra` headers over its own; two prepared sets merge once, and the merge is kept. */
function withHeaders(response: MockResponse, extra: PreparedHeaders): MockResponse {
  if (response.prepared !== undefined) return preparedResponse(response.status, mergePrepared(response.prepared, extra), response.body);
  return { status: response.status, headers: { ...response.headers, ...extra.record }, body: response.body };
}

/** A thrown error as an answer: a 503 when the shared store is away (the client may retry), else a 500 for a bug. */
function failure(error: unknown): MockResponse {
  const unavailable = unavailableAnswer(error);
  if (unavailable) return unavailable;
  const reason = error instanceof Error ? error.message : String(error);
  return errorResponse('internal_error', `The mock failed to answer: ${reason}. This is a bug in petstore-mock; please report it.`);
}

function later<T>(ms: number, next: () => Pending<T>): Promise<T> {
  return new Promise<void>((resolve) => setTimeout(resolve, ms)).then(next);
}

/** The mock's answer to any request: never throws, a fault of the mock itself becomes a 500 Error. */
export function createPipeline(parts: PipelineParts): (request: MockRequest) => Pending<MockResponse> {
  const { basePath, router, sessions, coverage, authorize, keyLabels, form, selfCheck } = parts;
  const operationsList = router.routes.flatMap((route) => [...route.operations.keys()].map((method) => `${method} ${basePath}${route.template}`)).join(', ');
  const notServed = (path: string, why: string) => errorResponse('not_found', `No operation is served at ${path}${why}. The operations are ${operationsList}.`);

  function preflight(route: Route | undefined): MockResponse {
    const allow = route?.allow ?? 'OPTIONS';
    return jsonResponse(204, '', { allow, 'access-control-allow-methods': allow, ...PREFLIGHT_HEADERS });
  }

  function answerApi(request: MockRequest, target: Target, trace: Trace): Pending<MockResponse> {
    const { method } = request;
    if (method === 'OPTIONS') return preflight(target.route);
    const reached = target.operations.get(method === 'HEAD' ? 'GET' : method);
    trace.reached = reached;
    // Decided once, before any step answers, so that every answer (the 401 too) carries the headers of the same moment; no session is opened for it.
    const removal = reached?.operation.removal;
    if (!removal) return admitted(request, target, reached, trace);
    return andThen(sessions.now(sessionName(request.header(SESSION_HEADER)) ?? DEFAULT_SESSION), (now) => {
      trace.removed = now >= removal.at;
      return admitted(request, target, reached, trace);
    });
  }

  /** Auth, the route and method, the session's name and the preferences, then the operation (after any delay). */
  function admitted(request: MockRequest, target: Target, reached: Reached | undefined, trace: Trace): Pending<MockResponse> {
    const { method } = request;
    const key = authorize(request.header('authorization'));
    if (typeof key === 'string') return UNAUTHORIZED[key];
    trace.keyLabel = keyLabels.get(key);
    if (!target.route) return notServed(target.path, '');
    if (!reached)
      return errorResponse('method_not_allowed', `${method} is not allowed on ${basePath}${target.route.template}; allowed: ${target.route.allow}.`, {
        allow: target.route.allow,
      });
    const header = request.header(SESSION_HEADER);
    const name = sessionName(header);
    if (name === undefined) return errorResponse('bad_request', describeSessionName(header ?? ''));
    if (name !== DEFAULT_SESSION) trace.session = name;
    const preferences = parts.prefer ? readPreferences(request.header('prefer'), target.query, reached.operation.id) : undefined;
    if (preferences && 'error' in preferences) return preferences.error;
    trace.preferences = preferences;
    const delay = preferences?.delay ?? parts.delay;
    return delay > 0 ? later(delay, () => operate(request, reached, name, trace)) : operate(request, reached, name, trace);
  }

  /**
   * A removed operation's 410 first, then the inputs, so that a request they refuse never opens a
   * session; a forced answer neither opens one nor touches state.
   */
  function operate(request: MockRequest, reached: Reached, name: string, trace: Trace): Pending<MockResponse> {
    const { reading, operation } = reached;
    if (trace.removed && operation.removal) return operation.removal.answer;
    if ('refusal' in reading) return reading.refusal;
    const forced = trace.preferences && forcedResponse(trace.preferences, reached.operation.id);
    if (!forced) return proceed(request, reading, name);
    trace.forced = true;
    return forced;
  }

  /** The body's inputs, when the operation has a body, then the session, then the operation. */
  function proceed(request: MockRequest, reading: Reading, name: string): Pending<MockResponse> {
    if ('refusal' in reading) return reading.refusal;
    if ('readBody' in reading) return reading.readBody(request).then((read) => proceed(request, read, name));
    return andThen(sessions.open(name), (session) => (session ? reading.answer(request, session) : tooManySessions(sessions)));
  }

  function route(request: MockRequest, trace: Trace): Pending<MockResponse> {
    const target = router.target(request.target);
    if (target.area === 'api') return answerApi(request, target, trace);
    if (target.area === 'elsewhere') return notServed(target.path, `: the API lives under ${basePath}`);
    const key = parts.adminKeyRequired ? authorize(request.header('authorization')) : 0;
    // The admin's answers carry no CORS: its 401, and its 503 while Redis is away, included.
    if (typeof key === 'string') return withoutCors(UNAUTHORIZED[key]);
    return parts.answerAdmin(request, request.method, target.path).catch((error: unknown) => withoutCors(failure(error)));
  }

  /** The steps after the answer is made: the headers its operation always carries, the self-check, coverage, the log's detail. */
  function conclude(trace: Trace, made: MockResponse): MockResponse {
    const { reached, preferences } = trace;
    const carried = reached?.operation.carries?.(made.status, trace.removed);
    let response = carried ? withHeaders(made, carried) : made;
    // Only what was applied: a code= or auth=expired that the inputs' 400 pre-empted was not.
    const { delay } = preferences ?? {};
    const applied = preferences ? appliedPreferences(trace.forced ? preferences : delay === undefined ? {} : { delay }) : '';
    if (applied !== '') response = { status: response.status, headers: { ...response.headers, 'preference-applied': applied }, body: response.body };
    if (form) response = form(response);
    if (selfCheck) response = selfCheck(reached?.operation.id, response, trace.removed);
    if (reached) coverage.record(reached.operation.id, response.status, reached.enumValues);
    if (trace.keyLabel === undefined && trace.session === undefined) return response;
    return {
      ...response,
      logDetail: [trace.keyLabel === undefined ? '' : `key=${trace.keyLabel}`, trace.session === undefined ? '' : `session=${trace.session}`]
        .filter(Boolean)
        .join(' '),
    };
  }

  return (request) => {
    const trace: Trace = { reached: undefined, removed: false, preferences: undefined, forced: false, keyLabel: undefined, session: undefined };
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
  };
}
