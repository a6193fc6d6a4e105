/**
 * `petstore-mock --proxy <base url>`: a validating proxy for working against a real deployment. Every
 * API request is forwarded to the deployment (the admin endpoints `/__mock/*` stay local); the request
 * and the answer are held to spec/openapi.yaml, each violation logged on one line, added to the answer
 * as `X-Contract-Violation` and kept; and the answer is compared with what the mock, with its profile,
 * answers the same request in the same state: the drift report, `GET /__mock/drift`.
 *
 * The same state: the mock beside the proxy (the shadow) starts empty and mirrors every pet the
 * deployment shows (listed, read, created), remembering which of its ids stands for which of the
 * deployment's; a read of an id the deployment never showed asks the shadow for an id it has not.
 *
 * The key (`upstreamKey`, or the client's own Authorization) goes only to the deployment's origin:
 * each request's URL is the base URL and the path under `/v1`, checked to keep that origin, and
 * redirects are handed back to the client, never followed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openapi } from '../../generated/openapi.js';
import { MAX_RESPONSE_BYTES } from '../../http/limits.js';
import { readLimited } from '../../http/read-limited.js';
import { type JsonValue, parseJson } from '../../json/lossless.js';
import { createConformance } from '../../openapi/conformance.js';
import { MAX_BODY_BYTES, PET_STATUSES } from '../../openapi/facts.js';
import { known, type ProfileDocument, UNKNOWN_PROFILE } from '../../profile/profile.js';
import { MOCK_DEFAULTS } from '../core/defaults.js';
import { errorResponse, type MockRequest, type MockResponse } from '../core/messages.js';
import { createMockApi } from '../create-mock-api.js';
import { createPet } from '../operations/createPet.js';
import { getPet } from '../operations/getPet.js';
import { listPets } from '../operations/listPets.js';
import type { OperationEnv, OperationId, Reading } from '../operations/operation.js';
import { createRouter } from '../pipeline/router.js';
import { RESPONSE_SCHEMAS } from '../pipeline/self-check.js';
import { compareResponses, type Drift } from '../profile/drift.js';
import { Coverage } from '../state/coverage.js';
import { unsavedChange } from '../state/saved-changes.js';

/** At most this many violations and drifts are kept (the counts go on); a long session stays bounded. */
const KEPT = 1_000;
/** The shadow's own key: it never leaves the process. */
const SHADOW_KEY = 'petstore-proxy-shadow-key';
/** Headers a client sends that the deployment needs; the rest (cookies, X-Mock-Session, Prefer) stay here. */
const FORWARDED = ['accept', 'accept-language', 'content-type', 'user-agent'];
/** Headers of the deployment's answer that belong to its connection, not to the answer. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'upgrade', 'proxy-authenticate', 'trailer']);

/**
 * Options of `startProxyServer`.
 * @example
 * const options: ProxyOptions = { upstream: 'https://staging.example.com/v1', upstreamKey: process.env.STAGING_KEY, port: 0 };
 */
export interface ProxyOptions {
  /** The deployment's base URL, with its version prefix: `https://staging.example.com/v1`. */
  readonly upstream: string;
  /** The key sent to the deployment; without it, the client's own Authorization is forwarded. Never printed. */
  readonly upstreamKey?: string;
  /** The choices the mock compares with (`petstore-verify --write-profile`). Default: the mock's own. */
  readonly profile?: ProfileDocument;
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Milliseconds to wait for the deployment. Default 10 000. */
  readonly timeoutMs?: number;
  /** Called with one line per violation and per drift, as they happen. */
  readonly onProblem?: (line: string) => void;
  /** Called with one line per request: method, target, status, ms, counts. */
  readonly onRequest?: (line: string) => void;
}

/** One way a request or an answer breaks the spec. */
export interface ContractViolation {
  readonly request: string;
  /** `request` or `response`. */
  readonly side: 'request' | 'response';
  readonly message: string;
}

/** What the proxy saw: `GET /__mock/drift`. */
export interface DriftReport {
  readonly upstream: string;
  readonly requests: number;
  readonly violations: { readonly count: number; readonly kept: readonly ContractViolation[] };
  readonly drift: {
    readonly count: number;
    readonly byAspect: Readonly<Record<string, number>>;
    readonly kept: readonly (Drift & { readonly request: string })[];
  };
}

export interface ProxyServer {
  /** The proxy's base URL, ending in `/v1`. */
  readonly url: string;
  readonly port: number;
  report(): DriftReport;
  close(): Promise<void>;
}

function upstreamBase(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`upstream: "${value}" is not a URL; give the deployment's base URL, like https://staging.example.com/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`upstream: must be http or https, not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password) throw new TypeError('upstream: must carry no query, fragment or credentials');
  return url;
}

/** A header value on one line of visible ASCII, at most `max` characters: what a violation may add to an answer. */
function headerSafe(text: string, max = 400): string {
  const plain = text.replace(/[^\x20-\x7e]+/g, ' ');
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

function parsed(text: string): JsonValue | undefined {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/** The token of a Bearer credential, if the header holds one. */
function bearerToken(authorization: string | undefined): string | undefined {
  return /^bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
}

/** Text with each secret (as sent, in base64, percent-encoded) replaced by `***`. */
function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = secrets
    .filter((secret): secret is string => secret !== undefined && secret.length >= 4)
    .flatMap((secret) => [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret)]);
  return (text) => forms.reduce((redacted, form) => redacted.replaceAll(form, '***'), text);
}

