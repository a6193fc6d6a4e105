/**
 * The one path every request walks, in the order docs/architecture.md guarantees:
 *   1 route -> 2 auth -> (route, continued) -> 3 session name -> 4 preferences -> delay -> removed (410)
 *   -> 5 inputs (400) -> 6 forced response -> 7 the body's inputs (400, 413, 415) -> 8 open session
 *   -> 9 operation -> 10 the operation's response headers -> the profile's form -> 11 self-check
 * Each step responds or passes on; the functions below are in that order, `finish` (10 and 11) last.
 * Nothing here knows an operation's rules: those live in src/mock/operations/, what a target decides in
 * the router, and conformance in src/openapi/conformance.ts.
 *
 * This is the hot path. The steps are module functions over one `RequestContext`, the request's one
 * allocation, called one after the other: no closure is made and nothing is awaited unless a step
 * must wait (a clock or a session kept in Redis, a delay, a body), and then only from that step on.
 */

import { ClockError, SessionFullError, StoreUnavailableError } from '../../errors.js';
import type { OpenApiDocument } from '../../openapi/document.js';
import { ADMIN_PREFIX, isInspectorFile, tooManySessions, withoutCors } from '../admin/endpoints.js';
import { ICON_FILE } from '../admin/inspector/page.js';
import { breaksBeforeResponse, DEFAULT_TRICKLE_MS, type FaultKind } from '../core/faults.js';
import {
  errorResponse,
  jsonResponse,
  type MockRequest,
  type MockResponse,
  mergePrepared,
  type PreparedHeaders,
  preparedResponse,
  preparedWith,
} from '../core/messages.js';
import type { Pending } from '../core/pending.js';
import type { OperationId, ParsedInputs, Responder } from '../operations/operation.js';
import type { CoverageKeeper } from '../state/coverage.js';
import { type JournalRule, journalSession } from '../state/journal.js';
import { DEFAULT_SESSION, describeSessionName, SESSION_HEADER, type Session, type SessionRegistry, sessionName } from '../state/sessions.js';
import { type AuthProblem, UNAUTHORIZED } from './auth.js';
import { keptAuthorization, longBody, type PipelineJournal } from './journal-step.js';
import { appliedPreferences, brokenConnection, forcedResponse, type Preferences, parsePreferences } from './prefer.js';
import { type Reached, type Router, reachedBy, type Target } from './router.js';
import type { Route } from './routes.js';

/** The parts of a mock the pipeline runs through; `createMockApi` wires them. */
export interface PipelineParts {
  readonly basePath: string;
  readonly router: Router;
  readonly sessions: SessionRegistry;
  readonly coverage: CoverageKeeper;
  /** The key a bearer header holds (its index in `apiKeys`), or why it holds none. */
  readonly authorize: (authorization: string | undefined) => AuthProblem | number;
  readonly keyLabels: ReadonlyMap<number, string>;
  readonly adminKeyRequired: boolean;
  readonly respondAdmin: (request: MockRequest, method: string, path: string) => Promise<MockResponse>;
  /** Whether to honour `Prefer` and its query twins. */
  readonly prefer: boolean;
  /** Milliseconds before every API response, unless the request prefers another delay. */
  readonly delay: number;
  /** Picks a network fault for a request, or none (`--faults`); `undefined` when no fault has a rate. */
  readonly drawFault: (() => FaultKind | undefined) | undefined;
  /** Gives every response the form a profile chooses (Error codes, charset); `undefined` keeps the mock's own. */
  readonly form: ((response: MockResponse) => MockResponse) | undefined;
  readonly selfCheck: ((operationId: OperationId | undefined, response: MockResponse, removed: boolean) => MockResponse) | undefined;
  /** Where each API request is journalled (src/mock/state/journal.ts); `undefined` when the journal is off. */
  readonly journal: PipelineJournal | undefined;
  /** The spec served (what a client may force with `Prefer: code=`): the bundled one unless told (`--spec`). */
  readonly doc?: OpenApiDocument;
  /** Every answer passes it last: an Error body without the mock's keys (src/mock/core/keyless-errors.ts). */
  readonly keyless: (response: MockResponse) => MockResponse;
}

/** The parts, and what the pipeline works out from them once. */
interface Pipeline extends PipelineParts {
  /** Every operation as `GET /v1/pets`, for the 404 of a path none serves. */
  readonly operationsList: string;
}

