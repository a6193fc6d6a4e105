/**
 * An outsider's deployments of the pet store, written from /work/shared/interface.md alone on plain
 * `node:http` (no code of the mock, of the verifier, or of the other test deployments), each
 * imitating how a developer of one framework would write it: Express's case-insensitive routing
 * with an optional trailing slash, Fastify's ajv coercion of the querystring, Flask's werkzeug
 * routes (merged slashes redirected 308), FastAPI's redirect of a trailing slash, a gateway in
 * front. The correct ones make other legal choices wherever the interface leaves room; each faulty
 * one is a correct one with one fault a real implementation gets wrong.
 *
 * JSON is read and written losslessly with Node's own JSON source-text access
 * (`JSON.parse` reviver context, `JSON.rawJSON`), so ids beyond 2^53 stay exact.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Deployment } from './deployments.js';
import { LIMIT, LIMIT_RANGE_MESSAGE, MORE_THAN_A_PAGE } from './page-size.js';

const KEY = 'petstore-dev-key';
const STATUSES = ['available', 'pending', 'sold'] as const;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** The legal choices a deployment makes where the interface leaves room. */
export interface Style {
  /** The path before `/pets`. */
  readonly basePath: string;
  /** Ids: 1, 2, 3...; random positive int64; from 2^53 + 1; from 1000; from 0 (0 is an int64 too); random int64 of either sign. */
  readonly ids: 'sequential' | 'random-int64' | 'beyond-2^53' | 'from-1000' | 'from-0' | 'random-signed';
  /** The order of a page; `shuffled` is a hash map's, new at every request. */
  readonly order: 'id-asc' | 'id-desc' | 'name' | 'name-desc' | 'shuffled';
  /** The status of a pet added without one: a value, or left out. */
  readonly defaultStatus: 'available' | 'pending' | 'sold' | 'omit';
  /** `limit` out of range: refused, clamped into its bounds, or (a gateway) clamped above the maximum and refused below the minimum. */
  readonly limitOutOfRange: 'refuse' | 'clamp' | 'clamp-above';
  /** `limit` that is no integer: refused, or ignored (the default page). */
  readonly limitNotInteger: 'refuse' | 'ignore';
  /** How the querystring's `limit` is read: digits only, or Fastify's ajv coercion (`data == +data`, then integer). */
  readonly limitParse: 'digits' | 'ajv';
  readonly unknownStatus: 'refuse' | 'empty';
  /** A petId that is no int64: 400, or 404 (no route matches). */
  readonly badId: 400 | 404;
  /**
   * How paths are matched: exactly; as Express (case-insensitive, optional trailing slash); as
   * FastAPI (a trailing slash redirected 307, before auth); as werkzeug (doubled slashes
   * redirected 308, before auth).
   */
  readonly routing: 'exact' | 'express' | 'fastapi' | 'werkzeug';
  /** Auth before routing (every path 401 without the key), or on the matched routes only (unknown paths 404). */
  readonly authFirst: boolean;
  readonly deprecation: 'rfc9745' | 'true' | 'http-date' | 'none';
  readonly sunset: boolean;
  readonly compression: 'none' | 'gzip' | 'br' | 'deflate';
  /** How bodies are framed: Content-Length, chunked, or ended by closing the connection. */
  readonly framing: 'length' | 'chunked' | 'close';
  readonly extraFields: boolean;
  readonly extraHeaders: boolean;
  /**
   * Errors as the plain Error, or with RFC 9457's problem-details fields besides the Error's
   * (`type`, `title`, `detail`), still `application/json` as the interface says of every body.
   */
  readonly errors: 'plain' | 'problem-fields';
  /** Categories accepted: any int64, or those of a string-keyed table (`"1"`..`"5"`), others refused with 400. */
  readonly categories: 'any' | 'table';
  /** Fields NewPet does not name: ignored, or refused with 400 (pydantic's `extra="forbid"`). */
  readonly unknownFields: 'ignore' | 'refuse';
  /** An integer written `7.0`: kept as 7, or refused. */
  readonly zeroFraction: 'accept' | 'refuse';
  /** Other methods on the API's paths: 405 with `Allow`, or 404. */
  readonly otherMethods: 405 | 404;
  /** Every `every`-th request answered 429, with `Retry-After` in seconds or as an HTTP-date. */
  readonly rateLimit?: { readonly every: number; readonly retryAfter: 'seconds' | 'date' | 'none' };
  /** Pets at the start. */
  readonly count: number;
  /** A name may be refused when empty (400) or kept. */
  readonly emptyName: 'accept' | 'refuse';
  /** The 201's Location: relative to the origin, absolute on the public host name the deployment knows itself by, or none. */
  readonly location?: 'relative' | 'absolute-public' | 'none';
  /** A name already taken refused with 400 (a unique index on the name). */
  readonly uniqueNames?: boolean;
  /** JSON written indented, as a framework's debug mode does. */
  readonly pretty?: boolean;
  /** The auth scheme compared without case (`bearer`, as RFC 9110 §11.1 allows), and spaces around the token trimmed. */
  readonly lenientScheme?: boolean;
}