/** Text on one line, for the log: a message may quote a body with line breaks. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

function messageOf(error: JsonValue | undefined): string {
  return typeof error === 'object' && error !== null && !Array.isArray(error) && typeof error.message === 'string' ? error.message : 'the request is invalid';
}

function readIncoming(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return readLimited(
    new ReadableStream<Uint8Array>({
      start(controller) {
        request.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
        request.on('end', () => controller.close());
        request.on('error', (error) => controller.error(error));
      },
      cancel: () => void request.resume(),
    }),
    maxBytes,
  );
}

/**
 * Starts the validating proxy in front of `upstream`.
 * @example
 * const proxy = await startProxyServer({ upstream: 'https://staging.example.com/v1', upstreamKey: key });
 * // point the front end at proxy.url; then
 * proxy.report().drift.count;
 */
export async function startProxyServer(options: ProxyOptions): Promise<ProxyServer> {
  const base = upstreamBase(options.upstream);
  const basePath = MOCK_DEFAULTS.basePath;
  const shadow = createMockApi({ count: 0, apiKey: SHADOW_KEY, prefer: false, ...(options.profile === undefined ? {} : { profile: options.profile }) });
  const profile = shadow.options.profile;
  const order = known(profile.listOrder) ? profile.listOrder : 'id-asc';
  // The spec's own input checks, without state: what makes a request invalid whatever the profile.
  const inputEnv: OperationEnv = { basePath, coverage: new Coverage(basePath), profile: UNKNOWN_PROFILE, change: (_, change) => unsavedChange(change) };
  const inputs = createRouter(basePath, [listPets(inputEnv), createPet(inputEnv), getPet(inputEnv)], inputEnv.coverage);
  const conformance = createConformance<OperationId>(openapi, RESPONSE_SCHEMAS);
  const shadowIds = new Map<string, string>();
  const violations: ContractViolation[] = [];
  const drifts: (Drift & { request: string })[] = [];
  const byAspect: Record<string, number> = {};
  let [requests, violationCount, driftCount] = [0, 0, 0];
  const problem = options.onProblem ?? (() => {});

  function keep<T>(list: T[], item: T): void {
    list.push(item);
    if (list.length > KEPT) list.shift();
  }

  function mirror(pet: JsonValue | undefined, shadowId?: string): void {
    if (typeof pet !== 'object' || pet === null || Array.isArray(pet)) return;
    const id = String(pet.id);
    if (shadowIds.has(id)) return;
    if (shadowId !== undefined) {
      shadowIds.set(id, shadowId);
      return;
    }
    const { name, categoryId, status } = pet;
    if (typeof name !== 'string' || (typeof categoryId !== 'number' && typeof categoryId !== 'bigint')) return;
    const draft = { name, categoryId, status: PET_STATUSES.find((known) => known === status) };
    const created = shadow.store.create(draft);
    // The memory store answers at once; a promise would be a store this proxy does not make.
    if (!(created instanceof Promise)) shadowIds.set(id, String(created.id));
  }

  async function requestProblems(method: string, target: string, body: string, contentType: string | undefined): Promise<string[]> {
    const reached = inputs.target(target).operations.get(method);
    if (reached === undefined) return [];
    let reading: Reading = reached.reading;
    if ('readBody' in reading) reading = await reading.readBody(textRequest(method, target, body, contentType ? { 'content-type': contentType } : {}));
    return 'refusal' in reading ? [messageOf(parsed(reading.refusal.body))] : [];
  }

  async function answer(request: IncomingMessage, body: string): Promise<MockResponse> {
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const what = `${method} ${target}`;
    const path = target.split('?')[0] ?? '';
    if (path.startsWith('/__mock/')) {
      if (method === 'GET' && path === '/__mock/drift') return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(report()) };
      return shadow.respond(textRequest(method, target, body, {}));
    }
    if (path !== basePath && !path.startsWith(`${basePath}/`))
      return errorResponse('not_found', `The proxy forwards only ${basePath}/*; ${path} is not under it.`);
    const url = new URL(`${base.href.replace(/\/+$/, '')}${target.slice(basePath.length)}`);
    if (url.origin !== base.origin) return errorResponse('bad_request', 'The request-target would leave the deployment the proxy forwards to.');
    const headers = new Headers();
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const authorization = options.upstreamKey === undefined ? request.headers.authorization : `Bearer ${options.upstreamKey}`;
    if (authorization !== undefined) headers.set('authorization', authorization);
    let upstream: Response;
    let text: string | undefined;
    try {
      upstream = await fetch(url, {
        method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
      });
      text = await readLimited(upstream.body, MAX_RESPONSE_BYTES);
    } catch (error) {
      const reason = error instanceof Error ? error.name : 'an error';
      return errorResponse('service_unavailable', `The deployment at ${base.origin} did not answer (${reason}); the proxy forwards to --proxy ${base.href}.`);
    }
    if (text === undefined)
      return errorResponse('service_unavailable', `The deployment answered with more than ${MAX_RESPONSE_BYTES} bytes, which no answer of the spec needs.`);

    // A deployment may echo the credential in an answer; what the proxy logs, keeps and adds to the answer never holds it.
    const redact = redactor([options.upstreamKey, bearerToken(request.headers.authorization)]);
    const clean = (text: string) => oneLine(redact(text));
    const reached = inputs.target(target).operations.get(method);
    const operationId = reached?.operation.id;
    const json = parsed(text);
    const found: ContractViolation[] = [
      ...(await requestProblems(method, target, body, request.headers['content-type'])).map((message) => ({
        request: clean(what),
        side: 'request' as const,
        message: clean(message),
      })),
      ...conformance(operationId, { status: upstream.status, body: text, header: (name) => upstream.headers.get(name) ?? undefined }).map((violation) => ({
        request: clean(what),
        side: 'response' as const,
        message: clean(violation.message),
      })),
    ];
    for (const violation of found) {
      violationCount++;
      keep(violations, violation);
      problem(`petstore-mock: contract violation (${violation.side}): ${violation.request}: ${violation.message}`);
    }

    // The shadow answers in the deployment's state: ids it was shown stand for the deployment's, an id never shown for none.
    const shadowTarget =
      operationId === 'getPet'
        ? target.replace(/\/pets\/([^/?]+)/, (whole, id: string) => (/^-?\d+$/.test(id) ? `/pets/${shadowIds.get(id) ?? '0'}` : whole))
        : target;
    if (upstream.status === 200 && operationId === 'getPet') mirror(json);
    const shadowed = await shadow.respond(
      textRequest(method, shadowTarget, body, {
        ...(upstream.status === 401 ? {} : { authorization: `Bearer ${SHADOW_KEY}` }),
        ...(request.headers['content-type'] === undefined ? {} : { 'content-type': request.headers['content-type'] }),
      }),
    );
    const shadowJson = parsed(shadowed.body);
    if (
      operationId === 'createPet' &&
      upstream.status === 201 &&
      shadowed.status === 201 &&
      typeof shadowJson === 'object' &&
      shadowJson !== null &&
      !Array.isArray(shadowJson)
    )
      mirror(json, String(shadowJson.id));
    if (operationId === 'listPets' && Array.isArray(json)) for (const pet of json) mirror(pet);
    const query = new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : '');
    for (const drift of compareResponses(
      operationId,
      what,
      query,
      { status: upstream.status, header: (name) => upstream.headers.get(name) ?? undefined, json },
      { status: shadowed.status, header: (name) => shadowed.headers[name], json: shadowJson },
      order,
    )) {
      driftCount++;
      byAspect[drift.aspect] = (byAspect[drift.aspect] ?? 0) + 1;
      const kept = { aspect: drift.aspect, upstream: clean(drift.upstream), mock: clean(drift.mock), message: clean(drift.message), request: clean(what) };
      keep(drifts, kept);
      problem(`petstore-mock: drift (${kept.aspect}): ${kept.message}`);
    }

    // The client never learns the upstream key, even from a deployment that echoes it.
    const hide = redactor([options.upstreamKey]);
    const relayed: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) relayed[name] = hide(value);
    });
    if (found.length > 0)
      relayed['x-contract-violation'] = headerSafe(`${found[0]?.message ?? ''}${found.length > 1 ? ` (and ${found.length - 1} more: GET /__mock/drift)` : ''}`);
    return { status: upstream.status, headers: relayed, body: options.upstreamKey === undefined ? text : hide(text) };
  }

  function report(): DriftReport {
    return {
      upstream: base.href,
      requests,
      violations: { count: violationCount, kept: [...violations] },
      drift: { count: driftCount, byAspect: { ...byAspect }, kept: [...drifts] },
    };
  }

  const server: Server = createServer(async (request, response) => {
    const started = performance.now();
    requests++;
    const body = await readIncoming(request, MAX_BODY_BYTES);
    const made =
      body === undefined
        ? errorResponse('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB); the proxy does not forward it.`)
        : await answer(request, body).catch((error: unknown) =>
            errorResponse(
              'internal_error',
              `The proxy failed: ${error instanceof Error ? error.message : String(error)}. This is a bug in petstore-mock; please report it.`,
            ),
          );
    response.writeHead(made.status, { ...made.headers, 'content-length': Buffer.byteLength(made.body) });
    response.end(made.body);
    options.onRequest?.(`${request.method} ${request.url} ${made.status} ${(performance.now() - started).toFixed(1)}ms`);
  });
  const host = options.host ?? MOCK_DEFAULTS.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${basePath}`,
    port,
    report,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A request the shadow (or the input checks) reads: its method, target, these headers and this body. */
function textRequest(method: string, target: string, body: string, headers: Readonly<Record<string, string>>): MockRequest {
  return { method, target, header: (name) => headers[name], text: async (maxBytes) => (Buffer.byteLength(body) > maxBytes ? undefined : body) };
}
