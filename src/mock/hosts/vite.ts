/**
 * `petstore-mock/vite`: the pet store API beside the app in `vite` (dev). The plugin starts the mock
 * with the dev server and stops it when the dev server closes, or points at a mock already running,
 * and proxies the API (`/v1`) and the admin endpoints (`/__mock/`) to it, so that the app calls its
 * own origin. Only types come from 'vite': nothing here loads vite, which stays an optional peer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin, ProxyOptions, ResolvedConfig, ViteDevServer } from 'vite';
import { apiKeyProblem } from '../../http/header-value.js';
import { parseUserUrl } from '../../http/user-url.js';
import { KeyRedactor } from '../../redact/key-redactor.js';
import { ADMIN_PREFIX } from '../admin/endpoints.js';
import { MOCK_DEFAULTS } from '../core/defaults.js';
import { keylessErrors } from '../core/keyless-errors.js';
import type { MockResponse } from '../core/messages.js';
import { optionsObject, text } from '../core/option-checks.js';
import { bearerCheck } from '../pipeline/auth.js';
import { hostCheck } from '../pipeline/host-guard.js';
import { checkTimeouts, clientLimitedSeam, type ServerTimeouts } from '../pipeline/http-server.js';
import { checkReach, type ReachNames } from '../pipeline/server-reach.js';
import { checkedServerOptions, type MockServerOptions, startMockServer } from './node-server.js';
import { seamGuard } from './vite-guard.js';
import { checkAnswerMs, relayAsMock } from './vite-relay.js';

/**
 * A mock already running, which the dev server proxies to instead of starting its own.
 * @example
 * petstoreMock({ target: 'http://127.0.0.1:4010' }); // `npx petstore-mock` in another terminal
 */
export interface PetstoreMockTarget {
  /** The mock's origin, `http://127.0.0.1:4010` (its API under `/v1`), or its API's URL, as `startMockServer` gives it; no credentials, query or fragment. */
  readonly target: string;
  /**
   * That mock's key, which the plugin cannot learn from it: hidden in the dev server's start lines (a
   * `target` may hold it in its path), and asked of admin requests from other machines. Without it, a
   * dev server reachable beyond loopback refuses them the admin.
   */
  readonly apiKey?: string;
  /** With the dev server beyond loopback, that mock's key may be the public default: it is meant. Default false. */
  readonly allowDefaultKey?: boolean;
  /** The dev server's limits on the app's connections to the mock, as `startMockServer`'s `timeouts`; defaults those of the mock's server. */
  readonly timeouts?: ServerTimeouts;
  /**
   * The longest the dev server waits for that mock's whole answer, in ms: past it, the app gets the
   * spec's 503 Error (or its connection ends, once the answer began). Default 670 000
   * (`RELAY_ANSWER_MS`: the longest delay and trickle a mock may be asked for, and 10 s).
   */
  readonly answerMs?: number;
}

/**
 * What `petstoreMock` proxies to: a mock it starts, with the options of `startMockServer` (`seed`,
 * `count`, `apiKey`, `profile`, `port`: a free one unless given...), or a running one (`target`).
 */
export type PetstoreMockPluginOptions = MockServerOptions | PetstoreMockTarget;

/** Hides the mock's keys in an Error the dev server makes for it. */
type Keyless = (response: MockResponse) => MockResponse;

/** The mock behind the proxy: its origin, the path its API lives under, its keys (unknown for a `target` without `apiKey`), and how to let it go. */
interface Upstream {
  readonly origin: string;
  readonly basePath: string;
  readonly keys: readonly string[] | undefined;
  stop(): Promise<void>;
}

/**
 * The mock this module started on each port it was given. A dev server restarts (after an edit of
 * vite.config.ts) by reading the config again, which starts the new mock, before it closes the old
 * server: the new mock takes the port over, and the old server's close finds the old mock stopped.
 */
const onGivenPort = new Map<number, Upstream>();