/**
 * One request on its way: what the steps read, and what each learns for the steps after it and for
 * `finish`. Every field is set when the context is made, so that each request's has the same shape.
 */
interface RequestContext {
  readonly pipeline: Pipeline;
  readonly request: MockRequest;
  /** The operation the target and method reach, from step 1; `undefined` for a path or method none serves. */
  reached: Reached | undefined;
  /** Whether the operation is removed (past its sunset) by the clock of the request's session: it then responds with its 410, and has its headers of then. */
  removed: boolean;
  /**
   * The clock of the request's session when it arrived, read only for an operation with a sunset: its
   * answers state it in `Date` (RFC 9110 §6.6.1, the origin's clock), so that a client judging the
   * removal reads the clock that decided it, `--now` or a moved session clock included.
   */
  clock: number | undefined;
  /** The label of the key the request holds, for the log. */
  keyLabel: string | undefined;
  /** The session's name, once step 3 has checked it. */
  sessionName: string | undefined;
  preferences: Preferences | undefined;
  /** Whether the response is the one the preferences forced (`code=`, `auth=expired`), not one the inputs or the operation made. */
  forced: boolean;
  /** The network fault the response gets, from step 6: asked for (`fault=`) or drawn (`--faults`). */
  fault: FaultKind | undefined;
  /** The rule that decided the response, for the journal: set by the step that responds; `undefined` for the admin's, which is not journalled. */
  rule: JournalRule | undefined;
  /**
   * When the request reached the pipeline by the mock's clock, for the journal; 0 when it is off, or
   * when the clock (a `now` the caller gave) had no reading, the request then answered with its 500.
   */
  arrived: number;
  /**
   * When the request arrived (`performance.now()`), for the journal's latency: the host's stamp when it
   * gave one (the Node server's, which its request log times from too), else the pipeline's own; 0 when the journal is off.
   */
  readonly started: number;
  /** The body as the operation read it, for the journal. */
  body: string | undefined;
  /** The `Authorization` header as step 2 read it, for the journal; `null` until it has. */
  authorization: string | undefined | null;
  /**
   * Whether the step that waits for the body finishes the response itself, once the body is read
   * (`bodyRead`): the pipeline then adds no `then` of its own, a microtask less per create.
   */
  finishing: boolean;
}

/**
 * The clock of the journal's latencies, read once: Node defines the global `performance` as a getter
 * that costs more than the `now()` it is read for.
 */
const clock = performance;

const PREFLIGHT_HEADERS = {
  'access-control-allow-headers': 'Authorization, Content-Type, Prefer, X-Mock-Session',
  'access-control-max-age': '600',
};

/**
 * `next(context, arg, value)`: at once when `value` is here, once it comes otherwise. Unlike
 * `andThen`, it makes no closure for a value already here, and hands `arg` on to the next step.
 */
function whenReady<T, A>(
  value: Pending<T>,
  context: RequestContext,
  arg: A,
  next: (context: RequestContext, arg: A, value: T) => Pending<MockResponse>,
): Pending<MockResponse> {
  return value instanceof Promise ? value.then((ready) => next(context, arg, ready)) : next(context, arg, value);
}

/** `response`, noting for the journal the rule that decided it. */
function decided(context: RequestContext, rule: JournalRule, response: MockResponse): MockResponse {
  context.rule = rule;
  return response;
}

/**
 * A thrown error as a response: a 503 Error naming the cause when the shared store (Redis) is away,
 * which a client may retry (its `Retry-After`, as on every 503), else a 500 for a bug.
 */
function failure(error: unknown): MockResponse {
  if (error instanceof StoreUnavailableError) return errorResponse('service_unavailable', error.message);
  if (error instanceof SessionFullError) return errorResponse('too_many_requests', error.message);
  // The caller's clock is no bug of the mock: its message names the option and the range.
  if (error instanceof ClockError) return errorResponse('internal_error', error.message);
  const reason = error instanceof Error ? error.message : String(error);
  return errorResponse('internal_error', `The mock failed to answer: ${reason}. This is a bug in petstore-mock; please report it.`);
}

function notServed(pipeline: Pipeline, path: string, why: string): MockResponse {
  return errorResponse('not_found', `No operation is served at ${path}${why}. The operations are ${pipeline.operationsList}.`);
}

