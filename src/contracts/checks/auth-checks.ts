import { isWrite } from '../../http/methods.js';
import type { ModelOperation } from '../../openapi/resource-model.js';
import type { Check, CheckContext } from '../check.js';
import { filledPath } from '../contract.js';
import { type DerivedCredential, type Exchange, KEY_PLACEHOLDER } from '../http.js';
import { runFieldsOf } from '../pet-fields.js';
import { bodyCategoryId, existingPet, idOf, isPet, listPage, newPetBody } from '../pets.js';

/** Below this length a prefix of the key would reveal almost all of it, even in a report. */
const SHORTEST_KEY_FOR_PREFIX = 8;

type Operation = { operationId: string; secured: boolean; method: string; path: string };

/** What a request sends besides its method, path and credential. */
type RequestParts = { params?: Record<string, string>; body?: string };

function swapCase(text: string): string {
  return [...text].map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase())).join('');
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * Near misses of the real credential, the way auth fails in practice: a comparison that ignores
 * case, accepts a longer or a shorter token, another scheme, or an empty token. Each is made from the
 * key inside the HTTP client and reported by its description, never by its value.
 */
function nearMisses(context: CheckContext): [string, DerivedCredential][] {
  const { client } = context.state;
  const misses: [string, DerivedCredential | undefined][] = [
    [
      'the key with its case changed',
      client.derive('Bearer <$PETSTORE_API_KEY, case changed>', (key) => ({ value: `Bearer ${swapCase(key)}`, secret: swapCase(key) })),
    ],
    ['the key with a suffix', client.derive(`Bearer ${KEY_PLACEHOLDER}x`, (key) => ({ value: `Bearer ${key}x`, secret: `${key}x` }))],
    [
      'a prefix of the key',
      client.derive('Bearer <$PETSTORE_API_KEY without its last character>', (key) =>
        key.length < SHORTEST_KEY_FOR_PREFIX ? { value: `Bearer ${key}`, secret: key } : { value: `Bearer ${key.slice(0, -1)}`, secret: key.slice(0, -1) },
      ),
    ],
    [
      'the key under Basic',
      client.derive('Basic <base64 of "$PETSTORE_API_KEY:">', (key) => ({ value: `Basic ${base64(`${key}:`)}`, secret: base64(`${key}:`) })),
    ],
    [
      'the key under Basic, base64 of the key alone',
      client.derive('Basic <base64 of "$PETSTORE_API_KEY">', (key) => ({ value: `Basic ${base64(key)}`, secret: base64(key) })),
    ],
    // No secret of its own to replace in echoes: the key itself is, by the redactor, in every form.
    ['the key under Basic, not encoded', client.derive(`Basic ${KEY_PLACEHOLDER}`, (key) => ({ value: `Basic ${key}`, secret: '' }))],
  ];
  return misses.filter((miss): miss is [string, DerivedCredential] => miss[1] !== undefined);
}

/** Credentials that must be rejected, as `Authorization` header values (`null`: none). */
function rejectedCredentials(context: CheckContext): [string, string | null | DerivedCredential][] {
  const wrong = `petstore-verify-wrong-key-${context.state.runId}`;
  return [
    ['no credential', null],
    ['a wrong key', `Bearer ${wrong}`],
    ['the key without the Bearer scheme', KEY_PLACEHOLDER],
    ['Basic credentials', `Basic ${base64(`petstore-verify:${wrong}`)}`],
    ['Bearer with an empty token', 'Bearer '],
    ...nearMisses(context),
  ];
}

/** The operation of the resource model (src/openapi/resource-model.ts) with this id: its kind says how to call it. */
function modelOperation(context: CheckContext, operationId: string): ModelOperation | undefined {
  return context.contract.model.operations.find((operation) => operation.operationId === operationId);
}

/** A valid request for each operation, by its kind. */
async function validRequest(context: CheckContext, operationId: string, purpose = 'auth'): Promise<RequestParts> {
  const { id } = context.contract.model;
  switch (modelOperation(context, operationId)?.kind) {
    case 'read':
      // No pet needs to exist to be rejected without a credential: any id will do when none is listed.
      return {
        params: {
          [id.parameter]:
            purpose === 'auth' ? idOf(context, await existingPet(context)) : context.state.listing[0] ? idOf(context, context.state.listing[0]) : '1',
        },
      };
    case 'create':
      return { body: newPetBody(context.state, purpose, { categoryId: await bodyCategoryId(context.state) }) };
    default:
      return {};
  }
}

/** An invalid request for each operation, by its kind: without a credential it must still be 401, whatever is wrong with it (auth comes first). */
function invalidRequest(context: CheckContext, operationId: string, valid: RequestParts): RequestParts & { query?: string } {
  const operation = modelOperation(context, operationId);
  switch (operation?.kind) {
    case 'read':
      return { params: { [context.contract.model.id.parameter]: 'abc' } };
    case 'create':
      return { body: '{}' };
    case 'list':
      return operation.pageSize === undefined ? valid : { query: `${operation.pageSize.parameter}=abc` };
    default:
      return valid;
  }
}