/** A mock started now, on the port of `options` (a free one unless given), stopped at most once. */
async function startUpstream(options: MockServerOptions): Promise<Upstream> {
  const port = options.port ?? 0;
  await onGivenPort.get(port)?.stop();
  const server = await startMockServer(options);
  const url = new URL(server.url);
  let stopped: Promise<void> | undefined;
  const upstream: Upstream = {
    origin: url.origin,
    basePath: url.pathname,
    keys: server.mock.options.apiKeys,
    stop: () => {
      if (onGivenPort.get(port) === upstream) onGivenPort.delete(port);
      stopped ??= server.close();
      return stopped;
    },
  };
  if (port !== 0) onGivenPort.set(port, upstream);
  return upstream;
}

/**
 * A running mock's URL, held to the rule of every URL a user gives (`parseUserUrl`), and as `--proxy`
 * holds its base URL: credentials would be dropped by the proxy unsaid (and shown in the start lines),
 * a query or a fragment ignored. The sentence quotes no part of the URL, which may hold a key.
 */
function targetUrl(target: string): URL {
  const url = parseUserUrl(target, { name: 'petstoreMock: target', schemes: ['http:', 'https:'], example: 'http://127.0.0.1:4010' });
  if (url.search || url.hash)
    throw new TypeError(
      'petstoreMock: target must carry no credentials ("user:password@"), query or fragment: the dev server sends none of them to the mock; give its origin, such as http://127.0.0.1:4010, and its key as apiKey.',
    );
  return url;
}

/** The key given with `target`, checked by the mock's rule for a key; `undefined` when none is. */
function targetKey(options: PetstoreMockTarget): string | undefined {
  const key = text('petstoreMock: apiKey', options.apiKey, "'test-key'");
  const problem = key === undefined ? undefined : apiKeyProblem(key);
  if (problem !== undefined) throw new TypeError(`petstoreMock: apiKey: ${problem}`);
  return key;
}

/** The mock the dev server proxies to: the running one `target` names, or one started now. */
function upstreamOf(options: PetstoreMockPluginOptions): Promise<Upstream> {
  if (!('target' in options)) return startUpstream(options);
  const url = targetUrl(options.target);
  const path = url.pathname.replace(/\/+$/, '');
  const key = targetKey(options);
  // Not ours to stop: it was running before the dev server and runs after it.
  return Promise.resolve({
    origin: url.origin,
    basePath: path === '' ? MOCK_DEFAULTS.basePath : path,
    keys: key === undefined ? undefined : [key],
    stop: async () => {},
  });
}

/**
 * True when a request's `Origin` is the dev server's own: the scheme and `Host` the request reached
 * the dev server by, so the page that sent it is one the dev server served, the app's. `hostServed`
 * says whether that `Host` is a name the dev server may be reached by (DNS rebinding: a page on
 * evil.example whose name now points at this machine has that Origin and that Host too).
 */
function fromAppPage(request: IncomingMessage, hostServed: (host: string) => boolean): boolean {
  const { origin, host } = request.headers;
  if (origin === undefined || host === undefined || !hostServed(host)) return false;
  const scheme = 'encrypted' in request.socket && request.socket.encrypted === true ? 'https' : 'http';
  return origin.toLowerCase() === `${scheme}://${host.toLowerCase()}`;
}

/**
 * The proxy of the admin endpoints. The mock's guard takes an admin request with an `Origin` only
 * from its own origin, `http://` and the `Host` it is sent; behind the proxy the app's page has the
 * dev server's origin instead, and would be rejected with 403. So the proxy sends the mock its own
 * address as `Host` (`changeOrigin`) and, for a request of the app's page only, its own origin as
 * `Origin`. That is safe because the dev server is the app's origin: the page it served may change
 * the mock as a page of the mock's own origin may. A page on any other origin keeps its `Origin`, and
 * the guard rejects it as before; a request without one (a script) goes as it came, and the guard
 * serves it unless `Sec-Fetch-Site` says a page on another site sent it.
 */
function adminProxy(origin: string, fromApp: (request: IncomingMessage) => boolean, keyless: Keyless, answerMs: number): ProxyOptions {
  const mockOrigin = `http://${new URL(origin).host}`;
  return {
    target: origin,
    changeOrigin: true,
    configure: (proxy, options) => {
      relayAsMock(proxy, options, keyless, answerMs);
      proxy.on('proxyReq', (proxyRequest, request) => {
        if (fromApp(request)) proxyRequest.setHeader('origin', mockOrigin);
      });
    },
  };
}

