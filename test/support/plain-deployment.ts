/**
 * A pet store written on plain `node:http`, sharing no code with the mock nor with the other test
 * deployments: it reads the raw request-target as a hand-written server does, so the verifier is
 * not tested against the mock's own reading of paths and bodies. Correct by default; each fault is
 * one realistic way such a server breaks the contract.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type Deployment, listenOnLoopback } from './deployments.js';
import { LIMIT, LIMIT_RANGE_MESSAGE } from './page-size.js';

export type PlainFault =
  /** `parseInt` on the id: `/pets/7abc` and `/pets/7.5` are the pet 7. */
  | 'parseInt-id'
  /** The key checked on the exact paths only, before a router that matches leniently (case, trailing and doubled slashes, `%2F`). */
  | 'auth-on-exact-paths'
  /** Body fields converted as Python does: `true` and `"7"` are integers, `42` is a name. */
  | 'python-types';

const KEY = 'petstore-dev-key';
const STATUSES = ['available', 'pending', 'sold'];

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  send(response, status, { code, message, status }, status === 401 ? { 'www-authenticate': 'Bearer' } : {});
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** An integer field of the body as this server reads it: strictly, or as Python's `int()` converts (a bool, a string of digits). */
function integerOf(value: unknown, fault: PlainFault | undefined): number | undefined {
  if (fault === 'python-types' && typeof value === 'boolean') return Number(value);
  if (fault === 'python-types' && typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/** The path the router matches: with the lenient router, decoded, slashes collapsed, no trailing slash, in lower case. */
function routed(path: string, fault: PlainFault | undefined): string {
  if (fault !== 'auth-on-exact-paths') return path;
  return decodeURIComponent(path)
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1')
    .toLowerCase();
}

/** Starts the server on a free loopback port, with `fault` (or none: a correct deployment), 30 pets at the start. */
export async function plainDeployment(fault?: PlainFault): Promise<Deployment> {
  const pets: Pet[] = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `Plain ${i + 1}`, categoryId: (i % 4) + 1, status: STATUSES[i % 3] as string }));
  const list = (response: ServerResponse, query: URLSearchParams) => {
    const limit = query.get('limit') ?? String(LIMIT.default);
    const status = query.get('status');
    if (!/^\d+$/.test(limit) || Number(limit) < LIMIT.minimum || Number(limit) > LIMIT.maximum)
      return sendError(response, 400, 'bad_request', LIMIT_RANGE_MESSAGE);
    if (status !== null && !STATUSES.includes(status)) return sendError(response, 400, 'bad_request', 'status must be available, pending or sold');
    send(response, 200, pets.filter((pet) => status === null || pet.status === status).slice(0, Number(limit)));
  };
  const create = async (request: IncomingMessage, response: ServerResponse) => {
    let body: Record<string, unknown>;
    // A body declared as anything but JSON is none (RFC 9110 §8.3): read as JSON, a page on another site could send it.
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? ''))
      return sendError(response, 415, 'unsupported_media_type', 'send the body as application/json');
    try {
      body = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
    } catch {
      return sendError(response, 400, 'malformed_json', 'the body is not JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendError(response, 400, 'bad_request', 'the body must be an object');
    const name = fault === 'python-types' && typeof body.name === 'number' ? String(body.name) : body.name;
    const categoryId = integerOf(body.categoryId, fault);
    const status = 'status' in body ? body.status : 'available';
    if (typeof name !== 'string') return sendError(response, 400, 'bad_request', 'name must be a string');
    if (categoryId === undefined) return sendError(response, 400, 'bad_request', 'categoryId must be an integer');
    if (typeof status !== 'string' || !STATUSES.includes(status)) return sendError(response, 400, 'bad_request', 'status must be available, pending or sold');
    const pet = { id: pets.length + 1, name, categoryId, status };
    pets.push(pet);
    send(response, 201, pet, { location: `/v1/pets/${pet.id}` });
  };
  const read = (response: ServerResponse, raw: string) => {
    const id = fault === 'parseInt-id' ? Number.parseInt(raw, 10) : /^(0|[1-9]\d*)$/.test(raw) ? Number(raw) : Number.NaN;
    if (Number.isNaN(id)) return sendError(response, 400, 'bad_request', 'petId must be an integer');
    const pet = pets.find((candidate) => candidate.id === id);
    if (pet === undefined) return sendError(response, 404, 'not_found', `no pet has the id ${raw}`);
    send(response, 200, pet);
  };

  const server = createServer(async (request, response) => {
    const [rawPath = '', rawQuery = ''] = (request.url ?? '').split('?');
    // The faulty rule guards the exact spellings only; the correct server guards everything.
    const guarded = fault !== 'auth-on-exact-paths' || rawPath === '/v1/pets' || /^\/v1\/pets\/[^/]+$/.test(rawPath);
    if (guarded && request.headers.authorization !== `Bearer ${KEY}`) return sendError(response, 401, 'unauthorized', 'a valid bearer key is required');
    const path = routed(rawPath, fault);
    const query = new URLSearchParams(rawQuery);
    if (path === '/v1/pets' && request.method === 'GET') return list(response, query);
    if (path === '/v1/pets' && request.method === 'POST') return create(request, response);
    const match = /^\/v1\/pets\/([^/]+)$/.exec(path);
    if (match && request.method === 'GET') return read(response, decodeURIComponent(match[1] as string));
    sendError(response, 404, 'not_found', 'no such path');
  });
  return listenOnLoopback(server);
}
