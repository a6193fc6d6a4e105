/**
 * The mock's admin endpoints under `/__mock/`, outside the API and without a key. Those that act on a
 * session take it from `X-Mock-Session` as API requests do (the default session without it), or from
 * the path under `/__mock/sessions/<name>`.
 */

import { messageOf } from '../../errors.js';
import { parseJson, stringifyJson } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { MAX_BODY_BYTES } from '../../openapi/facts.js';
import type { ResourceModel } from '../../openapi/resource-model.js';
import { type Profile, UNKNOWN_PROFILE } from '../../profile/profile.js';
import type { KeyRedactor } from '../../redact/key-redactor.js';
import { bodyText, errorResponse, jsonResponse, type MockRequest, type MockResponse } from '../core/messages.js';
import { andThen, type Pending } from '../core/pending.js';
import { parseClockBody } from '../state/clock.js';
import type { CoverageKeeper } from '../state/coverage.js';
import { type JournalKeeper, parseJournalFilter } from '../state/journal.js';
import { checkPets, type PetData } from '../state/pet-data.js';
import type { SaveChange } from '../state/saved-changes.js';
import {
  DEFAULT_SESSION,
  describeSessionName,
  SESSION_HEADER,
  SESSIONS_BYTES,
  type SessionRegistry,
  sessionName,
  sessionsOpenable,
} from '../state/sessions.js';
import { inspectorFile } from './inspector/page.js';

/** The prefix of every admin path. */
export const ADMIN_PREFIX = '/__mock/';

/** `/__mock` without the slash, where a hand-typed address often stops: it redirects to the inspector at `/__mock/`. */
const ADMIN_ROOT = ADMIN_PREFIX.slice(0, -1);

/** Whether `path` (without its query) is the admin's: under `/__mock/`, or `/__mock` itself. */
export function isAdminPath(path: string): boolean {
  return path.startsWith(ADMIN_PREFIX) || path === ADMIN_ROOT;
}

/** `POST /__mock/clock` bodies are one small JSON object. */
const MAX_ADMIN_BODY_BYTES = 1024;

/**
 * One admin endpoint, as the CLI's help and the docs list it.
 * @example
 * const health: AdminEndpoint = { method: 'GET', path: '/__mock/health', summary: "the session's pet count", changesSavedState: false };
 */
export interface AdminEndpoint {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The path, a session's name in `{name}`: `/__mock/sessions/{name}`. */
  readonly path: string;
  readonly summary: string;
  /** Whether it changes what a state file keeps when it acts on the default session: the mock then saves it, all or nothing. */
  readonly changesSavedState: boolean;
}

/** Every admin endpoint, in one place: the admin serves these, and the CLI's help and the docs list them. */
export const ADMIN_ENDPOINTS = [
  { method: 'GET', path: '/__mock/', summary: 'the inspector, for a browser: live requests, sessions, coverage, profile, drift', changesSavedState: false },
  { method: 'GET', path: '/__mock/health', summary: "status and the session's pet count", changesSavedState: false },
  {
    method: 'POST',
    path: '/__mock/reset',
    summary: 'the session of X-Mock-Session back to the seed; without it, the default session, every named one dropped',
    changesSavedState: true,
  },
  { method: 'GET', path: '/__mock/sessions', summary: 'the open named sessions, the cap and the idle TTL', changesSavedState: false },
  { method: 'POST', path: '/__mock/sessions/{name}/reset', summary: 'one session back to the seed', changesSavedState: true },
  { method: 'DELETE', path: '/__mock/sessions/{name}', summary: 'drops a named session', changesSavedState: false },
  { method: 'GET', path: '/__mock/clock', summary: "the session's clock", changesSavedState: false },
  {
    method: 'POST',
    path: '/__mock/clock',
    summary: 'sets the session\'s clock: {"now": "2031-01-01T00:00:00Z"}, or {"now": null} for the real one',
    changesSavedState: false,
  },
  { method: 'GET', path: '/__mock/coverage', summary: 'what clients have exercised', changesSavedState: false },
  { method: 'DELETE', path: '/__mock/coverage', summary: 'forgets the coverage', changesSavedState: false },
  { method: 'GET', path: '/__mock/profile', summary: 'the profile in force (--profile), every choice it leaves out unknown', changesSavedState: false },
  {
    method: 'POST',
    path: '/__mock/pets',
    summary: "adds a pet (or a list of pets) to the session with its own id, replacing the pet of that id; until the session's reset",
    changesSavedState: false,
  },
  {
    method: 'GET',
    path: '/__mock/requests',
    summary: "the session's request journal, oldest first; filters: method, path (* for any run), status (404, 4xx), operation, since (an id)",
    changesSavedState: false,
  },
  { method: 'DELETE', path: '/__mock/requests', summary: "forgets the journal of X-Mock-Session; without it, every session's", changesSavedState: false },
] as const satisfies readonly AdminEndpoint[];