/** Where a browser asks for a site's icon unless the page names one. */
const FAVICON = '/favicon.ico';

/**
 * A path outside the API and the admin: the icon a browser asks for beside any page of the mock it
 * shows, or a 404 that says where the API and the inspector are (`/` is where a browser starts).
 */
function elsewhere(pipeline: Pipeline, method: string, path: string): MockResponse {
  if (path === FAVICON && (method === 'GET' || method === 'HEAD')) return { status: 200, ...ICON_FILE };
  return notServed(pipeline, path, `: the API lives under ${pipeline.basePath}, and the inspector, for a browser, at ${ADMIN_PREFIX}`);
}

function preflight(route: Route | undefined): MockResponse {
  const allow = route?.allow ?? 'OPTIONS';
  return jsonResponse(204, '', { allow, 'access-control-allow-methods': allow, ...PREFLIGHT_HEADERS });
}

// --- 1 and 2: which operation, and whether the client may call it -------------------------------

/** 1. route: the admin's shorter way, a path outside the API, a preflight, or the operation the method reaches. */
function respondTo(context: RequestContext): Pending<MockResponse> {
  const { pipeline, request } = context;
  const target = pipeline.router.target(request.target);
  if (target.area === 'admin') return respondToAdmin(context, target);
  // Read here, past the admin (never journalled): a clock that fails is this request's 500.
  if (pipeline.journal) context.arrived = pipeline.journal.now();
  if (target.area === 'elsewhere') return decided(context, 'route', elsewhere(pipeline, request.method, target.path));
  if (request.method === 'OPTIONS') return decided(context, 'route', preflight(target.route));
  context.reached = reachedBy(target, request.method);
  // Decided now, before any step responds, so that every response (the 401 too) has the headers of
  // the same moment; the session is named as sent, and not opened.
  if (!context.reached?.operation.removal) return authenticate(context, target);
  return whenReady(pipeline.sessions.now(sessionName(request.header(SESSION_HEADER)) ?? DEFAULT_SESSION), context, target, removalKnown);
}

function removalKnown(context: RequestContext, target: Target, now: number): Pending<MockResponse> {
  const removal = context.reached?.operation.removal;
  context.removed = removal !== undefined && now >= removal.at;
  context.clock = now;
  return authenticate(context, target);
}

/** 2. auth, then the route's 404 or 405: a client without a key learns nothing of the paths. */
function authenticate(context: RequestContext, target: Target): Pending<MockResponse> {
  const { pipeline, request, reached } = context;
  const authorization = request.header('authorization');
  context.authorization = authorization;
  const key = pipeline.authorize(authorization);
  if (typeof key === 'string') return decided(context, 'auth', UNAUTHORIZED[key]);
  context.keyLabel = pipeline.keyLabels.get(key);
  const { route } = target;
  if (!route) return decided(context, 'route', notServed(pipeline, target.path, ''));
  const { allow } = route;
  if (!reached) {
    const message = `${request.method} is not allowed on ${pipeline.basePath}${route.template}; allowed: ${allow}.`;
    return decided(context, 'route', errorResponse('method_not_allowed', message, { allow }));
  }
  return operationSteps(context, target, reached);
}

/** The admin's way: auth only when the mock requires a key there, then the admin endpoints; none of its responses has CORS headers. */
function respondToAdmin(context: RequestContext, target: Target): Pending<MockResponse> {
  const { pipeline, request } = context;
  context.rule = undefined;
  const key = pipeline.adminKeyRequired && !isInspectorFile(request.method, target.path) ? pipeline.authorize(request.header('authorization')) : 0;
  if (typeof key === 'string') return withoutCors(UNAUTHORIZED[key]);
  return pipeline.respondAdmin(request, request.method, target.path).catch(adminFailure);
}

/** Its 503 while Redis is away included. */
function adminFailure(error: unknown): MockResponse {
  return withoutCors(failure(error));
}

// --- 3 to 9: the operation's steps. Each returns its response, or `undefined` to pass on. ----------

/** 3 and 4, then the delay and the steps after it. */
function operationSteps(context: RequestContext, target: Target, reached: Reached): Pending<MockResponse> {
  return checkSessionName(context) ?? checkPreferences(context, target, reached) ?? wait(context, reached);
}