/** A spelling of an API path: below the base URL (`/pets/`), or from the origin, the base path spelled too (`/V1/pets`). */
interface Spelling {
  readonly path: string;
  readonly fromOrigin: boolean;
}

function upperCase(path: string): string {
  return path.replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

/** The same path spelled so that a router may still match it while an exact-path auth rule does not. */
function pathVariants(path: string): Spelling[] {
  const variants = [`${path}/`, `/${path}`];
  // Paths are case-sensitive and percent-encoding an unreserved letter names the same path (RFC 3986 §6.2.2.2): a router may normalize either.
  const upper = upperCase(path);
  if (upper !== path) variants.push(upper);
  const letter = path.search(/[a-z]/);
  if (letter >= 0) variants.push(`${path.slice(0, letter)}%${path.charCodeAt(letter).toString(16)}${path.slice(letter + 1)}`);
  const lastSlash = path.lastIndexOf('/');
  if (lastSlash > 0) {
    variants.push(`${path.slice(0, lastSlash)}/${path.slice(lastSlash)}`);
    // An encoded slash is no separator (RFC 3986 §2.2), but a router that decodes before it matches reads one.
    variants.push(`${path.slice(0, lastSlash)}%2F${path.slice(lastSlash + 1)}`);
  }
  return variants.map((variant) => ({ path: variant, fromOrigin: false }));
}

/**
 * The base path spelled otherwise before the operation's path: in upper case (`/V1/pets`), after a
 * doubled slash, joined by an encoded slash (`/v1%2Fpets`), or left out (`/pets`, the API mounted at
 * the root as well). A gateway that authenticates on the exact prefix and routes leniently serves these.
 */
function basePathVariants(basePath: string, path: string): Spelling[] {
  if (basePath === '') return [];
  const variants = [`/${basePath}${path}`, `${basePath}%2F${path.slice(1)}`, path];
  if (upperCase(basePath) !== basePath) variants.unshift(`${upperCase(basePath)}${path}`);
  return variants.map((variant) => ({ path: variant, fromOrigin: true }));
}

/**
 * Each rejected credential gets 401; an invalid request without a credential gets 401 too (or 400);
 * and a rejected create stores nothing.
 */
async function expectRejected(context: CheckContext, operation: Operation): Promise<void> {
  const { operationId } = operation;
  const request = await validRequest(context, operationId, 'auth refused');
  for (const [what, authorization] of rejectedCredentials(context)) {
    const exchange = await context.call(operationId, { ...request, authorization });
    // One auth layer guards every operation: a credential it lets through is one fault, whichever operation showed it.
    if (exchange.status !== 401) context.failStatus(`${operationId} answered ${exchange.status} to ${what}`, exchange, '401', `auth:accepts:${what}`);
    // HTTP asks every 401 for a challenge (RFC 9110 §11.6.1; RFC 6750 §3 for bearer); the interface does not: advice.
    else if (!bearerChallenge(exchange))
      context.advise(
        `the deployment answers 401 without a WWW-Authenticate: Bearer challenge (${challengeOf(exchange)} on ${operationId}): HTTP asks every 401 for one (RFC 9110 §11.6.1, RFC 6750 §3 for the bearer scheme), and clients use it to tell a missing key from a refused one; send WWW-Authenticate: Bearer`,
        'header:www-authenticate',
      );
  }
  await expectInvalidRejected(context, operationId, request);
  if (operation.method === 'POST' && request.body !== undefined) await expectNothingCreated(context, request.body);
}

/** True when a 401 challenges for the bearer scheme: `WWW-Authenticate: Bearer`, alone or among other challenges, any parameters. */
function bearerChallenge(exchange: Exchange): boolean {
  return /(^|,)\s*bearer(\s|,|$)/i.test(exchange.headers.get('www-authenticate') ?? '');
}

/** The challenge a 401 carried, for a report. */
function challengeOf(exchange: Exchange): string {
  const value = exchange.headers.get('www-authenticate');
  return value === null ? 'no WWW-Authenticate' : `WWW-Authenticate: ${value}`;
}

async function expectInvalidRejected(context: CheckContext, operationId: string, valid: RequestParts): Promise<void> {
  const invalid = await context.call(operationId, { ...invalidRequest(context, operationId, valid), authorization: null });
  // Both a 401 and a 400 fit a request that lacks the key and breaks the input: the interface
  // does not order the two checks, and typed frameworks often judge the input first.
  if (invalid.status === 400)
    context.advise(`${operationId} answered 400 to an invalid request without a credential: it judges the input before the credential`);
  else if (invalid.status !== 401)
    context.failStatus(`${operationId} answered ${invalid.status} to an invalid request without a credential`, invalid, '401 (or 400)');
}

/** A rejected create must create nothing: a deployment that stores first and checks the key after would. */
async function expectNothingCreated(context: CheckContext, body: string): Promise<void> {
  const field = runFieldsOf(context.contract.model).name;
  const name = nameIn(body, field);
  const { exchange, pets } = await listPage(context);
  const stored = pets.find((pet) => pet[field] === name);
  if (stored)
    context.fail(`a ${context.kind('create')} refused with 401 still created the pet ${idOf(context, stored)} (named "${name}")`, exchange, {
      expected: 'nothing created',
      actual: `id ${idOf(context, stored)}`,
    });
}

/** The name (in `field`) of a create's body this run wrote. */
function nameIn(body: string, field: string): string | undefined {
  const parsed: unknown = JSON.parse(body);
  const name: unknown = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, field) : undefined;
  return typeof name === 'string' ? name : undefined;
}