/** One fault, each a way a real implementation breaks the contract. */
export type RedteamFault =
  | 'limit-off-by-one'
  | 'status-filter-ignored'
  | 'create-not-persisted'
  | 'create-200'
  | 'no-www-authenticate'
  | 'location-wrong'
  | 'int64-rounded'
  | 'error-status-mismatch'
  | 'absent-pet-200-null'
  | 'default-limit-half'
  | 'max-limit-half'
  | 'fastify-body-coercion'
  | 'fastapi-422'
  | 'key-prefix-compare'
  | 'key-case-insensitive'
  | 'status-filter-ignores-case'
  | 'number-id'
  | 'name-trimmed'
  | 'status-null-accepted'
  | 'id-race'
  | 'filter-after-limit'
  | 'bigint-as-string'
  | 'express-html-json-error'
  | 'gateway-401-text'
  | 'created-without-id'
  | 'limit-parseint'
  | 'auth-skipped-on-redirect-target'
  | 'unknown-status-all-pets'
  | 'deprecated-410'
  | 'id-overflow-500'
  | 'limit-zero-unlimited';

const CORRECT_STYLE: Style = {
  basePath: '/v1',
  ids: 'sequential',
  order: 'id-asc',
  defaultStatus: 'available',
  limitOutOfRange: 'refuse',
  limitNotInteger: 'refuse',
  limitParse: 'digits',
  unknownStatus: 'refuse',
  badId: 400,
  routing: 'exact',
  authFirst: true,
  deprecation: 'rfc9745',
  sunset: true,
  compression: 'none',
  framing: 'length',
  extraFields: false,
  extraHeaders: false,
  errors: 'plain',
  categories: 'any',
  unknownFields: 'ignore',
  zeroFraction: 'accept',
  otherMethods: 405,
  count: 30,
  emptyName: 'accept',
};

interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: string;
}

/** JSON read with integers as exact bigints (through the source text), unless `lossy`. */
function readJson(text: string, lossy: boolean): unknown {
  if (lossy) return JSON.parse(text);
  return JSON.parse(text, (_key, value, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value,
  );
}

const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;
function writeJson(value: unknown, bigintAsString = false, pretty = false): string {
  return JSON.stringify(
    value,
    (_key, item) => (typeof item === 'bigint' ? (bigintAsString ? item.toString() : rawJson(item.toString())) : item),
    pretty ? 2 : undefined,
  );
}

function idGenerator(scheme: Style['ids']): () => bigint {
  let next = { sequential: 1n, 'random-int64': 0n, 'beyond-2^53': 2n ** 53n + 1n, 'from-1000': 1000n, 'from-0': 0n, 'random-signed': 0n }[scheme];
  const random = () => BigInt(`0x${randomBytes(8).toString('hex')}`);
  if (scheme === 'random-int64') return () => BigInt.asUintN(63, random()) || 1n;
  if (scheme === 'random-signed') return () => BigInt.asIntN(64, random());
  return () => next++;
}

function compare(order: Style['order']): (a: Pet, b: Pet) => number {
  const byId = (a: Pet, b: Pet) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  if (order === 'id-asc') return byId;
  if (order === 'id-desc') return (a, b) => byId(b, a);
  if (order === 'shuffled') return () => 0;
  const byName = (a: Pet, b: Pet) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byId(a, b));
  return order === 'name' ? byName : (a, b) => byName(b, a);
}