/** 3. session name: 400 for an `X-Mock-Session` that names none. */
function checkSessionName(context: RequestContext): MockResponse | undefined {
  const header = context.request.header(SESSION_HEADER);
  const name = sessionName(header);
  if (name === undefined) return decided(context, 'session', errorResponse('bad_request', describeSessionName(header ?? '')));
  context.sessionName = name;
  return undefined;
}

/** 4. preferences: 400 for a `Prefer`, or a `__name` query twin, that the mock cannot honour. */
function checkPreferences(context: RequestContext, target: Target, reached: Reached): MockResponse | undefined {
  if (!context.pipeline.prefer) return undefined;
  const preferences = parsePreferences(context.request.header('prefer'), target.query, reached.operation.id, context.pipeline.doc);
  if (preferences && 'error' in preferences) return decided(context, 'prefer', preferences.error);
  context.preferences = preferences;
  return undefined;
}

/** delay: the request's `delay=`, else `--delay`; then the steps after it. */
function wait(context: RequestContext, reached: Reached): Pending<MockResponse> {
  const delay = context.preferences?.delay ?? context.pipeline.delay;
  return delay > 0 ? new Promise<void>((resolve) => setTimeout(resolve, delay)).then(() => afterDelay(context, reached)) : afterDelay(context, reached);
}

/** removed, 5 and 6, then 7 and the steps after it. */
function afterDelay(context: RequestContext, reached: Reached): Pending<MockResponse> {
  return respondIfRemoved(context, reached) ?? rejectInputs(context, reached) ?? respondIfForced(context, reached) ?? parseBody(context, reached.parsed);
}

/** removed: the operation's 410 past its sunset, decided at step 1; before the inputs, so a removed operation parses none. */
function respondIfRemoved(context: RequestContext, reached: Reached): MockResponse | undefined {
  const { removal } = reached.operation;
  return context.removed && removal ? decided(context, 'removed', removal.response) : undefined;
}

/** 5. inputs: the 400 of the path and query parameters, parsed once per request-target by the router. */
function rejectInputs(context: RequestContext, reached: Reached): MockResponse | undefined {
  return 'rejection' in reached.parsed ? decided(context, 'validation', reached.parsed.rejection) : undefined;
}

/**
 * 6. forced response: what `code=`, `auth=expired` or a fault that breaks the connection asks for, made
 * without opening a session or touching state; a fault drawn by `--faults` counts as asked for.
 */
function respondIfForced(context: RequestContext, reached: Reached): MockResponse | undefined {
  const { preferences, pipeline } = context;
  const fault = preferences?.fault ?? pipeline.drawFault?.();
  context.fault = fault;
  const forced = preferences ? forcedResponse(preferences, reached.operation.id) : undefined;
  if (forced) {
    context.forced = true;
    return decided(context, 'prefer', forced);
  }
  return fault !== undefined && breaksBeforeResponse(fault) ? decided(context, 'fault', brokenConnection(fault, reached.operation.id)) : undefined;
}

/** 7. the body's inputs: 415, 413 or 400 for the body of an operation that has one; then the session, for the parsed inputs. */
function parseBody(context: RequestContext, inputs: ParsedInputs): Pending<MockResponse> {
  if ('rejection' in inputs) return decided(context, 'validation', inputs.rejection);
  if ('parseBody' in inputs) {
    // A body the inputs reject before reading it (its media type) is rejected in the same turn.
    const parsed = inputs.parseBody(context.request);
    if (!(parsed instanceof Promise)) return bodyParsed(context, parsed);
    context.finishing = true;
    return parsed.then(
      (ready) => bodyRead(context, ready),
      (error: unknown) => finished(context, failed(context, error)),
    );
  }
  // Step 3 checked the name.
  return whenReady(context.pipeline.sessions.open(context.sessionName ?? DEFAULT_SESSION), context, inputs.respond, operate);
}

/** 8. open session: 429 past `--max-sessions`, opened only now so that a request its inputs reject never opens one; 9. the operation's own response. */
function operate(context: RequestContext, respond: Responder, session: Session | undefined): Pending<MockResponse> {
  return session ? respond(context.request, session) : decided(context, 'session-cap', tooManySessions(context.pipeline.sessions));
}

/** 7, once the body is read: the text the operation read kept for the journal (no wrapper of the request, no promise more), then on. */
function bodyParsed(context: RequestContext, inputs: ParsedInputs): Pending<MockResponse> {
  if ('body' in inputs) context.body = inputs.body;
  return parseBody(context, inputs);
}

