/**
 * The mock's admin endpoints under `/__mock/`, outside the API and without a key. Those that act on a
 * session take it from `X-Mock-Session` as API requests do (the default session without it), or from
 * the path under `/__mock/sessions/<name>`.
 */

import { readClockBody } from './clock.js';
import type { CoverageKeeper } from './coverage.js';
import { errorResponse, jsonResponse, type MockRequest, type MockResponse } from './exchange.js';
import { andThen } from './pending.js';
import { DEFAULT_SESSION, describeSessionName, SESSION_HEADER, type SessionRegistry, sessionName } from './sessions.js';

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
 * `/__mock/` to its answer.
 * @example
 * const answerAdmin = createAdmin(sessions, coverage);
 * await answerAdmin(request, 'GET', '/__mock/health'); // { status: 'ok', session: 'default', pets: 50 }
 */
export function createAdmin(
  sessions: SessionRegistry,
  coverage: CoverageKeeper,
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

  const routes: readonly AdminRoute[] = [
    route('/__mock/health', { GET: (_, name) => andThen(sessions.size(name), (pets) => ok({ status: 'ok', session: name, pets })) }),
    route('/__mock/reset', {
      POST: async (request, name) => {
        if (request.header(SESSION_HEADER) !== undefined) return resetOne(name);
        await sessions.resetAll();
        return ok({ status: 'ok', session: DEFAULT_SESSION, pets: await sessions.size(DEFAULT_SESSION), sessions: 0 });
      },
    }),
    route('/__mock/sessions', { GET: async () => ok({ max: sessions.max, ttlMs: sessions.ttl, sessions: await sessions.list() }) }),
    route('/__mock/sessions/{name}/reset', { POST: (_, name) => resetOne(name) }),
    route('/__mock/sessions/{name}', {
      DELETE: (_, name) =>
        name === DEFAULT_SESSION
          ? errorResponse('bad_request', `The default session cannot be dropped; reset it with POST /__mock/sessions/${DEFAULT_SESSION}/reset.`)
          : andThen(sessions.drop(name), (dropped) => ok({ status: 'ok', session: name, dropped })),
    }),
    route('/__mock/clock', { GET: (_, name) => clockOf(name), POST: setClock }),
    route('/__mock/coverage', {
      GET: () => andThen(coverage.report(), ok),
      DELETE: async () => {
        await coverage.clear();
        return ok(await coverage.report());
      },
    }),
  ];
  const listing = routes.flatMap(({ template, methods }) => Object.keys(methods).map((method) => `${method} ${template}`)).join(', ');

  return async (request, method, path) => {
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
}
