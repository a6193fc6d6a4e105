/**
 * The mock's admin endpoints under `/__mock/`, outside the API and without a key. Those that act on a
 * session take it from `X-Mock-Session` as API requests do (the default session without it), or from
 * the path under `/__mock/sessions/<name>`.
 */

import { readClockBody } from './clock.js';
import type { Coverage } from './coverage.js';
import { errorResponse, jsonResponse, type MockRequest, type MockResponse } from './exchange.js';
import type { SaveChange } from './saved-changes.js';
import { DEFAULT_SESSION, describeSessionName, SESSION_HEADER, type Sessions, sessionName } from './sessions.js';

/** The prefix of every admin path. */
export const ADMIN_PREFIX = '/__mock/';

/** `POST /__mock/clock` bodies are one small JSON object. */
const MAX_ADMIN_BODY_BYTES = 1024;

type Action = (request: MockRequest, name: string) => MockResponse | Promise<MockResponse>;

interface AdminRoute {
  /** The path as the 404 lists it: `/__mock/sessions/{name}`. */
  readonly template: string;
  readonly pattern: RegExp;
  /** The actions by method; `name` is the session of the path, or of `X-Mock-Session`. */
  readonly methods: Readonly<Record<string, Action>>;
}

function route(template: string, methods: Readonly<Record<string, Action>>): AdminRoute {
  return { template, pattern: new RegExp(`^${template.replace('{name}', '([^/]*)')}$`), methods };
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
export function tooManySessions(sessions: Sessions): MockResponse {
  return errorResponse(
    'too_many_requests',
    `${sessions.max} sessions are open, the mock's cap (--max-sessions): drop one with DELETE /__mock/sessions/<name>, or let idle ones expire (--session-ttl).`,
  );
}

/**
 * The admin endpoints over one mock's sessions and coverage: a function from a request under
 * `/__mock/` to its answer, which carries no CORS headers.
 * @example
 * const answerAdmin = createAdmin(sessions, coverage, savedChanges(sessions.default.store, undefined));
 * await answerAdmin(request, 'GET', '/__mock/health'); // { status: 'ok', session: 'default', pets: 50 }
 */
export function createAdmin(
  sessions: Sessions,
  coverage: Coverage,
  saveChange: SaveChange,
): (request: MockRequest, method: string, path: string) => Promise<MockResponse> {
  /** Resets that touch the default session's pets are saved; a named session's reset saves nothing. */
  async function resetting(touchesDefault: boolean, reset: () => MockResponse): Promise<MockResponse> {
    if (!touchesDefault) return reset();
    const saved = await saveChange(reset);
    return 'error' in saved ? saved.error : saved.value;
  }

  function resetOne(name: string): Promise<MockResponse> {
    return resetting(name === DEFAULT_SESSION, () => {
      sessions.reset(name);
      return ok({ status: 'ok', session: name, pets: sessions.size(name) });
    });
  }

  function clockOf(name: string): MockResponse {
    const clock = sessions.find(name)?.clock;
    return ok({ session: name, now: new Date(clock ? clock.now() : sessions.default.clock.base()).toISOString() });
  }

  async function setClock(request: MockRequest, name: string): Promise<MockResponse> {
    const text = await request.text(MAX_ADMIN_BODY_BYTES);
    if (text === undefined) return errorResponse('payload_too_large', `The body of POST /__mock/clock is at most ${MAX_ADMIN_BODY_BYTES} bytes.`);
    const read = readClockBody(text);
    if ('error' in read) return errorResponse('bad_request', read.error);
    const session = sessions.open(name);
    if (!session) return tooManySessions(sessions);
    if (read.time === null) session.clock.reset();
    else session.clock.set(read.time);
    return clockOf(name);
  }

  const routes: readonly AdminRoute[] = [
    route('/__mock/health', { GET: (_, name) => ok({ status: 'ok', session: name, pets: sessions.size(name) }) }),
    route('/__mock/reset', {
      POST: (request, name) => {
        if (request.header(SESSION_HEADER) !== undefined) return resetOne(name);
        return resetting(true, () => {
          sessions.resetAll();
          return ok({ status: 'ok', session: DEFAULT_SESSION, pets: sessions.size(DEFAULT_SESSION), sessions: 0 });
        });
      },
    }),
    route('/__mock/sessions', { GET: () => ok({ max: sessions.max, ttlMs: sessions.ttl, sessions: sessions.list() }) }),
    route('/__mock/sessions/{name}/reset', { POST: (_, name) => resetOne(name) }),
    route('/__mock/sessions/{name}', {
      DELETE: (_, name) =>
        name === DEFAULT_SESSION
          ? errorResponse('bad_request', `The default session cannot be dropped; reset it with POST /__mock/sessions/${DEFAULT_SESSION}/reset.`)
          : ok({ status: 'ok', session: name, dropped: sessions.drop(name) }),
    }),
    route('/__mock/clock', { GET: (_, name) => clockOf(name), POST: setClock }),
    route('/__mock/coverage', {
      GET: () => ok(coverage.report()),
      DELETE: () => {
        coverage.clear();
        return ok(coverage.report());
      },
    }),
  ];
  const listing = routes.flatMap(({ template, methods }) => Object.keys(methods).map((method) => `${method} ${template}`)).join(', ');

  const answer = async (request: MockRequest, method: string, path: string): Promise<MockResponse> => {
    for (const { template, pattern, methods } of routes) {
      const match = pattern.exec(path);
      if (!match) continue;
      // Own keys only: `valueOf` is no method of an admin endpoint.
      const action = Object.hasOwn(methods, method) ? methods[method] : undefined;
      const allow = Object.keys(methods).join(', ');
      if (!action) return errorResponse('method_not_allowed', `${template} answers ${allow} only.`, { allow });
      const raw = match[1] ?? request.header(SESSION_HEADER);
      const name = sessionName(raw);
      if (name === undefined) return errorResponse('bad_request', describeSessionName(raw ?? ''));
      return action(request, name);
    }
    return errorResponse('not_found', `No admin endpoint at ${path}; there are ${listing}.`);
  };
  return async (request, method, path) => withoutCors(await answer(request, method, path));
}