/** 7 to 11 once a body has come: the steps after it, then `finish`, in the turn the body came in. */
function bodyRead(context: RequestContext, inputs: ParsedInputs): Pending<MockResponse> {
  let made: Pending<MockResponse>;
  try {
    made = bodyParsed(context, inputs);
  } catch (error) {
    made = failed(context, error);
  }
  return finishedWhenReady(context, made);
}

// --- 10 and 11: what every response gets ---------------------------------------------------------

/** `response` with `extra` headers over its own; two prepared sets merge once, and the merge is kept. */
function withHeaders(response: MockResponse, extra: PreparedHeaders): MockResponse {
  if (response.prepared !== undefined) return preparedResponse(response.status, mergePrepared(response.prepared, extra), response.body);
  return { status: response.status, headers: { ...response.headers, ...extra.record }, body: response.body };
}

/** 10. the headers every response of the operation has, whatever made it. */
function withOperationHeaders(context: RequestContext, response: MockResponse): MockResponse {
  const headers = context.reached?.operation.responseHeaders?.(response.status, context.removed);
  return headers ? withHeaders(response, headers) : response;
}

/** `Preference-Applied`, naming only what was applied: a code= or auth=expired that the inputs' 400 pre-empted was not. */
function withPreferenceApplied(context: RequestContext, response: MockResponse): MockResponse {
  const { preferences } = context;
  if (!preferences) return response;
  const { delay, fault, trickle } = preferences;
  const applied = appliedPreferences(
    context.forced ? preferences : { ...(delay === undefined ? {} : { delay }), ...(fault === undefined ? {} : { fault, trickle }) },
  );
  if (applied === '') return response;
  return { status: response.status, headers: { ...response.headers, 'preference-applied': applied }, body: response.body };
}

/**
 * The last `Date` made for each prepared set of headers, with the second it names: `Date` counts whole
 * seconds (RFC 9110 §5.6.7), so the answers of one second share their headers, prepared once, where each
 * formatted the date and copied the headers, which the host then listed again (getPet, on every request).
 */
const datedHeaders = new WeakMap<PreparedHeaders, { readonly second: number; readonly headers: PreparedHeaders }>();

function preparedWithDate(headers: PreparedHeaders, clock: number): PreparedHeaders {
  const second = Math.floor(clock / 1000);
  let dated = datedHeaders.get(headers);
  if (dated?.second !== second) {
    dated = { second, headers: preparedWith(headers, 'date', new Date(clock).toUTCString()) };
    datedHeaders.set(headers, dated);
  }
  return dated.headers;
}

/** `Date` by the session's clock, for an answer whose operation that clock decides (`clock`); others keep the host's. */
function withClockDate(context: RequestContext, response: MockResponse): MockResponse {
  const { clock } = context;
  if (clock === undefined) return response;
  if (response.prepared !== undefined) return preparedResponse(response.status, preparedWithDate(response.prepared, clock), response.body);
  return { status: response.status, headers: { ...response.headers, date: new Date(clock).toUTCString() }, body: response.body };
}

/** The key's label and the session's name, for the request log. */
function withLogDetail(context: RequestContext, response: MockResponse): MockResponse {
  const { keyLabel } = context;
  const session = context.sessionName === DEFAULT_SESSION ? undefined : context.sessionName;
  if (keyLabel === undefined && session === undefined) return response;
  return {
    ...response,
    logDetail: [keyLabel === undefined ? '' : `key=${keyLabel}`, session === undefined ? '' : `session=${session}`].filter(Boolean).join(' '),
  };
}

