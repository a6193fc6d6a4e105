/**
 * Deployments to verify: faulty ones (the mock with one fault injected) and a correct one written
 * independently of the mock, which makes other choices where the interface leaves room.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockApi } from '../../src/mock/handler.js';

export type WebHandler = (request: Request) => Promise<Response>;

export interface Deployment {
  /** Base URL ending in `/v1`. */
  readonly url: string;
  close(): Promise<void>;
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

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

async function rewriteJson(response: Response, change: (body: unknown) => unknown): Promise<Response> {
  const body = change(JSON.parse(await response.text()));
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
}

function isList(request: Request): boolean {
  return request.method === 'GET' && new URL(request.url).pathname === '/v1/pets';
}
function isCreate(request: Request): boolean {
  return request.method === 'POST' && new URL(request.url).pathname === '/v1/pets';
}
function isGet(request: Request): boolean {
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
    if (isList(request) && !url.searchParams.has('limit')) url.searchParams.set('limit', '100');
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
  'limit capped at 50': async (request, mock) => {
    const url = new URL(request.url);
    if (isList(request) && Number(url.searchParams.get('limit')) > 50) url.searchParams.set('limit', '50');
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
  'limit not capped at 100': async (request, mock) => {
    const url = new URL(request.url);
    if (isList(request) && Number(url.searchParams.get('limit')) > 100) {
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
};

/** Starts the mock with one fault injected. */
export function faultyDeployment(fault: Fault): Promise<Deployment> {
  const mock = createMockApi({ count: 150 });
  const handler: WebHandler = (request) => mock.fetch(request);
  return serve((request) => fault(request, handler));
}

/**
 * A correct deployment written without the mock's code, choosing differently wherever the
 * interface leaves room: newest first, random ids, no status for a pet added without one, categories
 * limited to 1..10 (others refused with 400), an out-of-range limit clamped, an unknown status
 * answered with an empty page, 404 for ids that are not integers, `charset` in Content-Type,
 * an extra field in every pet, and no deprecation headers.
 */
export function alternativeDeployment(): Promise<Deployment> {
  const pets: { id: number; name: string; categoryId: number; status?: string; createdAt: string }[] = [];
  let nextId = 7_000_000;
  for (let i = 0; i < 30; i++)
    pets.push({
      id: nextId + 13 * (i + 1),
      name: `Pet ${i}`,
      categoryId: (i % 10) + 1,
      status: ['available', 'pending', 'sold'][i % 3] as string,
      createdAt: new Date(0).toISOString(),
    });
  nextId += 13 * pets.length;
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
  const error = (status: number, message: string) => reply(status, { code: `E${status}`, message, status });
  return serve(async (request) => {
    if (request.headers.get('authorization') !== `Bearer ${KEY}`) return error(401, 'unauthorized');
    const url = new URL(request.url);
    if (url.pathname === '/v1/pets' && request.method === 'GET') {
      const limit = Math.min(100, Math.max(1, Math.trunc(Number(url.searchParams.get('limit') ?? 20)) || 20));
      const status = url.searchParams.get('status');
      const page = [...pets].reverse().filter((pet) => status === null || pet.status === status);
      return reply(200, page.slice(0, limit));
    }
    if (url.pathname === '/v1/pets' && request.method === 'POST') {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await request.text());
      } catch {
        return error(400, 'bad json');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return error(400, 'not an object');
      const { name, categoryId, status } = body;
      if (typeof name !== 'string') return error(400, 'name');
      if (!Number.isInteger(categoryId) || (categoryId as number) < 1 || (categoryId as number) > 10) return error(400, 'unknown category');
      if (status !== undefined && !['available', 'pending', 'sold'].includes(status as string)) return error(400, 'status');
      nextId += 1 + Math.floor(Math.random() * 1000);
      const pet = {
        id: nextId,
        name,
        categoryId: categoryId as number,
        ...(status === undefined ? {} : { status: status as string }),
        createdAt: new Date().toISOString(),
      };
      pets.push(pet);
      return reply(201, pet);
    }
    const match = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
    if (match && request.method === 'GET') {
      const pet = pets.find((candidate) => String(candidate.id) === match[1]);
      return pet ? reply(200, pet) : error(404, 'not found');
    }
    return error(404, 'no route');
  });
}
