/**
 * The mock's admin endpoints under `/__mock/`, outside the API and without a key. Those that act on a
 * session take it from `X-Mock-Session` as API requests do (the default session without it), or from
 * the path under `/__mock/sessions/<name>`.
 */

import { type Profile, UNKNOWN_PROFILE } from '../../profile/profile.js';
import { errorResponse, jsonResponse, type MockRequest, type MockResponse } from '../core/messages.js';
import { andThen, type Pending } from '../core/pending.js';
import { readClockBody } from '../state/clock.js';
import type { CoverageKeeper } from '../state/coverage.js';
import type { SaveChange } from '../state/saved-changes.js';
import { DEFAULT_SESSION, describeSessionName, SESSION_HEADER, type SessionRegistry, sessionName } from '../state/sessions.js';

/** The prefix of every admin path. */
export const ADMIN_PREFIX = '/__mock/';

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
] as const satisfies readonly AdminEndpoint[];

type EndpointKey<E> = E extends { readonly method: infer M extends string; readonly path: infer P extends string } ? `${M} ${P}` : never;

/** An endpoint's action; `name` is the session of the path, or of `X-Mock-Session`. */
type Action = (request: MockRequest, name: string) => Pending<MockResponse>;

/** The admin endpoints of one path, with a pattern that matches it. */
interface AdminPath {
  readonly path: string;
  readonly pattern: RegExp;
  readonly endpoints: ReadonlyMap<string, { readonly endpoint: AdminEndpoint; readonly action: Action }>;
  /** The `Allow` header of the path. */
  readonly allow: string;
}

const CORS_HEADER = /^access-control-/;

/**
 * The answer without CORS headers: the admin answers only scripts and pages of the mock's own origin,
 * so no page on another origin may read what it says.
 */
export function withoutCors(response: MockResponse): MockResponse {
  const headers: Record<string, string> = {};
  for (const name in response.headers) if (!CORS_HEADER.test(name)) headers[name] = response.headers[name] as string;
  return { ...response, headers };
}

function ok(body: unknown): MockResponse {
  return jsonResponse(200, JSON.stringify(body));
}

/**
 * The answer to a request that would open a session beyond the cap, from the API or the admin.
 * @example
 * const session = sessions.open(name);
 * if (!session) return tooManySessions(sessions);
 */
export function tooManySessions(sessions: SessionRegistry): MockResponse {
  return errorResponse(
    'too_many_requests',
    `${sessions.max} sessions are open, the mock's cap (--max-sessions): drop one with DELETE /__mock/sessions/<name>, or let idle ones expire (--session-ttl).`,
  );
}

/**
 * The admin endpoints over one mock's sessions and coverage: a function from a request under
 * `/__mock/` to its answer, which carries no CORS headers. A change of the default session's pets is
 * made through `saveChange`; a named session's never is.
 * @example
 * const answerAdmin = createAdmin(sessions, coverage, unsavedChange);
 * await answerAdmin(request, 'GET', '/__mock/health'); // { status: 'ok', session: 'default', pets: 50 }
 */