async function expectAccepted(context: CheckContext, operation: Operation): Promise<void> {
  const { operationId } = operation;
  const exchange = await context.call(operationId, await validRequest(context, operationId));
  // A deployment may reject a category it does not know; that says nothing about the key.
  if (operationId === context.kind('create') && exchange.status === 400)
    context.skip(`the deployment refused the NewPet (400), so the key cannot be judged on ${operationId}`);
  if (exchange.status === 401 || exchange.status === 403) context.failStatus(`${operationId} refused the valid key with ${exchange.status}`, exchange, '2xx');
  else if (exchange.status >= 300) context.failStatus(`${operationId} answered ${exchange.status} to a valid request`, exchange, '2xx');
}

/** True when an answer is the API's: JSON with a success status, or pets. A web page (a single-page app's fallback) is not. */
function answersAsTheApi(context: CheckContext, exchange: Exchange): boolean {
  const data = isPet(context, exchange.json) || (Array.isArray(exchange.json) && exchange.json.length > 0);
  return data || (exchange.status >= 200 && exchange.status < 300 && exchange.json !== undefined);
}

async function expectNoDataOnPathVariants(context: CheckContext, operation: Operation): Promise<void> {
  const { params, body } = await validRequest(context, operation.operationId);
  const path = filledPath(operation.path, params ?? {});
  const basePath = new URL(context.state.client.baseUrl).pathname.replace(/\/+$/, '');
  const variants = [...pathVariants(path), ...basePathVariants(basePath, path)];
  let crashed = 0;
  for (const variant of variants) {
    if (isWrite(operation.method)) context.reserveWrite();
    const shown = variant.fromOrigin ? variant.path : `${basePath}${variant.path}`;
    // Sent around `call`: the spec documents no response for these paths, only that they serve nothing.
    const exchange = await context.state.client.send({
      method: operation.method,
      path: variant.path,
      fromOrigin: variant.fromOrigin,
      authorization: null,
      ...(body === undefined ? {} : { body }),
    });
    // The interface says nothing of these paths, so a server error on one is no contract failure; but it tells nothing either.
    if (exchange.status >= 500) {
      crashed++;
      context.warn(`${operation.method} ${shown} without a credential answered ${exchange.status}`);
      continue;
    }
    // Any refusal is right (401, 404, a redirect), and so is a web page: only the API answering without the key is wrong.
    if (answersAsTheApi(context, exchange))
      context.failStatus(
        `${operation.method} ${shown} without a credential answered ${exchange.status}${exchange.status < 300 ? ' as the API' : ' with data'}: this spelling of ${basePath}${path} reaches ${operation.operationId} but skips the key; require the key on every path the API answers (authenticate after the router normalizes the path), or answer 404 to this spelling`,
        exchange,
        'no data: 401, 404 or another refusal',
      );
  }
  if (crashed === variants.length) context.skip('every variant of the path answered a server error, so whether one serves data cannot be told');
}

/** One auth check, made for each secured operation: its id's last part, its title, and what it does. */
interface AuthCheck {
  readonly name: string;
  title(operationId: string): string;
  run(context: CheckContext, operation: Operation): Promise<void>;
}

const AUTH_CHECKS: readonly AuthCheck[] = [
  {
    name: 'refused',
    title: (operationId) =>
      `${operationId} answers 401 to a missing credential, a wrong key, a key without Bearer, Basic, an empty token, and near misses of the key (case changed, a suffix, a prefix, under Basic)`,
    run: expectRejected,
  },
  { name: 'accepted', title: (operationId) => `${operationId} accepts the valid key`, run: expectAccepted },
  {
    name: 'path-variants',
    title: (operationId) =>
      `${operationId} serves no data without a credential on other spellings of its path (a trailing slash, a doubled slash, upper case, an encoded letter or slash, the base path in upper case or left out)`,
    run: expectNoDataOnPathVariants,
  },
];

/** For every secured operation: each rejected credential gets 401, the valid key is accepted, and no path variant serves data without a credential. */
export function authChecks(operations: readonly Operation[]): Check[] {
  return operations
    .filter((operation) => operation.secured)
    .flatMap((operation) =>
      AUTH_CHECKS.map(
        (check): Check => ({
          id: `auth.${operation.operationId}.${check.name}`,
          title: check.title(operation.operationId),
          operationId: operation.operationId,
          writes: isWrite(operation.method),
          run: (context) => check.run(context, operation),
        }),
      ),
    );
}