/**
 * True when Vite itself rejects a `Host` it does not serve before the proxy sees the request
 * (`server.allowedHosts`, its defence against DNS rebinding), as it does unless told `true`; over
 * HTTPS a rebound name fails the certificate instead, and Vite checks nothing.
 */
function viteChecksHosts(config: ResolvedConfig): boolean {
  return config.server.allowedHosts !== true || Boolean(config.server.https);
}

/**
 * The proxy's key for the admin: `/__mock/` and everything under it, and `/__mock` itself, which the mock
 * redirects to its inspector (a key that starts with `^` is a regular expression to Vite).
 */
const ADMIN_PATHS = `^${ADMIN_PREFIX.slice(0, -1)}(?:[/?]|$)`;
const ADMIN_MATCH = new RegExp(ADMIN_PATHS);

/** The names the rule of who may reach the mock (`checkReach`) gives the plugin's options in its sentence: for a mock it starts, or one at `target`. */
const VITE_REACH_NAMES: ReachNames = {
  host: 'server.host (vite --host)',
  allowedHosts: 'server.allowedHosts',
  key: 'petstoreMock({ apiKey })',
  allowDefault: 'petstoreMock({ allowDefaultKey: true }) if the default is meant',
};
const TARGET_REACH_NAMES: ReachNames = {
  ...VITE_REACH_NAMES,
  key: 'petstoreMock({ target, apiKey }), the key the mock at target takes',
  allowDefault: 'petstoreMock({ target, apiKey, allowDefaultKey: true }) if that mock takes the default and it is meant',
};

/**
 * The interface the dev server binds, as the mock's `host` would name it: Vite binds `localhost` unless
 * told, and every interface for `true` (`vite --host`).
 */
function boundHost(config: ResolvedConfig): string {
  const { host } = config.server;
  if (host === true) return '0.0.0.0';
  return typeof host === 'string' && host !== '' ? host : 'localhost';
}

/**
 * The rule the mock's server keeps at start (`checkReach`), for the dev server that serves the mock's
 * API: bound beyond loopback, it needs a key of the user's own, as the default one is public (for a
 * `target`, the key named with it: the plugin cannot ask that mock). The mock started for it is
 * stopped before the error, which Vite reports as it does a config's.
 */
async function checkDevServerReach(config: ResolvedConfig, options: PetstoreMockPluginOptions, upstream: Upstream | undefined): Promise<void> {
  const target = 'target' in options;
  const keys = [...(options.apiKey === undefined ? [] : [options.apiKey]), ...(target ? [] : (options.apiKeys ?? []))];
  try {
    checkReach({ host: boundHost(config), keys, defaultMeant: options.allowDefaultKey === true }, target ? TARGET_REACH_NAMES : VITE_REACH_NAMES);
  } catch (error) {
    await upstream?.stop();
    throw error;
  }
}

/**
 * After Vite's own lines (`Local: http://localhost:5173/`), where the app reaches the API and the
 * inspector through the dev server, and where the mock itself listens; the mock's keys hidden as the
 * proxy's start line hides them, since a `target` may hold one in its path.
 */
function printWhere(server: ViteDevServer, upstream: Upstream): void {
  const printUrls = server.printUrls.bind(server);
  const keys = new KeyRedactor(upstream.keys ?? [], { shortAsToken: true });
  server.printUrls = () => {
    printUrls();
    const local = server.resolvedUrls?.local[0];
    if (local === undefined) return;
    const info = (label: string, url: string) => server.config.logger.info(keys.text(`  ➜  ${label} ${url}`));
    info('Pet store API:', `${new URL(upstream.basePath, local).href} (petstore-mock at ${upstream.origin}${upstream.basePath})`);
    info('Its inspector:', new URL(ADMIN_PREFIX, local).href);
  };
}

/**
 * Holds each request the dev server proxies to the mock to the mock's rules, first of all: before
 * Vite's own host check (a malformed Host is the mock's 400, whatever Vite says of it), its CORS answers
 * and its proxy, which would hand the request to the mock as its own. The mock's server's limits on slow
 * clients come first (`clientLimitedSeam`): Vite's proxy would hold a client that reads nothing, and
 * what is queued for it, for good; then its guards (`seamGuard`).
 */