export function createAdmin(
  sessions: SessionRegistry,
  coverage: CoverageKeeper,
  saveChange: SaveChange,
  profile: Profile = UNKNOWN_PROFILE,
): (request: MockRequest, method: string, path: string) => Promise<MockResponse> {
  async function resetOne(name: string): Promise<MockResponse> {
    await sessions.reset(name);
    return ok({ status: 'ok', session: name, pets: await sessions.size(name) });
  }

  async function clockOf(name: string): Promise<MockResponse> {
    const clock = (await sessions.find(name))?.clock;
    return ok({ session: name, now: new Date(clock ? clock.now() : sessions.base()).toISOString() });
  }

  async function setClock(request: MockRequest, name: string): Promise<MockResponse> {
    const text = await request.text(MAX_ADMIN_BODY_BYTES);
    if (text === undefined) return errorResponse('payload_too_large', `The body of POST /__mock/clock is at most ${MAX_ADMIN_BODY_BYTES} bytes.`);
    const read = readClockBody(text);
    if ('error' in read) return errorResponse('bad_request', read.error);
    if (!(await sessions.setClock(name, read.time))) return tooManySessions(sessions);
    return clockOf(name);
  }

  const actions: { readonly [K in EndpointKey<(typeof ADMIN_ENDPOINTS)[number]>]: Action } = {
    'GET /__mock/health': async (_, name) => ok({ status: 'ok', session: name, pets: await sessions.size(name) }),
    'POST /__mock/reset': async (request, name) => {
      if (request.header(SESSION_HEADER) !== undefined) return resetOne(name);
      await sessions.resetAll();
      return ok({ status: 'ok', session: DEFAULT_SESSION, pets: await sessions.size(DEFAULT_SESSION), sessions: 0 });
    },
    'GET /__mock/sessions': async () => ok({ max: sessions.max, ttlMs: sessions.ttl, sessions: await sessions.list() }),
    'POST /__mock/sessions/{name}/reset': (_, name) => resetOne(name),
    'DELETE /__mock/sessions/{name}': (_, name) =>
      name === DEFAULT_SESSION
        ? errorResponse('bad_request', `The default session cannot be dropped; reset it with POST /__mock/sessions/${DEFAULT_SESSION}/reset.`)
        : andThen(sessions.drop(name), (dropped) => ok({ status: 'ok', session: name, dropped })),
    'GET /__mock/clock': (_, name) => clockOf(name),
    'POST /__mock/clock': setClock,
    'GET /__mock/coverage': () => andThen(coverage.report(), ok),
    'DELETE /__mock/coverage': async () => {
      await coverage.clear();
      return ok(await coverage.report());
    },
    'GET /__mock/profile': () => ok(profile),
  };

  const actionByKey: ReadonlyMap<string, Action> = new Map(Object.entries(actions));
  const byPath = new Map<string, Map<string, { readonly endpoint: AdminEndpoint; readonly action: Action }>>();
  for (const endpoint of ADMIN_ENDPOINTS) {
    const action = actionByKey.get(`${endpoint.method} ${endpoint.path}`);
    // The type of `actions` already demands one per endpoint; this says so if that is ever bypassed.
    if (action === undefined) throw new Error(`bug in petstore-mock: no action for ${endpoint.method} ${endpoint.path}`);
    const methods = byPath.get(endpoint.path) ?? new Map();
    byPath.set(endpoint.path, methods.set(endpoint.method, { endpoint, action }));
  }
  const paths: readonly AdminPath[] = [...byPath].map(([path, endpoints]) => ({
    path,
    pattern: new RegExp(`^${path.replace('{name}', '([^/]*)')}$`),
    endpoints,
    allow: [...endpoints.keys()].join(', '),
  }));
  const listing = ADMIN_ENDPOINTS.map(({ method, path }) => `${method} ${path}`).join(', ');

  const answer = async (request: MockRequest, method: string, path: string): Promise<MockResponse> => {
    for (const { path: template, pattern, endpoints, allow } of paths) {
      const match = pattern.exec(path);
      if (!match) continue;
      const found = endpoints.get(method);
      if (!found) return errorResponse('method_not_allowed', `${template} answers ${allow} only.`, { allow });
      const raw = match[1] ?? request.header(SESSION_HEADER);
      const name = sessionName(raw);
      if (name === undefined) return errorResponse('bad_request', describeSessionName(raw ?? ''));
      if (!(found.endpoint.changesSavedState && name === DEFAULT_SESSION)) return found.action(request, name);
      const saved = await saveChange(() => found.action(request, name));
      return 'error' in saved ? saved.error : saved.value;
    }
    return errorResponse('not_found', `No admin endpoint at ${path}; there are ${listing}.`);
  };
  return async (request, method, path) => withoutCors(await answer(request, method, path));
}