type EndpointKey<E> = E extends { readonly method: infer M extends string; readonly path: infer P extends string } ? `${M} ${P}` : never;

/** What the admin endpoints act on: one mock's sessions and coverage, how it saves a change, its profile. */
interface AdminContext {
  readonly sessions: SessionRegistry;
  readonly coverage: CoverageKeeper;
  /** Makes a change of the default session's pets, saved where the mock keeps its state. */
  readonly saveChange: SaveChange;
  readonly profile: Profile;
  /** The request journal; `undefined` when it is off. */
  readonly journal: JournalKeeper | undefined;
  /** The resource model of the spec served: what a pet put must be. */
  readonly model: ResourceModel;
}

/** An endpoint's action; `name` is the session of the path, or of `X-Mock-Session`. */
type Action = (admin: AdminContext, request: MockRequest, name: string) => Pending<MockResponse>;

/** An admin endpoint with its action. */
interface Served {
  readonly endpoint: AdminEndpoint;
  readonly action: Action;
}

/** The admin endpoints of one path, with a pattern that matches it. */
interface AdminPath {
  readonly path: string;
  readonly pattern: RegExp;
  readonly endpoints: ReadonlyMap<string, Served>;
  /** The `Allow` header of the path. */
  readonly allow: string;
}

const CORS_HEADER = /^access-control-/;

/**
 * The response without CORS headers: the admin responds only to scripts and pages of the mock's own
 * origin, so no page on another origin may read what it says.
 */
export function withoutCors(response: MockResponse): MockResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (!CORS_HEADER.test(name)) headers[name] = value;
  return { ...response, headers };
}

/**
 * An admin answer without a key in it, in any form: its JSON's strings redacted (a session named after a
 * key, a path or a header quoting one). The inspector's files are not JSON, and hold no data.
 * @example
 * withoutKeys(await respondAdmin(request, method, path), new KeyRedactor(apiKeys));
 */
export function withoutKeys(response: MockResponse, redactor: KeyRedactor): MockResponse {
  if (!/^application\/json\b/.test(response.headers['content-type'] ?? '')) return response;
  return { ...response, body: redactor.body(response.body, true) };
}

function ok(body: unknown): MockResponse {
  return jsonResponse(200, stringifyJson(body));
}

/**
 * The response to a request that would open a session beyond the cap, from the API or the admin.
 * @example
 * const session = sessions.open(name);
 * if (!session) return tooManySessions(sessions);
 */
export function tooManySessions(sessions: SessionRegistry): MockResponse {
  const openable = sessionsOpenable(sessions.max);
  if (openable < sessions.max)
    return errorResponse(
      'too_many_requests',
      `${openable} sessions are open, whose own bytes reach the mock's bound on them (${SESSIONS_BYTES} bytes, SESSIONS_BYTES, docs/guarantees.md) before --max-sessions ${sessions.max}: drop sessions you are done with (DELETE /__mock/sessions/<name>, or POST /__mock/reset to drop them all), or let idle ones expire (--session-ttl).`,
    );
  return errorResponse(
    'too_many_requests',
    `${sessions.max} sessions are open, the mock's cap (--max-sessions): drop one with DELETE /__mock/sessions/<name>, or let idle ones expire (--session-ttl).`,
  );
}

/** `GET /__mock/health`: the session's pet count. */
async function health({ sessions }: AdminContext, _request: MockRequest, name: string): Promise<MockResponse> {
  return ok({ status: 'ok', session: name, pets: await sessions.size(name) });
}

