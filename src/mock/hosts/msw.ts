/**
 * `petstore-mock/msw`: the mock's one handler as MSW request handlers, for `setupServer` (Node) and
 * `setupWorker` (browser). This host converts nothing and decides nothing: it claims the requests the
 * mock serves and hands them, as web `Request`s, to `createMockApi().fetch`.
 * It works with msw 2 and msw 3. msw 3 renamed `onUnhandledRequest` to `onUnhandledFrame` and ignores the
 * old name, so the examples below, written for msw 3, name the option of msw 2 in a comment
 * (test/tooling/msw-options.test.ts checks them).
 */
import { type HttpHandler, http } from 'msw';
import { described } from '../../bounds/option-value.js';
import { parseUserUrl } from '../../http/user-url.js';
import { BASE_PATH } from '../../openapi/facts.js';
import { fetchAdapter } from '../core/fetch-adapter.js';
import { optionsObject } from '../core/option-checks.js';
import type { Pending } from '../core/pending.js';
import { createMockApi, type MockApi, type MockOptions } from '../create-mock-api.js';

/**
 * Options of `createHandlers`: those of the mock, and where the API lives.
 * @example
 * const options: MockHandlersOptions = { baseUrl: 'https://api.example.test/v1', apiKey: 'test-key', delay: 300 };
 */
export interface MockHandlersOptions extends Omit<MockOptions, 'basePath'> {
  /**
   * Where the API lives. An absolute URL (`https://api.example.test/v1`) is matched on that origin
   * only; a path (`/v1`, the default) on any origin, as an app that calls its own origin needs.
   * The mock serves its operations under the URL's path, and `/__mock/health` and `/__mock/reset`
   * at its origin.
   */
  readonly baseUrl?: string;
}

/**
 * MSW request handlers over one mock and its state: spread them into `setupServer` or `setupWorker`.
 * The state lives as long as the handlers; `reset()` puts it back to the seeded pets.
 * @example
 * const api = createHandlers({ baseUrl: 'https://api.example.test/v1' });
 * const server = setupServer(...api);
 * afterEach(() => api.reset());
 */
export interface MockHandlers extends ReadonlyArray<HttpHandler> {
  /** Puts the pets back to the seeded ones, as a fresh mock has them: call it between tests (return it to the hook, which waits for a store that resolves later). */
  reset(): Pending<void>;
  /** The mock behind the handlers: its store and resolved options. */
  readonly mock: MockApi;
  /** The requests the handlers answered, oldest first (`mock.requests`, docs/mock-journal.md). */
  readonly requests: MockApi['requests'];
}

/** Where the handlers serve: a path on any origin, or an absolute URL held to the rule of every URL a user gives (`parseUserUrl`). */
function locate(baseUrl: unknown): { readonly origin?: string; readonly basePath: string } {
  const example = 'an absolute URL such as https://api.example.test/v1, or a path such as /v1';
  if (typeof baseUrl !== 'string') throw new TypeError(`baseUrl must be ${example}; got ${described(baseUrl)}`);
  if (baseUrl.startsWith('/')) return { basePath: baseUrl };
  const url = parseUserUrl(baseUrl, { name: 'baseUrl', schemes: ['http:', 'https:'], example });
  return { origin: url.origin, basePath: url.pathname };
}

/**
 * MSW handlers for the pet store API with their own mock: every rule of the Node mock holds (auth,
 * 400s, 404s, 201 and the new pet in later lists, `delay`). Each call has its own state.
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'petstore-mock/msw';
 *
 * const api = createHandlers({ baseUrl: 'https://api.example.test/v1', seed: 7, count: 10 });
 * const server = setupServer(...api);
 * beforeAll(() => server.listen({ onUnhandledFrame: 'error' })); // msw 2: server.listen({ onUnhandledRequest: 'error' })
 * afterEach(() => api.reset());
 * afterAll(() => server.close());
 */
/** The mock's answers as MSW hands them to a client, each body's `Content-Length` said as the Node server says it (RFC 9110 §8.6). */
function sizedFetch(mock: MockApi): ({ request }: { request: Request }) => Promise<Response> {
  const fetchSized = fetchAdapter(mock.respond, true);
  return ({ request }) => fetchSized(request);
}

export function createHandlers(options: MockHandlersOptions = {}): MockHandlers {
  const { baseUrl = BASE_PATH, ...mockOptions } = optionsObject('createHandlers', options);
  const { origin, basePath } = locate(baseUrl);
  const mock = createMockApi({ ...mockOptions, basePath });
  const handler = http.all(({ request }) => {
    const url = new URL(request.url);
    return (origin === undefined || url.origin === origin) && mock.serves(url.pathname);
  }, sizedFetch(mock));
  return Object.freeze(Object.assign([handler], { reset: () => mock.reset(), mock, requests: mock.requests }));
}

/**
 * MSW handlers for `/v1/...` on any origin, with the mock's defaults: seed 1, 50 pets, the key
 * `petstore-dev-key`. They share one state for the whole module; `handlers.reset()` puts it back.
 * @example
 * import { setupWorker } from 'msw/browser';
 * import { handlers } from 'petstore-mock/msw';
 *
 * // Other requests go to the network, without a warning for each:
 * await setupWorker(...handlers).start({ onUnhandledFrame: 'bypass' }); // msw 2: start({ onUnhandledRequest: 'bypass' })
 * // The worker script: `npx msw init public/ --save`, or with msw 3 and Vite, `msw()` from `msw/vite` in the plugins.
 * // between tests: handlers.reset();
 */
export const handlers: MockHandlers = /* @__PURE__ */ createHandlers();