/** ajv's coercion of a querystring value to an integer (Fastify's default `coerceTypes`): a numeric string, then integer. */
function ajvInteger(text: string): number | undefined {
  // `data == +data` holds for a non-empty string exactly when `+data` is a number.
  const number = text !== '' ? Number(text) : Number.NaN;
  return Number.isInteger(number) ? number : undefined;
}

/** A started deployment with its name, for a report. */
export interface RedteamDeployment extends Deployment {
  readonly name: string;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw text in place of a JSON body, with its content type. */
  text?: { type: string; value: string };
}

/** Starts a deployment with `style`, and `fault` when given, on a free loopback port. */
export async function redteamDeployment(name: string, overrides: Partial<Style> = {}, fault?: RedteamFault): Promise<RedteamDeployment> {
  const style: Style = { ...CORRECT_STYLE, ...overrides };
  const nextId = idGenerator(style.ids);
  const tableCategories = new Map<string, string>([
    ['1', 'dogs'],
    ['2', 'cats'],
    ['3', 'birds'],
    ['4', 'fish'],
    ['5', 'reptiles'],
  ]);
  const pets: Pet[] = Array.from({ length: style.count }, (_, i) => ({
    id: nextId(),
    name: `${['Rex', 'Tom', 'Kiwi', 'Nemo', 'Spike'][i % 5]} ${i}`,
    categoryId: BigInt((i % 5) + 1),
    status: STATUSES[i % 3] as string,
  }));
  let requests = 0;
  const base = style.basePath;
  const lossy = fault === 'int64-rounded';

  const error = (status: number, code: string, message: string): Answer => {
    const body: Record<string, unknown> = { code, message, status: fault === 'error-status-mismatch' && status === 404 ? 400 : status };
    if (style.errors === 'problem-fields')
      Object.assign(body, { type: `https://petstore.example/problems/${code}`, title: code.replace(/_/g, ' '), detail: message });
    const headers: Record<string, string> = {};
    if (status === 401 && fault !== 'no-www-authenticate') headers['www-authenticate'] = 'Bearer realm="petstore", error="invalid_token"';
    if (status === 401 && fault === 'gateway-401-text') return { status, text: { type: 'text/plain', value: 'Unauthorized' }, headers };
    return { status, body, headers };
  };
  const badRequest = (message: string) => (fault === 'fastapi-422' ? error(422, 'validation_error', message) : error(400, 'bad_request', message));

  const authorized = (request: IncomingMessage): boolean => {
    const header = request.headers.authorization ?? '';
    if (fault === 'key-prefix-compare') return header.startsWith(`Bearer ${KEY}`);
    if (fault === 'key-case-insensitive') return header.toLowerCase() === `bearer ${KEY}`.toLowerCase();
    if (style.lenientScheme) return /^bearer +/i.test(header) && header.replace(/^bearer +/i, '').trim() === KEY;
    return header === `Bearer ${KEY}`;
  };

  const view = (pet: Pet): Record<string, unknown> => {
    const out: Record<string, unknown> = { id: pet.id, name: pet.name, categoryId: pet.categoryId };
    if (pet.status !== undefined) out.status = pet.status;
    if (style.extraFields) Object.assign(out, { createdAt: '2026-01-01T00:00:00Z', tags: [] });
    return out;
  };

  const readLimit = (raw: string | null): number | Answer => {
    if (raw === null) return fault === 'default-limit-half' ? Math.floor(LIMIT.default / 2) : LIMIT.default;
    let limit: number | undefined;
    if (fault === 'limit-parseint') limit = Number.parseInt(raw, 10);
    else if (style.limitParse === 'ajv') limit = ajvInteger(raw);
    else limit = /^-?\d+$/.test(raw) ? Number(raw) : undefined;
    if (limit === undefined || Number.isNaN(limit)) return style.limitNotInteger === 'ignore' ? LIMIT.default : badRequest(LIMIT_RANGE_MESSAGE);
    const most = fault === 'max-limit-half' ? Math.floor(LIMIT.maximum / 2) : LIMIT.maximum;
    if (limit > LIMIT.maximum) return style.limitOutOfRange === 'refuse' ? badRequest(`limit must be at most ${LIMIT.maximum}`) : most;
    // `limit=0` read as "no limit", as many ORMs do.
    if (limit === 0 && fault === 'limit-zero-unlimited') return pets.length;
    if (limit < LIMIT.minimum) return style.limitOutOfRange === 'clamp' ? LIMIT.minimum : badRequest(`limit must be at least ${LIMIT.minimum}`);
    return Math.min(limit, most);
  };

  const list = (query: URLSearchParams): Answer => {
    const limit = readLimit(query.get('limit'));
    if (typeof limit !== 'number') return limit;
    const status = query.get('status');
    let match = (pet: Pet) => status === null || pet.status === status;
    if (status !== null && !(STATUSES as readonly string[]).includes(status)) {
      if (fault === 'status-filter-ignores-case' && (STATUSES as readonly string[]).includes(status.toLowerCase()))
        match = (pet) => pet.status === status.toLowerCase();
      else if (fault === 'unknown-status-all-pets') match = () => true;
      else if (style.unknownStatus === 'refuse') return badRequest('status must be one of available, pending, sold');
      else return { status: 200, body: [] };
    }
    if (fault === 'status-filter-ignored') match = () => true;
    const sorted = [...pets].sort(compare(style.order));
    if (style.order === 'shuffled')
      for (let i = sorted.length - 1; i > 0; i--) {
        const j = randomBytes(4).readUInt32BE() % (i + 1);
        [sorted[i], sorted[j]] = [sorted[j] as Pet, sorted[i] as Pet];
      }
    const size = fault === 'limit-off-by-one' && query.has('limit') ? limit + 1 : limit;
    const page = fault === 'filter-after-limit' ? sorted.slice(0, size).filter(match) : sorted.filter(match).slice(0, size);
    return { status: 200, body: page.map(view) };
  };

  const integerField = (value: unknown): bigint | undefined => {
    if (typeof value === 'bigint') return value;
    if (fault === 'fastify-body-coercion' && typeof value === 'boolean') return value ? 1n : 0n;
    if (fault === 'fastify-body-coercion' && typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
    if (typeof value === 'number' && Number.isInteger(value) && (lossy || style.zeroFraction === 'accept')) return BigInt(value);
    return undefined;
  };

  const validate = (body: unknown): Answer | { name: string; categoryId: bigint; status?: string } => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return badRequest('the body must be a JSON object');
    const fields = body as Record<string, unknown>;
    if (style.unknownFields === 'refuse') {
      const extra = Object.keys(fields).find((field) => !['name', 'categoryId', 'status'].includes(field));
      if (extra !== undefined) return badRequest(`${extra} is not a field of NewPet`);
    }
    let name = fields.name;
    if (fault === 'fastify-body-coercion' && (typeof name === 'number' || typeof name === 'boolean')) name = String(name);
    if (typeof name !== 'string') return badRequest('name is required and must be a string');
    if (name === '' && style.emptyName === 'refuse') return badRequest('name must not be empty');
    if (style.uniqueNames && pets.some((pet) => pet.name === name)) return badRequest(`a pet is already named ${name}`);
    const categoryId = integerField(fields.categoryId);
    if (categoryId === undefined) return badRequest('categoryId is required and must be an integer');
    if (categoryId > INT64_MAX || categoryId < INT64_MIN) return badRequest('categoryId must be an int64');
    if (style.categories === 'table' && !tableCategories.has(categoryId.toString())) return badRequest(`no category has the id ${categoryId}`);
    const status = fields.status;
    if (status === null && fault === 'status-null-accepted') return { name, categoryId };
    if (status !== undefined && (typeof status !== 'string' || !(STATUSES as readonly string[]).includes(status)))
      return badRequest('status must be one of available, pending, sold');
    return { name: fault === 'name-trimmed' ? name.trim() : name, categoryId, ...(status !== undefined ? { status } : {}) };
  };

  const create = async (text: string, contentType: string | undefined): Promise<Answer> => {
    if (!/^application\/json\b/i.test(contentType ?? '')) return error(415, 'unsupported_media_type', 'send Content-Type: application/json');
    let body: unknown;
    try {
      body = readJson(text, lossy);
    } catch {
      if (fault === 'express-html-json-error')
        return {
          status: 400,
          text: { type: 'text/html; charset=utf-8', value: '<!DOCTYPE html><html><body><pre>SyntaxError: Unexpected token</pre></body></html>' },
        };
      return badRequest('the body is not valid JSON');
    }
    const fields = validate(body);
    if ('status' in fields && typeof fields.status === 'number') return fields as Answer;
    const valid = fields as { name: string; categoryId: bigint; status?: string };
    const status = valid.status ?? (style.defaultStatus === 'omit' ? undefined : style.defaultStatus);
    // The race of a read-modify-write store: the id is read before an await and written after it.
    const id = fault === 'id-race' ? (pets.at(-1)?.id ?? 0n) + 1n : nextId();
    if (fault === 'id-race') await new Promise((resolve) => setTimeout(resolve, 5));
    const pet: Pet = {
      id,
      name: valid.name,
      categoryId: lossy ? BigInt(Number(valid.categoryId)) : valid.categoryId,
      ...(status !== undefined ? { status } : {}),
    };
    if (fault !== 'create-not-persisted') pets.push(pet);
    const location =
      fault === 'location-wrong'
        ? `${base}/pets`
        : style.location === 'absolute-public'
          ? `https://api.petstore.example${base}/pets/${pet.id}`
          : `${base}/pets/${pet.id}`;
    const shown = view(pet);
    if (fault === 'created-without-id') delete shown.id;
    return { status: fault === 'create-200' ? 200 : 201, body: shown, headers: style.location === 'none' ? {} : { location } };
  };

  const deprecationHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = {};
    if (style.deprecation === 'rfc9745') headers.deprecation = '@1748736000';
    if (style.deprecation === 'true') headers.deprecation = 'true';
    if (style.deprecation === 'http-date') headers.deprecation = 'Sun, 01 Jun 2025 00:00:00 GMT';
    if (style.sunset) {
      headers.sunset = 'Thu, 05 Dec 2030 00:00:00 GMT';
      headers.link = `<${base}/pets>; rel="successor-version"`;
    }
    return headers;
  };

  const read = (raw: string): Answer => {
    if (fault === 'deprecated-410') return { ...error(410, 'gone', 'getPet is deprecated; use GET /pets?status='), headers: deprecationHeaders() };
    let id: bigint | undefined;
    if (fault === 'number-id') {
      const number = Number(raw);
      id = Number.isInteger(number) ? BigInt(number) : undefined;
    } else id = /^-?(0|[1-9]\d*)$/.test(raw) ? BigInt(raw) : undefined;
    // The database's bigint overflows on an id past int64: an error the service does not catch.
    if (fault === 'id-overflow-500' && id !== undefined && (id > INT64_MAX || id < INT64_MIN)) throw new RangeError('value out of range for type bigint');
    if (id === undefined || id > INT64_MAX || id < INT64_MIN) {
      const answer = style.badId === 404 ? error(404, 'not_found', `no pet has the id ${raw}`) : badRequest('petId must be an int64');
      return { ...answer, headers: { ...answer.headers, ...deprecationHeaders() } };
    }
    const pet = pets.find((candidate) => candidate.id === id);
    if (pet === undefined) {
      if (fault === 'absent-pet-200-null') return { status: 200, text: { type: 'application/json', value: 'null' }, headers: deprecationHeaders() };
      const answer = error(404, 'not_found', `no pet has the id ${raw}`);
      return { ...answer, headers: { ...answer.headers, ...deprecationHeaders() } };
    }
    return { status: 200, body: view(pet), headers: deprecationHeaders() };
  };

  /** The route a path reaches, or a redirect, or nothing; routing per the style. */
  const route = (rawPath: string): { kind: 'list' } | { kind: 'pet'; id: string } | { kind: 'redirect'; to: string; status: number } | undefined => {
    let path = rawPath;
    if (style.routing === 'werkzeug' && /\/{2,}/.test(path)) return { kind: 'redirect', to: path.replace(/\/{2,}/g, '/'), status: 308 };
    if (style.routing === 'fastapi' && path.length > 1 && path.endsWith('/')) return { kind: 'redirect', to: path.slice(0, -1), status: 307 };
    if (style.routing === 'express') {
      path = path.replace(/(.)\/$/, '$1');
      if (path.toLowerCase() === `${base}/pets`.toLowerCase()) return { kind: 'list' };
      const prefix = `${base}/pets/`.toLowerCase();
      const rest = path.slice(prefix.length);
      if (path.toLowerCase().startsWith(prefix) && rest !== '' && !rest.includes('/')) return { kind: 'pet', id: decodeURIComponent(rest) };
      return undefined;
    }
    if (path === `${base}/pets`) return { kind: 'list' };
    const match = path.startsWith(`${base}/pets/`) ? path.slice(`${base}/pets/`.length) : undefined;
    if (match !== undefined && match !== '' && !match.includes('/')) return { kind: 'pet', id: decodeURIComponent(match) };
    return undefined;
  };

  const handle = async (request: IncomingMessage, text: string): Promise<Answer> => {
    const [rawPath = '/', rawQuery = ''] = (request.url ?? '/').split('?');
    const method = request.method ?? 'GET';
    if (style.rateLimit && ++requests % style.rateLimit.every === 0)
      return {
        ...error(429, 'too_many_requests', 'slow down'),
        headers:
          style.rateLimit.retryAfter === 'none'
            ? {}
            : { 'retry-after': style.rateLimit.retryAfter === 'seconds' ? '1' : new Date(Date.now() + 1000).toUTCString() },
      };
    const target = route(rawPath);
    if (target?.kind === 'redirect') {
      // The auth of the redirect's target is skipped: it answers the API's data to the redirected request.
      if (fault === 'auth-skipped-on-redirect-target' && target.to === `${base}/pets` && method === 'GET') return list(new URLSearchParams(rawQuery));
      return { status: target.status, headers: { location: `${target.to}${rawQuery ? `?${rawQuery}` : ''}` }, text: { type: 'text/plain', value: '' } };
    }
    if ((style.authFirst || target !== undefined) && !authorized(request)) return error(401, 'unauthorized', 'send Authorization: Bearer <API key>');
    if (target === undefined) return error(404, 'not_found', `nothing at ${rawPath}`);
    if (target.kind === 'list' && method === 'GET') return list(new URLSearchParams(rawQuery));
    if (target.kind === 'list' && method === 'POST') return create(text, request.headers['content-type']);
    if (target.kind === 'pet' && method === 'GET') return read(target.id);
    if (style.otherMethods === 404) return error(404, 'not_found', `no ${method} ${rawPath}`);
    return { ...error(405, 'method_not_allowed', `${method} is not allowed here`), headers: { allow: target.kind === 'list' ? 'GET, POST' : 'GET' } };
  };

  const respond = (request: IncomingMessage, response: ServerResponse, answer: Answer): void => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...answer.headers };
    let payload = Buffer.from(answer.text !== undefined ? answer.text.value : writeJson(answer.body, fault === 'bigint-as-string', style.pretty), 'utf8');
    if (answer.text !== undefined) headers['content-type'] = answer.text.type;
    if (style.extraHeaders)
      Object.assign(headers, {
        'x-request-id': randomBytes(6).toString('hex'),
        'x-powered-by': 'Express',
        'cache-control': 'no-store',
        vary: 'Accept-Encoding',
        'x-ratelimit-limit': '1000',
      });
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const codings = { gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync } as const;
    if (style.compression !== 'none' && accepts.includes(style.compression) && payload.length > 0) {
      payload = codings[style.compression](payload);
      headers['content-encoding'] = style.compression;
    }
    if (style.framing === 'length') headers['content-length'] = String(payload.length);
    if (style.framing === 'close') {
      headers.connection = 'close';
      response.useChunkedEncodingByDefault = false;
    }
    response.writeHead(answer.status, headers);
    if (style.framing === 'chunked' && payload.length > 1) {
      response.write(payload.subarray(0, 1));
      response.end(payload.subarray(1));
    } else response.end(request.method === 'HEAD' ? undefined : payload);
  };

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      respond(request, response, await handle(request, Buffer.concat(chunks).toString('utf8')));
    } catch (cause) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 'internal', message: String(cause), status: 500 }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name,
    url: `http://127.0.0.1:${port}${base}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Correct deployments, each a framework's typical way and other legal choices. */
export const CORRECT: readonly { name: string; style: Partial<Style> }[] = [
  {
    name: 'express: case-insensitive routes with an optional trailing slash, newest first, 404 for a bad id, gzip, extra headers',
    style: { routing: 'express', order: 'id-desc', badId: 404, compression: 'gzip', extraHeaders: true, authFirst: false },
  },
  {
    name: 'fastify: ajv-coerced querystring, limit clamped, empty page for an unknown status, chunked, errors with problem-details fields',
    style: { limitParse: 'ajv', limitOutOfRange: 'clamp', unknownStatus: 'empty', framing: 'chunked', errors: 'problem-fields' },
  },
  {
    name: 'flask: werkzeug merges doubled slashes (308 before auth), string-keyed category table, default status pending, Deprecation: true',
    style: { routing: 'werkzeug', categories: 'table', defaultStatus: 'pending', deprecation: 'true', authFirst: false },
  },
  {
    // Unknown fields ignored, FastAPI's default: refusing them breaks the spec's NewPet, which allows them (issue 33).
    name: 'fastapi: trailing slash redirected 307 before auth, unknown fields ignored, 7.0 refused, status left out when not sent, empty name refused',
    style: { routing: 'fastapi', unknownFields: 'ignore', zeroFraction: 'refuse', defaultStatus: 'omit', emptyName: 'refuse' },
  },
  {
    name: 'hono behind a gateway at /api/v1: random int64 ids, ordered by name, brotli, HTTP-date Deprecation, no Sunset',
    style: { basePath: '/api/v1', ids: 'random-int64', order: 'name', compression: 'br', deprecation: 'http-date', sunset: false },
  },
  {
    name: 'ids beyond 2^53, no pets at the start, limit not an integer ignored, default status sold, deflate',
    style: { ids: 'beyond-2^53', count: 0, limitNotInteger: 'ignore', defaultStatus: 'sold', compression: 'deflate' },
  },
  {
    name: 'rate limited: every 7th request 429 with Retry-After in seconds, extra fields, no Deprecation header',
    style: { rateLimit: { every: 7, retryAfter: 'seconds' }, extraFields: true, deprecation: 'none', sunset: false },
  },
  {
    name: 'rate limited with an HTTP-date Retry-After, ordered by name descending, other methods 404',
    style: { rateLimit: { every: 11, retryAfter: 'date' }, order: 'name-desc', otherMethods: 404 },
  },
  {
    name: 'a gateway clamping limit above its maximum and refusing below its minimum, bodies ended by closing the connection, ids from 1000',
    style: { limitOutOfRange: 'clamp-above', framing: 'close', ids: 'from-1000', count: MORE_THAN_A_PAGE },
  },
  {
    name: 'express with a category table, errors with problem-details fields, 404 for bad ids, empty page for unknown status, 5 pets',
    style: { routing: 'express', categories: 'table', errors: 'problem-fields', badId: 404, unknownStatus: 'empty', count: 5 },
  },
  {
    name: 'auth on matched routes only (unknown paths 404 without the key), limit clamped, ajv limit, newest first',
    style: { authFirst: false, limitOutOfRange: 'clamp', limitParse: 'ajv', order: 'id-desc', limitNotInteger: 'ignore' },
  },
  {
    name: 'ids of either sign drawn from all of int64, Location absolute on the public host, indented JSON, bearer scheme in any case',
    style: { ids: 'random-signed', location: 'absolute-public', pretty: true, lenientScheme: true },
  },
  {
    name: 'ids from 0, no Location, unknown fields ignored, ordered by name, 400 for bad ids, limit not an integer ignored',
    style: { ids: 'from-0', location: 'none', unknownFields: 'ignore', order: 'name', limitNotInteger: 'ignore' },
  },
  {
    name: 'a hash map: every page in another order, rate limited every 9th request with no Retry-After',
    style: { order: 'shuffled', rateLimit: { every: 9, retryAfter: 'none' } },
  },
  {
    name: 'names unique (a name taken refused with 400)',
    style: { uniqueNames: true },
  },
];

/**
 * A 401 without `WWW-Authenticate`: HTTP asks for the challenge (RFC 9110 §11.6.1), the interface
 * does not, and the project's own correct deployments leave it out: advice under `--strict`, no failure.
 * A petId read with `Number()` serves the pet for `+7`, ` 7` and `7e0`, spellings that denote 7 (as
 * pydantic's reading of `+7` and ` 7` does): the interface does not say how an integer is spelt in a
 * path, so that is advice too, no failure.
 */
export const ADVISED: readonly { fault: RedteamFault; style: Partial<Style>; names: RegExp }[] = [
  { fault: 'no-www-authenticate', style: {}, names: /without a WWW-Authenticate: Bearer challenge/ },
  {
    fault: 'number-id',
    style: { badId: 404 },
    names: /petId spelt otherwise than in digits alone with the pet the spelling denotes .*"\+\d+" \(a plus sign\), " \d+" \(a space before it\)/,
  },
];

/** Faulty deployments: a correct style (varied) with one fault each, and what the verifier must name. */
export const FAULTY: readonly { fault: RedteamFault; style: Partial<Style>; names: RegExp }[] = [
  { fault: 'limit-off-by-one', style: {}, names: /limit/ },
  { fault: 'status-filter-ignored', style: { routing: 'express' }, names: /status/ },
  { fault: 'create-not-persisted', style: { order: 'id-desc' }, names: /persist|read|listed|404/i },
  { fault: 'create-200', style: {}, names: /200/ },
  { fault: 'location-wrong', style: {}, names: /Location/ },
  { fault: 'int64-rounded', style: {}, names: /categoryId/ },
  { fault: 'error-status-mismatch', style: {}, names: /status/ },
  { fault: 'absent-pet-200-null', style: {}, names: /200|null/ },
  { fault: 'default-limit-half', style: {}, names: new RegExp(`${LIMIT.default}|default`) },
  { fault: 'max-limit-half', style: { limitOutOfRange: 'clamp', count: MORE_THAN_A_PAGE }, names: new RegExp(`${LIMIT.maximum}|limit`) },
  { fault: 'fastify-body-coercion', style: { limitParse: 'ajv' }, names: /categoryId|name/ },
  { fault: 'fastapi-422', style: { routing: 'fastapi' }, names: /422/ },
  { fault: 'key-prefix-compare', style: {}, names: /suffix/ },
  { fault: 'key-case-insensitive', style: {}, names: /case/ },
  { fault: 'status-filter-ignores-case', style: {}, names: /status/ },
  { fault: 'name-trimmed', style: {}, names: /name/ },
  { fault: 'status-null-accepted', style: {}, names: /status/ },
  { fault: 'id-race', style: {}, names: /id/ },
  { fault: 'filter-after-limit', style: {}, names: /status/ },
  { fault: 'bigint-as-string', style: {}, names: /integer|id/ },
  { fault: 'express-html-json-error', style: { routing: 'express' }, names: /html|JSON/i },
  { fault: 'gateway-401-text', style: {}, names: /401|text\/plain|JSON/ },
  { fault: 'created-without-id', style: {}, names: /id/ },
  { fault: 'limit-parseint', style: {}, names: /limit/ },
  { fault: 'auth-skipped-on-redirect-target', style: { routing: 'fastapi' }, names: /pets\/|credential/ },
  { fault: 'unknown-status-all-pets', style: {}, names: /status/ },
  { fault: 'deprecated-410', style: {}, names: /410/ },
  { fault: 'id-overflow-500', style: {}, names: /500/ },
  { fault: 'limit-zero-unlimited', style: { limitOutOfRange: 'clamp' }, names: /limit=0/ },
];