/** `POST /__mock/reset`: the session of `X-Mock-Session` back to the seed; without it, the default session, every named one dropped. */
async function resetAll(admin: AdminContext, request: MockRequest, name: string): Promise<MockResponse> {
  const { sessions } = admin;
  if (request.header(SESSION_HEADER) !== undefined) return resetSession(admin, request, name);
  await sessions.resetAll();
  await admin.journal?.clear();
  return ok({ status: 'ok', session: DEFAULT_SESSION, pets: await sessions.size(DEFAULT_SESSION), sessions: 0 });
}

/**
 * The sessions `GET /__mock/sessions` shows at most, the most recently used: `--max-sessions` allows
 * 100,000, whose list was 6 MB, each name passed through the key redactor, the event loop held for 4-6 s
 * while the inspector polled it.
 */
export const SESSIONS_SHOWN = 1_000;

/** `GET /__mock/sessions`: the open named sessions (the newest `SESSIONS_SHOWN`, `open` counting all), the cap and the idle TTL. */
async function listSessions({ sessions }: AdminContext): Promise<MockResponse> {
  const open = await sessions.list();
  const shown = open.length > SESSIONS_SHOWN ? { sessions: open.slice(-SESSIONS_SHOWN), truncated: true } : { sessions: open };
  return ok({ max: sessions.max, ttlMs: sessions.ttl, open: open.length, ...shown });
}

/** `POST /__mock/sessions/{name}/reset`: one session back to the seed. */
async function resetSession({ sessions, journal }: AdminContext, _request: MockRequest, name: string): Promise<MockResponse> {
  await sessions.reset(name);
  await journal?.clear(name);
  return ok({ status: 'ok', session: name, pets: await sessions.size(name) });
}

/** `DELETE /__mock/sessions/{name}`: drops a named session; the default one cannot be dropped. */
function dropSession({ sessions }: AdminContext, _request: MockRequest, name: string): Pending<MockResponse> {
  if (name === DEFAULT_SESSION)
    return errorResponse('bad_request', `The default session cannot be dropped; reset it with POST /__mock/sessions/${DEFAULT_SESSION}/reset.`);
  return andThen(sessions.drop(name), (dropped) => ok({ status: 'ok', session: name, dropped }));
}

/** `GET /__mock/clock`: the session's clock, or the base clock of a session not open yet. */
async function getClock({ sessions }: AdminContext, _request: MockRequest, name: string): Promise<MockResponse> {
  const clock = (await sessions.find(name))?.clock;
  return ok({ session: name, now: new Date(clock ? clock.now() : sessions.base()).toISOString() });
}

/** `POST /__mock/clock`: sets the session's clock from `{"now": "2031-01-01T00:00:00Z"}`, or back to the real one with `{"now": null}`. */
async function setClock(admin: AdminContext, request: MockRequest, name: string): Promise<MockResponse> {
  const body = await bodyText(request, MAX_ADMIN_BODY_BYTES, 'The body of POST /__mock/clock');
  if ('rejection' in body) return body.rejection;
  const { text } = body;
  if (text === undefined) return errorResponse('payload_too_large', `The body of POST /__mock/clock is at most ${MAX_ADMIN_BODY_BYTES} bytes.`);
  const parsed = parseClockBody(text);
  if ('error' in parsed) return errorResponse('bad_request', parsed.error);
  if (!(await admin.sessions.setClock(name, parsed.time))) return tooManySessions(admin.sessions);
  return getClock(admin, request, name);
}

/** `GET /__mock/coverage`: what clients have exercised. */
function getCoverage({ coverage }: AdminContext): Pending<MockResponse> {
  return andThen(coverage.report(), ok);
}

/** `DELETE /__mock/coverage`: forgets the coverage. */
async function clearCoverage({ coverage }: AdminContext): Promise<MockResponse> {
  await coverage.clear();
  return ok(await coverage.report());
}

/** `GET /__mock/profile`: the profile in force. */
function getProfile({ profile }: AdminContext): MockResponse {
  return ok(profile);
}