/** What follows every response, whichever step made it: 10, `Preference-Applied`, the profile's form, 11 self-check, coverage, the keys out of an Error, the log. */
function finish(context: RequestContext, made: MockResponse): MockResponse {
  const { pipeline, reached } = context;
  let response = withClockDate(context, withPreferenceApplied(context, withOperationHeaders(context, made)));
  if (pipeline.form) response = pipeline.form(response);
  if (pipeline.selfCheck) {
    const checked = pipeline.selfCheck(reached?.operation.id, response, context.removed);
    if (checked !== response) context.rule = 'self-check';
    response = checked;
  }
  const { fault } = context;
  // A response the connection breaks before was never given: it covers nothing.
  if (reached && !(fault !== undefined && breaksBeforeResponse(fault))) pipeline.coverage.record(reached.operation.id, response.status, reached.enumValues);
  // A fault decides how the response arrives, if it does: the journal names it.
  const rule = fault !== undefined && context.rule !== undefined ? 'fault' : context.rule;
  if (pipeline.journal && rule !== undefined) journal(pipeline.journal, context, rule, response.status);
  // Whichever step made it, an Error that quotes the client's input leaves without a key.
  response = withLogDetail(context, pipeline.keyless(response));
  return fault === undefined ? response : { ...response, fault: { kind: fault, trickleMs: context.preferences?.trickle ?? DEFAULT_TRICKLE_MS } };
}

/** Keeps the request in the journal: references and numbers only, formatted when someone reads them. */
function journal(journal: PipelineJournal, context: RequestContext, rule: JournalRule, status: number): void {
  const { request, body } = context;
  const long = body !== undefined && body.length > journal.bodyLimit;
  const sessionHeader = request.header(SESSION_HEADER);
  journal.keeper.record({
    time: context.arrived,
    // A request answered before its key was read (`authorization` still null), or refused for it, opens nothing.
    session: journalSession(context.authorization !== null && rule !== 'auth', context.sessionName ?? sessionName(sessionHeader)),
    method: request.method,
    target: request.target,
    contentType: request.header('content-type'),
    accept: request.header('accept'),
    prefer: request.header('prefer'),
    sessionHeader,
    authorization: keptAuthorization(context.authorization === null ? request.header('authorization') : context.authorization),
    body: long ? longBody(journal, body) : body,
    bodyTruncated: long,
    status,
    operation: context.reached?.operation.id,
    rule,
    latencyMs: clock.now() - context.started,
    keyLabel: context.keyLabel,
  });
}

/** A thrown error as a response, noting for the journal whether Redis was away or the mock failed. */
/**
 * `finish`, and when one of its steps throws (the journal, the self-check, the key's redaction), the
 * 500 Error for it, without those steps: a throw there once ended the mock, whose hosts call this
 * function as one that never throws.
 */
function finished(context: RequestContext, made: MockResponse): MockResponse {
  try {
    return finish(context, made);
  } catch (error) {
    return context.pipeline.keyless(failed(context, error));
  }
}

/** `finished` of a response made, at once, or once it comes. */
function finishedWhenReady(context: RequestContext, made: Pending<MockResponse>): Pending<MockResponse> {
  if (!(made instanceof Promise)) return finished(context, made);
  return made.then(
    (response) => finished(context, response),
    (error: unknown) => finished(context, failed(context, error)),
  );
}

function failed(context: RequestContext, error: unknown): MockResponse {
  const response = failure(error);
  context.rule = context.rule === undefined ? undefined : response.status === 503 ? 'store' : 'error';
  return response;
}

/** The mock's response to any request: never throws, a fault of the mock itself becomes a 500 Error. */
export function createPipeline(parts: PipelineParts): (request: MockRequest) => Pending<MockResponse> {
  const { basePath, router } = parts;
  const operationsList = router.routes.flatMap((route) => [...route.operations.keys()].map((method) => `${method} ${basePath}${route.template}`)).join(', ');
  const pipeline: Pipeline = { ...parts, operationsList };
  return (request) => {
    const context: RequestContext = {
      pipeline,
      request,
      reached: undefined,
      removed: false,
      clock: undefined,
      keyLabel: undefined,
      sessionName: undefined,
      preferences: undefined,
      forced: false,
      fault: undefined,
      rule: 'operation',
      arrived: 0,
      body: undefined,
      authorization: null,
      started: pipeline.journal ? request.started || clock.now() : 0,
      finishing: false,
    };
    let made: Pending<MockResponse>;
    try {
      made = respondTo(context);
    } catch (error) {
      made = failed(context, error);
    }
    // The body's step finishes what it waited for; a step that waited before it (a delay, a session's
    // clock) reached it only later, and what it made is finished once, here or there.
    if (made instanceof Promise && context.finishing) return made;
    if (!(made instanceof Promise)) return finished(context, made);
    return made.then(
      (response) => (context.finishing ? response : finished(context, response)),
      (error: unknown) => finished(context, failed(context, error)),
    );
  };
}
