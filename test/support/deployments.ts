/**
 * Deployments to verify: faulty ones (the mock with one fault injected) and a correct one written
 * independently of the mock, which makes other choices where the interface leaves room.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { type JsonValue, parseJson, stringifyJson } from '../../src/json/lossless.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { LIMIT, LIMIT_RANGE_MESSAGE } from './page-size.js';

export type WebHandler = (request: Request) => Promise<Response>;

export interface Deployment {
  /** Base URL ending in `/v1`. */
  readonly url: string;
  close(): Promise<void>;
}

/** A correct deployment, with what it served: a test proves the choice was exercised. */
export interface CorrectDeployment extends Deployment {
  /** `posts` counts the creates it handled; `postsReceived` every POST it got, those answered 429 included. */
  readonly served: { gzipped: number; refusedCategories: number; posts: number; limited: number; postsReceived: number };
}

/** `server` listening on a free loopback port, as a deployment under `basePath`; closing it drops its connections. */
export async function listenOnLoopback(server: Server, basePath = '/v1'): Promise<Deployment> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves a web-standard handler on a free loopback port. */
export async function serve(handler: WebHandler, basePath = '/v1'): Promise<Deployment> {
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const method = incoming.method ?? 'GET';
    const request = new Request(`http://${incoming.headers.host}${incoming.url}`, { method, headers, ...(body && method !== 'GET' ? { body } : {}) });
    const response = await handler(request);
    // Headers first, then the body as it comes: a handler can hang after its headers.
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.flushHeaders();
    if (response.body) for await (const chunk of response.body) outgoing.write(chunk);
    outgoing.end();
  });
  return listenOnLoopback(server, basePath);
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

async function rewriteJson(response: Response, change: (body: unknown) => unknown): Promise<Response> {
  const text = await response.text();
  // An answer with no JSON to rewrite (to HEAD, a 204, a variant the mock refused as text) goes as it is.
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new Response(text === '' ? null : text, { status: response.status, headers: response.headers });
  }
  return new Response(JSON.stringify(change(parsed)), { status: response.status, headers: response.headers });
}

export function isList(request: Request): boolean {
  return request.method === 'GET' && new URL(request.url).pathname === '/v1/pets';
}
export function isCreate(request: Request): boolean {
  return request.method === 'POST' && new URL(request.url).pathname === '/v1/pets';
}
export function isGet(request: Request): boolean {
  return request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(new URL(request.url).pathname);
}