/** The pets of a `POST /__mock/pets` body (a pet, or a list of them), or the 400 that names every fault. */
function petsOfBody(text: string, model: ResourceModel): PetData | MockResponse {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    return errorResponse('malformed_json', `The body of POST /__mock/pets is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
  }
  try {
    return checkPets(Array.isArray(value) ? value : [value], 'pets', false, model);
  } catch (error) {
    return errorResponse(
      'bad_request',
      `The body of POST /__mock/pets is a ${model.name} or a list of them, as the spec served defines it (${model.fields.map((field) => field.name).join(', ')}): ${messageOf(error)}.`,
    );
  }
}

/** `POST /__mock/pets`: puts pets with their own ids into the session, opening it; answers with the pets stored. */
async function putPets({ sessions, model }: AdminContext, request: MockRequest, name: string): Promise<MockResponse> {
  const body = await bodyText(request, MAX_BODY_BYTES, 'The body of POST /__mock/pets');
  if ('rejection' in body) return body.rejection;
  if (body.text === undefined) return errorResponse('payload_too_large', `The body of POST /__mock/pets is at most ${MAX_BODY_BYTES} bytes.`);
  const data = petsOfBody(body.text, model);
  if (!('pets' in data)) return data;
  const session = await sessions.open(name);
  if (session === undefined) return tooManySessions(sessions);
  const { store } = session;
  await store.put(data.pets);
  return jsonResponse(200, stringifyJson({ session: name, stored: data.pets, pets: await store.size }));
}

/** The 404 of the journal's endpoints while it is off. */
const JOURNAL_OFF = (): MockResponse =>
  errorResponse('not_found', 'The request journal is off (--no-journal, or --journal-size 0): start the mock without it to read the requests it received.');

/** `GET /__mock/requests`: the session's journal, filtered by the query (docs/mock-journal.md). */
function getRequests({ journal }: Pick<AdminContext, 'journal'>, request: MockRequest, name: string): Pending<MockResponse> {
  if (!journal) return JOURNAL_OFF();
  const mark = request.target.indexOf('?');
  const filter = parseJournalFilter(new URLSearchParams(mark === -1 ? '' : request.target.slice(mark + 1)));
  if ('error' in filter) return errorResponse('bad_request', filter.error);
  return andThen(journal.list({ ...filter, session: name }), ok);
}

/** `DELETE /__mock/requests`: forgets the journal of `X-Mock-Session`, or, without it, of every session. */
async function clearRequests({ journal }: Pick<AdminContext, 'journal'>, request: MockRequest, name: string): Promise<MockResponse> {
  if (!journal) return JOURNAL_OFF();
  const every = request.header(SESSION_HEADER) === undefined;
  await journal.clear(every ? undefined : name);
  return ok({ status: 'ok', session: every ? null : name });
}

/**
 * `GET` or `DELETE /__mock/requests` over `journal`, for a host that keeps a journal beside the mock's
 * admin (the proxy, which journals what it forwards): the same filters, sessions and errors.
 * @example
 * if (path === '/__mock/requests' && (method === 'GET' || method === 'DELETE')) return journalEndpoint(journal, request);
 */
export async function journalEndpoint(journal: JournalKeeper, request: MockRequest): Promise<MockResponse> {
  const raw = request.header(SESSION_HEADER);
  const name = sessionName(raw);
  if (name === undefined) return withoutCors(errorResponse('bad_request', describeSessionName(raw ?? '')));
  const action = request.method === 'DELETE' ? clearRequests : getRequests;
  return withoutCors(await action({ journal }, request, name));
}

/** The action of each endpoint; its type demands one for every endpoint of `ADMIN_ENDPOINTS`. */
const ACTIONS: { readonly [K in EndpointKey<(typeof ADMIN_ENDPOINTS)[number]>]: Action } = {
  'GET /__mock/': () => inspectorResponse('/__mock/'),
  'GET /__mock/health': health,
  'POST /__mock/reset': resetAll,
  'GET /__mock/sessions': listSessions,
  'POST /__mock/sessions/{name}/reset': resetSession,
  'DELETE /__mock/sessions/{name}': dropSession,
  'GET /__mock/clock': getClock,
  'POST /__mock/clock': setClock,
  'GET /__mock/coverage': getCoverage,
  'DELETE /__mock/coverage': clearCoverage,
  'GET /__mock/profile': getProfile,
  'POST /__mock/pets': putPets,
  'GET /__mock/requests': getRequests,
  'DELETE /__mock/requests': clearRequests,
};

/** The endpoints grouped by path, each path with its pattern and `Allow` header. */
function adminPaths(): readonly AdminPath[] {
  const actionByKey: ReadonlyMap<string, Action> = new Map(Object.entries(ACTIONS));
  const byPath = new Map<string, Map<string, Served>>();
  for (const endpoint of ADMIN_ENDPOINTS) {
    const action = actionByKey.get(`${endpoint.method} ${endpoint.path}`);
    // The type of `ACTIONS` already demands one per endpoint; this says so if that is ever bypassed.
    if (action === undefined) throw new Error(`bug in petstore-mock: no action for ${endpoint.method} ${endpoint.path}`);
    const methods = byPath.get(endpoint.path) ?? new Map<string, Served>();
    byPath.set(endpoint.path, methods.set(endpoint.method, { endpoint, action }));
  }
  return [...byPath].map(([path, endpoints]) => ({
    path,
    pattern: new RegExp(`^${path.replace('{name}', '([^/]*)')}$`),
    endpoints,
    allow: [...endpoints.keys()].join(', '),
  }));
}

const ADMIN_PATHS = adminPaths();
const LISTING = ADMIN_ENDPOINTS.map(({ method, path }) => `${method} ${path}`).join(', ');

/** A file of the inspector page, as it is: HTML, CSS or JavaScript, never JSON. */
function inspectorResponse(path: string): MockResponse {
  const found = inspectorFile(path);
  if (found === undefined) throw new Error(`bug in petstore-mock: the inspector has no file ${path}`);
  return { status: 200, headers: found.headers, body: found.body };
}

/**
 * Whether `GET path` is a file of the inspector page: static, holding no data, so served without a
 * key even where `/__mock/*` needs one (the page asks for the key, for the endpoints it reads).
 */
export function isInspectorFile(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && (path === ADMIN_ROOT || inspectorFile(path) !== undefined);
}

/** `/__mock` to `/__mock/`, permanently, with the method kept (308): the inspector, or the endpoint's own 405. */
const TO_INSPECTOR: MockResponse = {
  status: 308,
  headers: { location: ADMIN_PREFIX, 'content-type': 'text/plain; charset=utf-8' },
  body: `See ${ADMIN_PREFIX}`,
};

/** The endpoint at `path` for `method`, acting on the session it names; a change of the default session's saved state is saved. */
async function respondAdmin(admin: AdminContext, request: MockRequest, method: string, path: string): Promise<MockResponse> {
  if (path === ADMIN_ROOT) return TO_INSPECTOR;
  if (isInspectorFile(method, path)) return inspectorResponse(path);
  for (const { path: template, pattern, endpoints, allow } of ADMIN_PATHS) {
    const match = pattern.exec(path);
    if (!match) continue;
    const served = endpoints.get(method);
    if (!served) return errorResponse('method_not_allowed', `${template} answers ${allow} only.`, { allow });
    const raw = match[1] ?? request.header(SESSION_HEADER);
    const name = sessionName(raw);
    if (name === undefined) return errorResponse('bad_request', describeSessionName(raw ?? ''));
    if (!(served.endpoint.changesSavedState && name === DEFAULT_SESSION)) return served.action(admin, request, name);
    const saved = await admin.saveChange(() => served.action(admin, request, name));
    return 'error' in saved ? saved.error : saved.value;
  }
  return errorResponse('not_found', `No admin endpoint at ${path}; there are ${LISTING}.`);
}

/**
 * The admin endpoints over one mock's sessions and coverage: a function from a request under
 * `/__mock/` to its response, which has no CORS headers and, through `redactor`, no key. A change of
 * the default session's pets is made through `saveChange`; a named session's never is.
 * @example
 * const respondAdmin = createAdmin(sessions, coverage, unsavedChange, new KeyRedactor(apiKeys));
 * await respondAdmin(request, 'GET', '/__mock/health'); // { status: 'ok', session: 'default', pets: 50 }
 */
export function createAdmin(
  sessions: SessionRegistry,
  coverage: CoverageKeeper,
  saveChange: SaveChange,
  redactor: KeyRedactor,
  profile: Profile = UNKNOWN_PROFILE,
  journal?: JournalKeeper,
  model: ResourceModel = BUNDLED_MODEL,
): (request: MockRequest, method: string, path: string) => Promise<MockResponse> {
  const admin: AdminContext = { sessions, coverage, saveChange, profile, journal, model };
  return async (request, method, path) => withoutKeys(withoutCors(await respondAdmin(admin, request, method, path)), redactor);
}