function mountSeam(server: ViteDevServer, upstream: Upstream, timeouts: ServerTimeouts, hostServed: (host: string) => boolean, keyless: Keyless): void {
  const { basePath, keys } = upstream;
  const proxied = (target: string) => target.startsWith(basePath) || ADMIN_MATCH.test(target);
  const guard = seamGuard({
    proxied,
    hostServed,
    authorize: keys === undefined ? undefined : bearerCheck(keys),
    keyless,
  });
  const http = server.httpServer;
  const limited = clientLimitedSeam(http !== null && 'keepAliveTimeout' in http ? http : undefined, timeouts);
  server.middlewares.stack.unshift({
    route: '',
    handle: (request: IncomingMessage, outgoing: ServerResponse, next: () => void) =>
      proxied(request.url ?? '/') ? limited(request, outgoing, () => guard(request, outgoing, next)) : next(),
  });
}

/**
 * The Vite plugin: in `vite` (dev) the app's `/v1` and `/__mock/` requests reach the pet store mock,
 * and Vite's start-up lines say where the API and the inspector are.
 * It starts the mock (or uses `target`'s) when Vite reads its config, and stops the mock it started
 * when the dev server closes. It does nothing in a build, `vite preview`, or under vitest, which reads
 * vite.config.ts too (mode `test`, or the `VITEST` variable): `vitest run` neither starts nor waits for a mock.
 * @example
 * // vite.config.ts
 * export default defineConfig({ plugins: [petstoreMock({ seed: 7, count: 50 })] });
 * // the app: fetch('/v1/pets', { headers: { authorization: 'Bearer petstore-dev-key' } })
 * //          fetch('/__mock/reset', { method: 'POST', headers: { 'x-mock-admin': '1' } })
 */
export function petstoreMock(given: PetstoreMockPluginOptions = {}): Plugin {
  // Checked where it enters: a target that is no URL is said when the config is written, not when Vite starts.
  const options = optionsObject('petstoreMock', given);
  if ('target' in options) {
    targetUrl(options.target);
    targetKey(options);
    checkTimeouts(options.timeouts);
  } else checkedServerOptions(options, 'petstoreMock');
  const answerMs = checkAnswerMs('target' in options ? options.answerMs : undefined);
  let upstream: Upstream | undefined;
  // The mock's Errors made at the seam and by the relay, its keys hidden: made with the mock's keys, once they are known.
  let keyless: Keyless = (response) => response;
  // Until Vite's config says it checks `Host` itself, the names are those the mock serves.
  const allowedHosts = 'target' in options ? [] : (options.allowedHosts ?? []);
  let hostServed = hostCheck(allowedHosts);
  const fromApp = (request: IncomingMessage) => fromAppPage(request, hostServed);
  return {
    name: 'petstore-mock',
    apply: (_config, env) => env.command === 'serve' && env.isPreview !== true && env.mode !== 'test' && !process.env.VITEST,
    async config() {
      upstream = await upstreamOf(options);
      // The API's proxy sends the mock its own address as `Host`, a name the mock serves.
      keyless = keylessErrors(new KeyRedactor(upstream.keys ?? [], { shortAsToken: true }));
      const api: ProxyOptions = { target: upstream.origin, changeOrigin: true, configure: (proxy, options) => relayAsMock(proxy, options, keyless, answerMs) };
      return { server: { proxy: { [upstream.basePath]: api, [ADMIN_PATHS]: adminProxy(upstream.origin, fromApp, keyless, answerMs) } } };
    },
    configureServer(server) {
      if (!upstream) return;
      printWhere(server, upstream);
      mountSeam(server, upstream, options.timeouts ?? {}, (host) => hostServed(host), keyless);
    },
    async configResolved(config) {
      // Vite's check, when on, runs after the mock's rule for a malformed Host; else the mock's rule
      // holds, with the name the dev server is bound to, as the mock's server takes its own.
      hostServed = viteChecksHosts(config) ? () => true : hostCheck([...allowedHosts, boundHost(config)]);
      await checkDevServerReach(config, options, upstream);
    },
    // The dev server's close() ends with closeBundle (once per environment), with or without an HTTP
    // server of its own (middleware mode).
    async closeBundle() {
      const running = upstream;
      upstream = undefined;
      await running?.stop();
    },
  };
}