const KEY = 'petstore-dev-key';
const withKey = (request: Request) => {
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${KEY}`);
  return new Request(request, { headers });
};

/** A fault: given the request and the correct mock, the faulty answer. */
export type Fault = (request: Request, mock: WebHandler) => Promise<Response>;

/** Each a single, realistic way to break the contract; the verifier must catch every one. */
export const FAULTS: Readonly<Record<string, Fault>> = {
  'createPet answers 200 instead of 201': async (request, mock) => {
    const response = await mock(request);
    return response.status === 201 ? new Response(response.body, { status: 200, headers: response.headers }) : response;
  },
  'no credential required': (request, mock) => mock(request.headers.has('authorization') ? request : withKey(request)),
  'any bearer token accepted': (request, mock) => mock(/^bearer /i.test(request.headers.get('authorization') ?? '') ? withKey(request) : request),
  'Basic credentials accepted': (request, mock) => mock(/^basic /i.test(request.headers.get('authorization') ?? '') ? withKey(request) : request),
  '403 instead of 401 for a wrong key': async (request, mock) => {
    const response = await mock(request);
    return response.status === 401 && request.headers.has('authorization') ? json(403, { code: 'forbidden', message: 'no', status: 403 }) : response;
  },
  'nothing stored': async (request, mock) => {
    const response = await mock(request);
    if (isCreate(request) && response.status === 201) await mock(new Request('http://x/__mock/reset', { method: 'POST' }));
    return response;
  },
  'list wrapped in an object': async (request, mock) => {
    const response = await mock(request);
    return isList(request) && response.status === 200 ? rewriteJson(response, (pets) => ({ items: pets })) : response;
  },
  '200 for an absent pet': async (request, mock) => {
    const response = await mock(request);
    return isGet(request) && response.status === 404 ? json(200, { id: 1, name: 'Gus', categoryId: 1, status: 'available' }) : response;
  },
  'default page size ignored': async (request, mock) => {
    const url = new URL(request.url);
    if (isList(request) && !url.searchParams.has('limit')) url.searchParams.set('limit', String(LIMIT.maximum));
    return mock(new Request(url, request));
  },
  'limit ignored': async (request, mock) => {
    const url = new URL(request.url);
    if (isList(request)) url.searchParams.delete('limit');
    return mock(new Request(url, request));
  },
  'status filter ignored': async (request, mock) => {
    const url = new URL(request.url);
    if (isList(request)) url.searchParams.delete('status');
    return mock(new Request(url, request));
  },
  'limit capped at half its maximum': async (request, mock) => {
    const url = new URL(request.url);
    const cap = Math.floor(LIMIT.maximum / 2);
    if (isList(request) && Number(url.searchParams.get('limit')) > cap) url.searchParams.set('limit', String(cap));
    return mock(new Request(url, request));
  },
  'status filter answers an empty page': async (request, mock) =>
    isList(request) && new URL(request.url).searchParams.has('status') ? json(200, []) : mock(request),
  'Error status differs from the HTTP status': async (request, mock) => {
    const response = await mock(request);
    return response.status >= 400 ? rewriteJson(response, (error) => ({ ...(error as object), status: 400 })) : response;
  },
  'errors as text/plain': async (request, mock) => {
    const response = await mock(request);
    return response.status >= 400 ? new Response(await response.text(), { status: response.status, headers: { 'content-type': 'text/plain' } }) : response;
  },
  '500 on malformed JSON': async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const text = await request.text();
    try {
      JSON.parse(text);
    } catch {
      return json(500, { code: 'internal', message: 'Unexpected token', status: 500 });
    }
    return mock(new Request(request, { body: text }));
  },
  'categoryId rounded through a double': async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const text = await request.text();
    let body = text;
    try {
      body = JSON.stringify(JSON.parse(text));
    } catch {}
    return mock(new Request(request, { body }));
  },
  'fractional categoryId accepted': async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const text = (await request.text()).replace(/"categoryId":(\d+)\.\d+/, '"categoryId":$1');
    return mock(new Request(request, { body: text }));
  },
  'status ignored on create': async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const text = (await request.text()).replace(/,?"status":"[a-z]+"/, '');
    return mock(new Request(request, { body: text }));
  },
  'name required but not checked for type': async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const text = (await request.text()).replace(/"name":(-?\d+)/, '"name":"$1"');
    return mock(new Request(request, { body: text }));
  },
  'every created pet gets id 1': async (request, mock) => {
    const response = await mock(request);
    return isCreate(request) && response.status === 201 ? rewriteJson(response, (pet) => ({ ...(pet as object), id: 1 })) : response;
  },
  'pet without its id': async (request, mock) => {
    const response = await mock(request);
    return isGet(request) && response.status === 200 ? rewriteJson(response, (pet) => ({ ...(pet as object), id: undefined })) : response;
  },
  'ids as strings': async (request, mock) => {
    const response = await mock(request);
    if (response.status !== 200 && response.status !== 201) return response;
    const stringId = (pet: { id: number }) => ({ ...pet, id: String(pet.id) });
    return rewriteJson(response, (body) => (Array.isArray(body) ? body.map(stringId) : stringId(body as { id: number })));
  },
  '404 answered without an Error body': async (request, mock) => {
    const response = await mock(request);
    return response.status === 404 ? new Response('', { status: 404 }) : response;
  },
  'limit not capped at its maximum': async (request, mock) => {
    const url = new URL(request.url);
    if (isList(request) && Number(url.searchParams.get('limit')) > LIMIT.maximum) {
      return json(
        200,
        Array.from({ length: Number(url.searchParams.get('limit')) }, (_, i) => ({ id: i + 1, name: `pet ${i}`, categoryId: 1, status: 'sold' })),
      );
    }
    return mock(request);
  },
  'getPet removed already (410)': async (request, mock) =>
    isGet(request) && /^\/v1\/pets\/\d+$/.test(new URL(request.url).pathname) ? json(410, { code: 'gone', message: 'gone', status: 410 }) : mock(request),
  'unknown status answered with every pet': async (request, mock) => {
    const url = new URL(request.url);
    if (isList(request) && url.searchParams.has('status') && !['available', 'pending', 'sold'].includes(url.searchParams.get('status') ?? ''))
      url.searchParams.delete('status');
    return mock(new Request(url, request));
  },
  // Faults each an instance of a rule of the spec or an RFC (test/verify/principles.test.ts names the check and the fix).
  'a member NewPet does not name refused (pydantic Extra.forbid)': async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const text = await request.text();
    const members = membersOf(text);
    if (members?.some((name) => !['name', 'categoryId', 'status'].includes(name)))
      return json(400, { code: 'bad_request', message: 'extra fields not permitted', status: 400 });
    return mock(new Request(request, { body: text }));
  },
  'a body declared text/plain read as JSON': (request, mock) => {
    if (!isCreate(request) || /json/i.test(request.headers.get('content-type') ?? '')) return mock(request);
    const headers = new Headers(request.headers);
    headers.set('content-type', 'application/json');
    return mock(new Request(request, { headers }));
  },
  'an empty name or a categoryId 0 taken for a missing field': async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const text = await request.text();
    if (/"name":""|"categoryId":0[,}]/.test(text.replace(/\s/g, '')))
      return json(400, { code: 'bad_request', message: 'name and categoryId are required', status: 400 });
    return mock(new Request(request, { body: text }));
  },
  "getPet's Deprecation, Sunset and Link only on its 200s": async (request, mock) => {
    const response = await mock(request);
    if (!isGet(request) || response.status === 200) return response;
    const headers = new Headers(response.headers);
    for (const name of ['deprecation', 'sunset', 'link']) headers.delete(name);
    return new Response(await response.text(), { status: response.status, headers });
  },
  'a Location without the base path': async (request, mock) => {
    const response = await mock(request);
    const location = response.headers.get('location');
    if (!isCreate(request) || location === null) return response;
    const headers = new Headers(response.headers);
    headers.set('location', location.replace(/^\/v1/, ''));
    return new Response(await response.text(), { status: response.status, headers });
  },
  "a Referer from another site refused with a bare 403 (Rack::Protection's JsonCsrf)": (request, mock) => {
    const referer = request.headers.get('referer');
    if (request.method === 'GET' && referer !== null && new URL(referer).host !== new URL(request.url).host)
      return Promise.resolve(new Response('Forbidden', { status: 403, headers: { 'content-type': 'text/plain' } }));
    return mock(request);
  },
};

/** The member names of a JSON object's text, or undefined when it is no object. */
function membersOf(text: string): string[] | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : undefined;
  } catch {
    return undefined;
  }
}

/** Serves the mock as if the request carried the valid key when `accepts` says so: a broken key comparison. */
const acceptsAlso =
  (accepts: (authorization: string) => boolean): Fault =>
  (request, mock) =>
    mock(accepts(request.headers.get('authorization') ?? '') ? withKey(request) : request);

/** Serves `rewrite(path)` with the valid key when the path is a variant of an API path: an auth rule on exact paths before a lenient router. */
const servesVariant =
  (isVariant: (path: string) => boolean, rewrite: (path: string) => string): Fault =>
  (request, mock) => {
    const url = new URL(request.url);
    if (!isVariant(url.pathname)) return mock(request);
    url.pathname = rewrite(url.pathname);
    return mock(withKey(new Request(url, request)));
  };

/** Changes the JSON body of a create before the mock sees it (the body is parsed losslessly). */
const rewriteCreate =
  (change: (body: Record<string, JsonValue>) => Record<string, JsonValue>): Fault =>
  async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    const text = await request.text();
    let body: JsonValue;
    try {
      body = parseJson(text);
    } catch {
      return mock(new Request(request, { body: text }));
    }
    const changed = typeof body === 'object' && body !== null && !Array.isArray(body) ? stringifyJson(change(body)) : text;
    return mock(new Request(request, { body: changed }));
  };

function decodeBasic(authorization: string): string[] {
  const match = /^basic\s+(\S+)$/i.exec(authorization);
  return match
    ? Buffer.from(match[1] as string, 'base64')
        .toString('utf8')
        .split(':')
    : [];
}

/** Sends the mock's answers for creates in flight together with the id of the first of them: a read-then-write race on the id counter. */
function racyIds(): Fault {
  let inFlight = 0;
  let shared: JsonValue | undefined;
  return async (request, mock) => {
    if (!isCreate(request)) return mock(request);
    inFlight++;
    try {
      // The window between reading the counter and writing the row.
      await delay(20);
      const response = await mock(request);
      if (response.status !== 201) return response;
      return rewriteJson(response, (pet) => {
        const created = pet as Record<string, JsonValue>;
        if (shared === undefined) shared = created.id;
        return { ...created, id: shared };
      });
    } finally {
      inFlight--;
      if (inFlight === 0) shared = undefined;
    }
  };
}

/** Reads getPet's id with `read` (parseInt, a float parse) before the mock sees it: a lenient parse of the path. */
const readsIdAs =
  (read: (raw: string) => number): Fault =>
  (request, mock) => {
    const url = new URL(request.url);
    const match = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
    if (!isGet(request) || !match) return mock(request);
    const id = read(decodeURIComponent(match[1] as string));
    if (!Number.isFinite(id)) return mock(request);
    url.pathname = `/v1/pets/${id}`;
    return mock(new Request(url, request));
  };

/** Reads listPets' `limit` with `read` before the mock sees it: a lenient parse of the query. */
const readsLimitAs =
  (read: (raw: string) => string): Fault =>
  (request, mock) => {
    const url = new URL(request.url);
    const limit = url.searchParams.get('limit');
    if (!isList(request) || limit === null) return mock(request);
    url.searchParams.set('limit', read(limit));
    return mock(new Request(url, request));
  };

/** A fault that only the deeper probes catch, and the check that must name it (with a finding matching `message`, if given). */
export interface ProbeFault {
  readonly fault: Fault;
  readonly caughtBy: string;
  readonly message?: RegExp;
  /** Pets at the start, when not 150: a pet created by mistake is seen only on the first page of the listing. */
  readonly count?: number;
}

/** The `name` a create's body carries, or '' when the body is not JSON (probes send such bodies too). */
function nameIn(text: string): string {
  try {
    const body = JSON.parse(text) as { name?: unknown };
    return typeof body.name === 'string' ? body.name : '';
  } catch {
    return '';
  }
}

/** Each a realistic fault the checks before the deeper probes let through. */
export const PROBE_FAULTS: Readonly<Record<string, ProbeFault>> = {
  'the key compared ignoring case': {
    fault: acceptsAlso((authorization) => authorization.toLowerCase() === `bearer ${KEY}`.toLowerCase()),
    caughtBy: 'auth.listPets.refused',
    message: /to the key with its case changed/,
  },
  'a token that starts with the key accepted': {
    fault: acceptsAlso((authorization) => authorization.startsWith(`Bearer ${KEY}`)),
    caughtBy: 'auth.getPet.refused',
    message: /to the key with a suffix/,
  },
  'a prefix of the key accepted': {
    fault: acceptsAlso((authorization) => /^Bearer \S+$/.test(authorization) && KEY.startsWith(authorization.slice(7))),
    caughtBy: 'auth.listPets.refused',
    message: /to a prefix of the key/,
  },
  'the key accepted as a Basic user name': {
    fault: acceptsAlso((authorization) => decodeBasic(authorization)[0] === KEY),
    caughtBy: 'auth.createPet.refused',
    message: /to the key under Basic/,
  },
  'an empty Bearer token accepted': {
    fault: acceptsAlso((authorization) => /^bearer\s*$/i.test(authorization)),
    caughtBy: 'auth.listPets.refused',
    message: /to Bearer with an empty token/,
  },
  'a trailing slash served without a credential': {
    fault: servesVariant(
      (path) => path.length > 1 && path.endsWith('/'),
      (path) => path.replace(/\/+$/, ''),
    ),
    caughtBy: 'auth.listPets.path-variants',
  },
  'a doubled slash served without a credential': {
    fault: servesVariant(
      (path) => path.includes('//'),
      (path) => path.replace(/\/{2,}/g, '/'),
    ),
    caughtBy: 'auth.getPet.path-variants',
  },
  '{} accepted, with a default name and category': {
    fault: rewriteCreate((body) => (Object.keys(body).length === 0 ? { name: 'Unnamed', categoryId: 1 } : body)),
    caughtBy: 'createPet.boundaries',
    message: /accepted a body with an empty object/,
  },
  'a categoryId beyond int64 wraps around': {
    fault: rewriteCreate((body) => (typeof body.categoryId === 'bigint' ? { ...body, categoryId: BigInt.asIntN(64, body.categoryId) } : body)),
    caughtBy: 'createPet.boundaries',
    message: /one (above|below) the int64 (maximum|minimum) but changed categoryId/,
  },
  'names cut at 255 characters': {
    fault: rewriteCreate((body) => (typeof body.name === 'string' ? { ...body, name: body.name.slice(0, 255) } : body)),
    caughtBy: 'createPet.boundaries',
    message: /characters but changed name/,
  },
  'astral-plane characters stored as U+FFFD (a utf8mb3 column)': {
    fault: rewriteCreate((body) => (typeof body.name === 'string' ? { ...body, name: body.name.replace(/[\u{10000}-\u{10FFFF}]/gu, '\uFFFD') } : body)),
    caughtBy: 'createPet.boundaries',
    message: /astral-plane unicode but changed name/,
  },
  'a client-sent id honoured': {
    fault: async (request, mock) => {
      if (!isCreate(request)) return mock(request);
      const text = await request.text();
      const response = await mock(new Request(request, { body: text }));
      const sent = /"id":(\d+)/.exec(text)?.[1];
      return sent !== undefined && response.status === 201 ? rewriteJson(response, (pet) => ({ ...(pet as object), id: Number(sent) })) : response;
    },
    caughtBy: 'createPet.boundaries',
    message: /honoured the id/,
  },
  'status matched ignoring case': {
    fault: rewriteCreate((body) => (typeof body.status === 'string' ? { ...body, status: body.status.toLowerCase() } : body)),
    caughtBy: 'createPet.boundaries',
    // Named by the spec's own values, in the spec's case: never an expected "Available".
    message: /accepted a body with status "(Available|SOLD)": the spec's enum for status is "available", "pending", "sold", matched exactly/,
  },
  'ids assigned with a race between parallel creates': { fault: racyIds(), caughtBy: 'createPet.burst', message: /parallel creates gave the same id/ },
  'with a status filter, the limit applied before filtering': {
    fault: async (request, mock) => {
      const url = new URL(request.url);
      const status = url.searchParams.get('status');
      if (!isList(request) || status === null) return mock(request);
      url.searchParams.delete('status');
      const response = await mock(new Request(url, request));
      return response.status === 200 ? rewriteJson(response, (pets) => (pets as { status?: string }[]).filter((pet) => pet.status === status)) : response;
    },
    caughtBy: 'listPets.status-limit',
  },
  'a re-read leaves out the default status': {
    fault: async (request, mock) => {
      const response = await mock(request);
      return isGet(request) && response.status === 200
        ? rewriteJson(response, (pet) => {
            const { status, ...rest } = pet as { status?: string };
            return status === 'available' ? rest : pet;
          })
        : response;
    },
    caughtBy: 'createPet.persisted',
    message: /with other status/,
  },
  'JSON declared as ISO-8859-1': {
    fault: async (request, mock) => {
      const response = await mock(request);
      const headers = new Headers(response.headers);
      headers.set('content-type', 'application/json; charset=iso-8859-1');
      // A 204 (a preflight) has no body: the Response constructor refuses even an empty one.
      return new Response(response.status === 204 ? null : response.body, { status: response.status, headers });
    },
    caughtBy: 'listPets.limit',
    message: /charset iso-8859-1, where JSON is UTF-8/,
  },
  'a gzip body without Content-Encoding': {
    fault: async (request, mock) => {
      const response = await mock(request);
      // A 204 (a preflight) has no body to compress.
      if (!/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '') || response.status === 204) return response;
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      return new Response(new Uint8Array(gzipSync(await response.text())), { status: response.status, headers });
    },
    caughtBy: 'listPets.limit',
    message: /gzip-compressed body that has no Content-Encoding/,
  },
  'the key accepted under Basic as it is': {
    fault: acceptsAlso((authorization) => authorization === `Basic ${KEY}`),
    caughtBy: 'auth.listPets.refused',
    message: /to the key under Basic, not encoded/,
  },
  'the key accepted under Basic as base64 of the key alone': {
    fault: acceptsAlso((authorization) => authorization === `Basic ${Buffer.from(KEY).toString('base64')}`),
    caughtBy: 'auth.getPet.refused',
    message: /to the key under Basic, base64 of the key alone/,
  },
  'a Location naming the pet before': {
    fault: async (request, mock) => {
      const response = await mock(request);
      if (response.status !== 201) return response;
      const headers = new Headers(response.headers);
      headers.set(
        'location',
        (headers.get('location') ?? '').replace(/\d+$/, (id) => String(BigInt(id) - 1n)),
      );
      return new Response(response.body, { status: 201, headers });
    },
    caughtBy: 'createPet.echo',
    message: /names another pet/,
  },
  'a page that repeats its first pet at its end': {
    fault: async (request, mock) => {
      const response = await mock(request);
      return isList(request) && response.status === 200
        ? rewriteJson(response, (pets) => (Array.isArray(pets) && pets.length > 1 ? [...pets.slice(0, -1), pets[0]] : pets))
        : response;
    },
    caughtBy: 'listPets.ids-unique',
    message: /more than once/,
  },
  'status null taken for no status': {
    fault: rewriteCreate((body) => (body.status === null ? Object.fromEntries(Object.entries(body).filter(([name]) => name !== 'status')) : body)),
    caughtBy: 'createPet.invalid',
    message: /status null/,
  },
  'paths matched ignoring case, after an exact-path auth rule': {
    fault: servesVariant(
      (path) => path !== path.toLowerCase(),
      (path) => path.toLowerCase(),
    ),
    caughtBy: 'auth.listPets.path-variants',
    message: /\/PETS without a credential answered 200/,
  },
  'percent-encoded paths decoded after an exact-path auth rule': {
    fault: servesVariant(
      (path) => /%[0-9a-f]{2}/i.test(path),
      (path) => decodeURIComponent(path),
    ),
    caughtBy: 'auth.getPet.path-variants',
    message: /%70ets\/\d+ without a credential answered 200/,
  },
  'a create without a key stored, then refused with 401': {
    fault: async (request, mock) => {
      if (!isCreate(request) || request.headers.get('authorization') === `Bearer ${KEY}`) return mock(request);
      const text = await request.text();
      await mock(withKey(new Request(request, { body: text })));
      return json(401, { code: 'unauthorized', message: 'a valid bearer key is required', status: 401 }, { 'www-authenticate': 'Bearer' });
    },
    caughtBy: 'auth.createPet.refused',
    message: /refused with 401 still created the pet/,
    count: 10,
  },
  'text after the JSON body ignored': {
    fault: async (request, mock) => {
      if (!isCreate(request)) return mock(request);
      const text = await request.text();
      return mock(new Request(request, { body: text.replace(/\}[^}]*$/, '}') }));
    },
    caughtBy: 'createPet.invalid',
    message: /text after the JSON object/,
  },
  'names trimmed': {
    fault: rewriteCreate((body) => (typeof body.name === 'string' ? { ...body, name: body.name.trim() } : body)),
    caughtBy: 'createPet.boundaries',
    message: /ending in spaces but changed name/,
  },
  'a server error for the ids at the int64 edges': {
    fault: (request, mock) =>
      isGet(request) && /\/(0|-1|9223372036854775807)$/.test(new URL(request.url).pathname)
        ? Promise.resolve(json(500, { code: 'internal', message: 'out of range', status: 500 }))
        : mock(request),
    caughtBy: 'getPet.boundary-ids',
    message: /getPet answered 500 for the id/,
  },
  'every non-ASCII name refused': {
    fault: async (request, mock) => {
      if (!isCreate(request)) return mock(request);
      const text = await request.text();
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the printable ASCII range, on purpose
      return /[^\x00-\x7f]/.test(nameIn(text))
        ? json(400, { code: 'bad_request', message: 'name must be ASCII', status: 400 })
        : mock(new Request(request, { body: text }));
    },
    caughtBy: 'createPet.echo',
    message: /refused \(400\) a valid NewPet/,
  },
  'petId read with parseInt (1000abc is the pet 1000)': {
    fault: readsIdAs((raw) => Number.parseInt(raw, 10)),
    caughtBy: 'getPet.petId-spellings',
    message: /answered the pet \d+ for petId "\d+abc".*accept digits only/,
  },
  'petId read as a float and truncated (1000.5 is the pet 1000)': {
    fault: readsIdAs((raw) => Math.trunc(Number(raw))),
    caughtBy: 'getPet.petId-spellings',
    message: /answered the pet \d+ for petId "\d+\.5", a fraction/,
  },
  'the base path matched ignoring case, after an exact-prefix auth rule (/V1/pets)': {
    fault: servesVariant(
      (path) => /^\/v1\//i.test(path) && !path.startsWith('/v1/'),
      (path) => `/v1/${path.slice(4)}`,
    ),
    caughtBy: 'auth.listPets.path-variants',
    message: /GET \/V1\/pets without a credential answered 200 as the API.*require the key on every path/,
  },
  'an encoded slash (%2F) decoded after an exact-path auth rule': {
    fault: servesVariant(
      (path) => /%2f/i.test(path),
      (path) => path.replace(/%2f/gi, '/'),
    ),
    caughtBy: 'auth.getPet.path-variants',
    message: /\/v1\/pets%2F\d+ without a credential answered 200/,
  },
  'the status filter matched ignoring case': {
    fault: (request, mock) => {
      const url = new URL(request.url);
      const status = url.searchParams.get('status');
      if (!isList(request) || status === null) return mock(request);
      url.searchParams.set('status', status.toLowerCase());
      return mock(new Request(url, request));
    },
    caughtBy: 'listPets.status-case',
    message: /status=[A-Z][a-zA-Z]* answered 200 with \d+ pets of status [a-z]+: it matches status ignoring case/,
  },
  'categoryId true read as 1 (a bool is an int in Python)': {
    fault: rewriteCreate((body) => (typeof body.categoryId === 'boolean' ? { ...body, categoryId: Number(body.categoryId) } : body)),
    caughtBy: 'createPet.types',
    message: /accepted categoryId true, a boolean .*, and stored categoryId 1: categoryId is an integer/,
  },
  'categoryId "7" read as 7': {
    fault: rewriteCreate((body) =>
      typeof body.categoryId === 'string' && /^\d+$/.test(body.categoryId) ? { ...body, categoryId: BigInt(body.categoryId) } : body,
    ),
    caughtBy: 'createPet.types',
    message: /accepted categoryId "\d+", a string of digits/,
  },
  'name 42 read as "42"': {
    fault: rewriteCreate((body) => (typeof body.name === 'number' || typeof body.name === 'bigint' ? { ...body, name: String(body.name) } : body)),
    caughtBy: 'createPet.types',
    message: /accepted name 42, a number, and stored name "42": name is a string/,
  },
  'limit "3" read as 3': {
    fault: readsLimitAs((raw) => /^"(\d+)"$/.exec(raw)?.[1] ?? raw),
    caughtBy: 'listPets.limit-lenient',
    message: /limit="3", a quoted number .*, answered 3 pets/,
  },
  'limit true read as 1': {
    fault: readsLimitAs((raw) => (raw === 'true' ? '1' : raw)),
    caughtBy: 'listPets.limit-lenient',
    message: /limit=true, a boolean .*, answered 1 pets/,
  },
  'limit read with parseInt (3abc is 3)': {
    fault: readsLimitAs((raw) => (Number.isNaN(Number.parseInt(raw, 10)) ? raw : String(Number.parseInt(raw, 10)))),
    caughtBy: 'listPets.limit-lenient',
    message: /limit=3abc, a number and text .*, answered 3 pets/,
  },
  'every create refused with 400': {
    fault: (request, mock) =>
      isCreate(request) ? Promise.resolve(json(400, { code: 'bad_request', message: 'categoryId: no such category', status: 400 })) : mock(request),
    caughtBy: 'createPet.persisted',
    message: /every category tried, the listing's own among them/,
  },
};

/** Starts the mock with one fault injected. */
export function faultyDeployment(fault: Fault, count = 150): Promise<Deployment> {
  const mock = createMockApi({ count });
  const handler: WebHandler = (request) => mock.fetch(request);
  return serve((request) => fault(request, handler));
}

/**
 * The choices the interface leaves open, each a way a correct deployment may differ from the mock.
 * Every combination must pass petstore-verify.
 */
export interface Choices {
  /** How ids are assigned: 1, 2, 3...; random int64; time-ordered (snowflake-like, beyond 2^53); from 2^31; from 2^53 + 1. */
  readonly ids: 'sequential' | 'random' | 'time-ordered' | 'from-2^31' | 'beyond-2^53';
  /** The order of `listPets`. */
  readonly order: 'id-asc' | 'newest-first' | 'name' | 'status';
  /** The status of a pet added without one: a value, or left out of the pet. */
  readonly defaultStatus: 'available' | 'pending' | 'sold' | 'omitted';
  /** The path before `/pets`: `/v1`, or a gateway prefix before it. */
  readonly basePath: string;
  /**
   * An integer limit out of range: clamped, refused, clamped above the maximum and refused below the
   * minimum (a gateway's `min(limit, maximum)`), or clamped above and the default page below (Django REST
   * framework's `LimitOffsetPagination`: `limit=0` is no positive integer, so the default limit).
   */
  readonly limitOutOfRange: 'clamp' | 'refuse' | 'clamp-above' | 'default';
  readonly nonIntegerPetId: 400 | 404;
  /**
   * How paths are matched, behind the key either way: exactly, or leniently (in any case, with a
   * trailing or doubled slash, an encoded slash decoded), as many routers do.
   */
  readonly routing?: 'exact' | 'lenient';
  /** An integer in the body written with a zero fraction (`7.0`): accepted as the integer (JSON Schema's reading), or refused. */
  readonly zeroFraction?: 'accept' | 'refuse';
  readonly unknownStatus: 'empty' | 'refuse';
  /** Categories accepted on create: any int64, or only these (others refused with 400). */
  readonly categories: 'any' | readonly bigint[];
  /** The categories of the pets at the start, in turn; default the accepted ones (1 to 5 for `any`). A retired category is listed but refused. */
  readonly listedCategories?: readonly bigint[];
  /** Gzip the body when the client accepts it. */
  readonly gzip: boolean;
  /** `application/json; charset=utf-8` instead of `application/json`. */
  readonly charset: boolean;
  /** The media type spelt in another case, with space before `;` (case-insensitive, RFC 9110 §8.3.1). */
  readonly mediaTypeCase?: 'upper';
  /** `Connection: close` on every answer. */
  readonly connectionClose: boolean;
  /** Bodies sent chunked (no Content-Length) rather than with a Content-Length. */
  readonly chunked: boolean;
  /** Headers the interface does not name: tracing, caching, CORS, a server banner. */
  readonly extraHeaders: boolean;
  /** Fields the interface does not name in every pet (`createdAt`). */
  readonly extraFields: boolean;
  /** The vocabulary of the Error `code`. */
  readonly errorCodes: 'snake' | 'numeric' | 'upper';
  /** How many pets exist at the start. */
  readonly count: number;
  /** Names at the start in both cases (`Pet Z0`, `pet y1`), so that an order by code units (`name`, binary) and a language's collation differ. */
  readonly mixedCaseNames?: boolean;
  /**
   * Every `limitEvery`-th request (1: every one) is answered 429 with `Retry-After: 1`, as the spec
   * allows on every operation. Counted rather than timed, so that a run whose waits take no real
   * time (test/support/instant-waits.ts) meets the same 429s as one that sits through them. Past 1,
   * the request sent again after its 429 is served, as by a limiter whose Retry-After was honoured:
   * counted alone, a request could meet the limit on each of its retries when the run's other
   * requests happen to arrive in step with it.
   */
  readonly limitEvery?: number;
  /** No `Location` on a 201: the spec describes one, the interface does not ask for it. */
  readonly omitLocation?: boolean;
  /** Every integer of a body written with a zero fraction (`1795817181276.0`), as a serializer through a decimal type writes it: an integer to JSON Schema. */
  readonly zeroFractionIntegers?: boolean;
  /** Pages show only the fields the schema requires (`status`, optional, only in a 201 and a read by id). */
  readonly listOmitsOptional?: boolean;
  /** Another client of a shared staging adds a pet every third request, so pages hold pets the verifier never created. */
  readonly otherClient?: boolean;
}

/** The mock's own choices, where the interface leaves room. */
const MOCK_LIKE: Choices = {
  ids: 'sequential',
  order: 'id-asc',
  defaultStatus: 'available',
  basePath: '/v1',
  limitOutOfRange: 'refuse',
  nonIntegerPetId: 400,
  unknownStatus: 'refuse',
  categories: 'any',
  gzip: false,
  charset: false,
  connectionClose: false,
  chunked: false,
  extraHeaders: false,
  extraFields: false,
  errorCodes: 'snake',
  count: 30,
};

const STATUSES = ['available', 'pending', 'sold'] as const;
const INT64_MAX = 2n ** 63n - 1n;

interface StoredPet {
  readonly id: bigint;
  readonly name: string;
  readonly categoryId: bigint;
  readonly status?: string;
  readonly createdAt: string;
}

/** An id generator for a scheme; `random` draws from all positive int64 values. */
function idScheme(scheme: Choices['ids']): () => bigint {
  let next = { sequential: 1n, random: 0n, 'time-ordered': 0n, 'from-2^31': 2n ** 31n, 'beyond-2^53': 2n ** 53n + 1n }[scheme];
  let sequence = 0n;
  return () => {
    if (scheme === 'random') return BigInt.asUintN(63, BigInt(`0x${randomBytes(8).toString('hex')}`)) || 1n;
    // Milliseconds since an epoch, shifted left, plus a sequence: increasing, with gaps, beyond 2^53.
    if (scheme === 'time-ordered') return (BigInt(Date.now() - 1_288_834_974_657) << 22n) + (sequence++ % 4096n);
    return next++;
  };
}

function compareBy(order: Choices['order']): (a: StoredPet, b: StoredPet) => number {
  const byId = (a: StoredPet, b: StoredPet) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  switch (order) {
    case 'id-asc':
      return byId;
    case 'newest-first':
      return () => 0;
    case 'name':
      return (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byId(a, b));
    case 'status':
      return (a, b) => (a.status ?? '').localeCompare(b.status ?? '') || byId(a, b);
  }
}

function errorCode(style: Choices['errorCodes'], status: number, name: string): string {
  return style === 'numeric' ? `E${status}` : style === 'upper' ? name.toUpperCase() : name;
}

/** A path as a lenient router matches it: an encoded slash decoded, slashes collapsed, no trailing slash, in lower case. */
function leniently(path: string): string {
  return path
    .replace(/%2f/gi, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1')
    .toLowerCase();
}

function isInteger(value: JsonValue | undefined): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * A correct deployment written without the mock's code, making `choices` wherever the interface
 * leaves room. It parses and writes JSON losslessly, so ids and categories beyond 2^53 stay exact.
 */
export async function correctDeployment(overrides: Partial<Choices> = {}): Promise<CorrectDeployment> {
  const choices: Choices = { ...MOCK_LIKE, ...overrides };
  const nextId = idScheme(choices.ids);
  const pets: StoredPet[] = [];
  const knownCategories = choices.listedCategories ?? (choices.categories === 'any' ? [1n, 2n, 3n, 4n, 5n] : choices.categories);
  for (let i = 0; i < choices.count; i++) {
    pets.push({
      id: nextId(),
      name: `${choices.mixedCaseNames && i % 2 === 1 ? 'pet' : 'Pet'} ${String.fromCharCode(90 - (i % 26))}${i}`,
      categoryId: knownCategories[i % knownCategories.length] ?? 1n,
      status: STATUSES[i % 3] as string,
      createdAt: new Date(0).toISOString(),
    });
  }
  const base = choices.basePath;
  const served = { gzipped: 0, refusedCategories: 0, posts: 0, limited: 0, postsReceived: 0 };
  let received = 0;
  const waitedFor = new Set<string>();
  const overLimit = (request: Request): boolean => {
    if (choices.limitEvery === undefined) return false;
    const key = `${request.method} ${request.url}`;
    if (choices.limitEvery > 1 && waitedFor.delete(key)) return false;
    if (++received % choices.limitEvery !== 0) return false;
    waitedFor.add(key);
    return true;
  };

  const reply = (request: Request, status: number, body: unknown, headers: Record<string, string> = {}): Response => {
    const mediaType = choices.mediaTypeCase === 'upper' ? 'Application/JSON' : 'application/json';
    const out = new Headers({
      'content-type': choices.charset ? `${mediaType}${choices.mediaTypeCase ? ' ;Charset=UTF-8' : '; charset=utf-8'}` : mediaType,
      ...headers,
    });
    if (choices.extraHeaders) {
      out.set('x-request-id', randomBytes(8).toString('hex'));
      out.set('cache-control', 'no-store');
      out.set('access-control-allow-origin', '*');
      out.set('server', 'alt-petstore/1.0');
      out.set('vary', 'Accept-Encoding, Authorization');
    }
    if (choices.connectionClose) out.set('connection', 'close');
    const text = stringifyJson(body);
    let bytes = Buffer.from(choices.zeroFractionIntegers ? text.replace(/(":-?\d+)(?=[,}\]])/g, '$1.0') : text);
    if (choices.gzip && /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
      bytes = gzipSync(bytes);
      served.gzipped++;
      out.set('content-encoding', 'gzip');
    }
    if (!choices.chunked) out.set('content-length', String(bytes.byteLength));
    return new Response(new Uint8Array(bytes), { status, headers: out });
  };
  const error = (request: Request, status: number, name: string, message: string) =>
    reply(request, status, { code: errorCode(choices.errorCodes, status, name), message, status });
  const show = (pet: StoredPet) => (choices.extraFields ? pet : { id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status });
  const listed = (pet: StoredPet) => (choices.listOmitsOptional ? { id: pet.id, name: pet.name, categoryId: pet.categoryId } : show(pet));
  let requests = 0;
  const otherClientWrites = () => {
    if (choices.otherClient && ++requests % 3 === 0)
      pets.push({
        id: nextId(),
        name: `another client ${requests}`,
        categoryId: knownCategories[0] ?? 1n,
        status: STATUSES[requests % 3] as string,
        createdAt: new Date().toISOString(),
      });
  };

  const deployment = await serve(async (request) => {
    const url = new URL(request.url);
    if (request.method === 'POST') served.postsReceived++;
    if (choices.routing === 'lenient') url.pathname = leniently(url.pathname);
    otherClientWrites();
    if (overLimit(request)) {
      served.limited++;
      return reply(request, 429, { code: errorCode(choices.errorCodes, 429, 'too_many_requests'), message: 'slow down', status: 429 }, { 'retry-after': '1' });
    }
    if (!url.pathname.startsWith(`${base}/`)) return error(request, 404, 'not_found', 'no such path');
    if (request.headers.get('authorization') !== `Bearer ${KEY}`) return error(request, 401, 'unauthorized', 'a valid bearer key is required');
    const path = url.pathname.slice(base.length);
    if (path === '/pets' && request.method === 'GET') {
      const rawLimit = url.searchParams.get('limit') ?? String(LIMIT.default);
      let limit = /^-?\d+$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
      if (!(limit >= LIMIT.minimum && limit <= LIMIT.maximum)) {
        if (choices.limitOutOfRange === 'refuse' || (choices.limitOutOfRange === 'clamp-above' && !(limit > LIMIT.maximum)))
          return error(request, 400, 'bad_request', LIMIT_RANGE_MESSAGE);
        limit =
          Number.isNaN(limit) || (choices.limitOutOfRange === 'default' && limit < LIMIT.minimum)
            ? LIMIT.default
            : Math.min(LIMIT.maximum, Math.max(LIMIT.minimum, limit));
      }
      const status = url.searchParams.get('status');
      if (status !== null && !STATUSES.includes(status as (typeof STATUSES)[number]) && choices.unknownStatus === 'refuse')
        return error(request, 400, 'bad_request', 'status must be available, pending or sold');
      const ordered = choices.order === 'newest-first' ? [...pets].reverse() : [...pets].sort(compareBy(choices.order));
      return reply(
        request,
        200,
        ordered
          .filter((pet) => status === null || pet.status === status)
          .slice(0, limit)
          .map(listed),
      );
    }
    if (path === '/pets' && request.method === 'POST') {
      served.posts++;
      let body: JsonValue;
      // A body declared as anything but JSON is none (RFC 9110 §8.3), whatever its text: read as JSON, a page on another site could send it.
      if (!/^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(request.headers.get('content-type') ?? ''))
        return error(request, 415, 'unsupported_media_type', 'send the body as application/json');
      const text = await request.text();
      if (choices.zeroFraction === 'refuse' && /"categoryId"\s*:\s*-?\d+[.eE]/.test(text))
        return error(request, 400, 'bad_request', 'categoryId must be an integer');
      try {
        body = parseJson(text);
      } catch {
        return error(request, 400, 'malformed_json', 'the body is not JSON');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return error(request, 400, 'bad_request', 'the body must be an object');
      const { name, categoryId, status } = body;
      if (typeof name !== 'string') return error(request, 400, 'bad_request', 'name must be a string');
      if (!isInteger(categoryId) || BigInt(categoryId) > INT64_MAX || BigInt(categoryId) < -INT64_MAX - 1n)
        return error(request, 400, 'bad_request', 'categoryId must be an int64');
      if (choices.categories !== 'any' && !choices.categories.includes(BigInt(categoryId))) {
        served.refusedCategories++;
        return error(request, 400, 'bad_request', `there is no category ${categoryId}`);
      }
      if (status !== undefined && !STATUSES.includes(status as (typeof STATUSES)[number]))
        return error(request, 400, 'bad_request', 'status must be available, pending or sold');
      const assigned = status === undefined ? (choices.defaultStatus === 'omitted' ? undefined : choices.defaultStatus) : (status as string);
      const pet: StoredPet = {
        id: nextId(),
        name,
        categoryId: BigInt(categoryId),
        ...(assigned === undefined ? {} : { status: assigned }),
        createdAt: new Date().toISOString(),
      };
      pets.push(pet);
      return reply(request, 201, show(pet), choices.omitLocation ? {} : { location: `${base}/pets/${pet.id}` });
    }
    const match = /^\/pets\/([^/]+)$/.exec(path);
    if (match && request.method === 'GET') {
      const raw = decodeURIComponent(match[1] as string);
      if (!/^-?(0|[1-9]\d*)$/.test(raw))
        return error(request, choices.nonIntegerPetId, choices.nonIntegerPetId === 400 ? 'bad_request' : 'not_found', 'no such pet');
      const pet = pets.find((candidate) => candidate.id === BigInt(raw));
      return pet ? reply(request, 200, show(pet)) : error(request, 404, 'not_found', 'no such pet');
    }
    return error(request, 404, 'not_found', 'no such path');
  }, base);
  return { ...deployment, served };
}

/**
 * The other side of most open choices at once: newest first, status left out when not sent,
 * categories 1..10 only, limit clamped, an empty page for an unknown status, 404 for a non-integer id, charset,
 * extra fields, numeric error codes. The verifier, the profile learner and the proxy are each tested
 * against a deployment that makes them.
 */
export const OTHER_CHOICES: Partial<Choices> = {
  order: 'newest-first',
  defaultStatus: 'omitted',
  categories: [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n],
  limitOutOfRange: 'clamp',
  unknownStatus: 'empty',
  nonIntegerPetId: 404,
  charset: true,
  extraFields: true,
  errorCodes: 'numeric',
};

/**
 * The correct deployment that `verify.test.ts` and `test/pact/provider.test.ts` check: newest first,
 * ids from 2^31, no status for a pet added without one, categories limited to 1..10 (others refused
 * with 400), an out-of-range limit clamped, an unknown status answered with an empty page, 404 for
 * ids that are not integers, `charset` in Content-Type, an extra field in every pet, numeric error
 * codes, and no deprecation headers. Ids beyond 2^53 have their own deployments in
 * `verify-alternatives.test.ts`.
 */
export function alternativeDeployment(): Promise<CorrectDeployment> {
  return correctDeployment({ ids: 'from-2^31', ...OTHER_CHOICES });
}
