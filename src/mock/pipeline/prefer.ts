/**
 * Per-request control of the mock, by the `Prefer` header (RFC 7240) or its `__name` query twins for
 * tools that cannot set headers: `code=404` responds with that status and a well-formed Error and
 * leaves the state alone, `delay=300` waits before responding, `auth=expired` responds 401 as to an
 * expired token, `fault=reset` breaks the connection (src/mock/core/faults.ts), `trickle=5000` says
 * how slowly `fault=slow` sends the body.
 */

import { SpecError } from '../../errors.js';
import { openapi } from '../../generated/openapi.js';
import { type OpenApiDocument, operationsOf } from '../../openapi/document.js';
import { ERROR_CODE_BY_STATUS } from '../../openapi/facts.js';
import { breaksBeforeResponse, FAULT_KINDS, type FaultKind, isFaultKind, MAX_TRICKLE_MS } from '../core/faults.js';
import { errorResponse, type MockResponse } from '../core/messages.js';
import { UNAUTHORIZED_HEADERS } from './auth.js';

/** The longest `delay=` a request may ask for, in milliseconds. */
const MAX_PREFERRED_DELAY = 60_000;

/** What one request asks for. */
export interface Preferences {
  readonly code?: number;
  readonly delay?: number;
  readonly auth?: 'expired';
  readonly fault?: FaultKind;
  /** For `fault=slow`: milliseconds to trickle the body over. */
  readonly trickle?: number;
}

interface Token {
  readonly name: string;
  readonly value: string;
  /**
   * Which preference it is, for messages: `Prefer: code=…` or `__code=…`. Never its value, which a 400
   * would echo to whoever sent it, through every mode and the proxy: a key pasted there (`fault=<key>`)
   * came back in clear. A message names what the value may be instead.
   */
  readonly said: string;
}

/** Error statuses each operation of a spec documents: the only ones a client may force. Made once per spec. */
const forcibleBySpec = new WeakMap<OpenApiDocument, ReadonlyMap<string, readonly number[]>>();

function forcibleOf(doc: OpenApiDocument): ReadonlyMap<string, readonly number[]> {
  let forcible = forcibleBySpec.get(doc);
  if (forcible === undefined) {
    forcible = new Map(
      operationsOf(doc).map(({ operationId, operation }) => [
        operationId,
        Object.keys(operation.responses)
          .map(Number)
          .filter((status) => status >= 400),
      ]),
    );
    forcibleBySpec.set(doc, forcible);
  }
  return forcible;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/**
 * The preferences of a `Prefer` header, then those of `__name` query parameters. Commas separate
 * preferences as RFC 7240 says; semicolons do too here, since `code=404; delay=300` is how people write it.
 */
function tokensOf(prefer: string | undefined, query: string): Token[] {
  const tokens: Token[] = [];
  for (const part of prefer?.split(/[,;]/) ?? []) {
    const equals = part.indexOf('=');
    const name = (equals === -1 ? part : part.slice(0, equals)).trim().toLowerCase();
    const value = equals === -1 ? '' : unquote(part.slice(equals + 1).trim());
    if (name !== '') tokens.push({ name, value, said: `Prefer: ${name}=…` });
  }
  if (query.includes('__')) {
    for (const [key, value] of new URLSearchParams(query)) {
      if (key.startsWith('__')) tokens.push({ name: key.slice(2).toLowerCase(), value, said: `${key.toLowerCase()}=…` });
    }
  }
  return tokens;
}

/** A preference's value, or what is wrong with it. */
type Parsed<T> = { readonly value: T } | { readonly problem: string };

function parseCode(token: Token, operationId: string, doc: OpenApiDocument): Parsed<number> {
  const forcible = forcibleOf(doc).get(operationId) ?? [];
  const choices = `${operationId} can be made to answer ${forcible.join(', ')}`;
  if (!/^\d{3}$/.test(token.value)) return { problem: `${token.said}: code must be an HTTP status such as 404; ${choices}.` };
  const status = Number(token.value);
  if (status < 400)
    return {
      problem: `${token.said}: only an error status can be forced; a ${status} comes from the mock's state, so send the request without code=. ${choices}.`,
    };
  if (!forcible.includes(status)) return { problem: `${token.said}: ${operationId} does not document ${status} in spec/openapi.yaml; ${choices}.` };
  return { value: status };
}

function parseMilliseconds(token: Token, max: number): Parsed<number> {
  const ms = Number(token.value);
  return /^\d+$/.test(token.value) && ms <= max
    ? { value: ms }
    : { problem: `${token.said}: ${token.name} must be a whole number of milliseconds from 0 to ${max}.` };
}

function parseFault(token: Token): Parsed<FaultKind> {
  const kind = token.value.toLowerCase();
  return isFaultKind(kind)
    ? { value: kind }
    : { problem: `${token.said}: the network faults are ${FAULT_KINDS.join(', ')} (docs/mock-faults.md says what a client sees of each).` };
}

function parseAuth(token: Token): Parsed<'expired'> {
  return token.value.toLowerCase() === 'expired'
    ? { value: 'expired' }
    : { problem: `${token.said}: the one auth preference is auth=expired (a 401 as for an expired token).` };
}

const PARSERS: { readonly [N in keyof Chosen]-?: (token: Token, operationId: string, doc: OpenApiDocument) => Parsed<NonNullable<Chosen[N]>> } = {
  code: parseCode,
  delay: (token) => parseMilliseconds(token, MAX_PREFERRED_DELAY),
  auth: parseAuth,
  fault: parseFault,
  trickle: (token) => parseMilliseconds(token, MAX_TRICKLE_MS),
};

type Chosen = { -readonly [N in keyof Preferences]: Preferences[N] };

function isKnown(name: string): name is keyof Chosen {
  return Object.hasOwn(PARSERS, name);
}

/**
 * What a request to `operationId` prefers: `undefined` when it prefers nothing this mock knows (other
 * preferences are ignored, as RFC 7240 asks), the preferences, or a 400 saying what is wrong with
 * one. When a preference comes twice, the first counts (RFC 7240): the header before the query.
 * @example
 * parsePreferences('code=404, delay=300', '', 'getPet'); // { code: 404, delay: 300 }
 * parsePreferences(undefined, '__code=503', 'listPets'); // { code: 503 }
 */
export function parsePreferences(
  prefer: string | undefined,
  query: string,
  operationId: string,
  doc: OpenApiDocument = openapi,
): Preferences | { readonly error: MockResponse } | undefined {
  if (prefer === undefined && !query.includes('__')) return undefined;
  const chosen: Chosen = {};
  let any = false;
  for (const token of tokensOf(prefer, query)) {
    if (!isKnown(token.name) || chosen[token.name] !== undefined) continue;
    const parsed = PARSERS[token.name](token, operationId, doc);
    if ('problem' in parsed) return { error: errorResponse('bad_request', parsed.problem) };
    Object.assign(chosen, { [token.name]: parsed.value });
    any = true;
  }
  return any ? chosen : undefined;
}

/**
 * The `Preference-Applied` header for what the mock did of `preferences`: `code=` gives way to `auth=expired`.
 * @example
 * appliedPreferences({ code: 404, delay: 300 }); // 'code=404, delay=300'
 */
export function appliedPreferences(preferences: Preferences): string {
  const { auth, code, delay, fault, trickle } = preferences;
  const applied = auth === undefined ? [code === undefined ? '' : `code=${code}`] : [`auth=${auth}`];
  if (delay !== undefined) applied.push(`delay=${delay}`);
  if (fault !== undefined) applied.push(`fault=${fault}`);
  if (fault === 'slow' && trickle !== undefined) applied.push(`trickle=${trickle}`);
  return applied.filter(Boolean).join(', ');
}

/**
 * The response a request forces, if it forces one: `auth=expired` before `code=`. It is made without
 * reading or changing any state.
 * @example
 * forcedResponse({ code: 503 }, 'listPets'); // 503 { code: 'service_unavailable', ... }
 */
export function forcedResponse(preferences: Preferences, operationId: string): MockResponse | undefined {
  if (preferences.fault !== undefined && breaksBeforeResponse(preferences.fault)) return brokenConnection(preferences.fault, operationId);
  if (preferences.auth === 'expired') {
    return errorResponse('unauthorized', 'The bearer token has expired (Prefer: auth=expired): get a new one and retry.', {
      'www-authenticate': 'Bearer error="invalid_token", error_description="The access token expired"',
    });
  }
  const status = preferences.code;
  if (status === undefined) return undefined;
  const code = ERROR_CODE_BY_STATUS.get(status);
  if (code === undefined) throw new SpecError(`spec/openapi.yaml documents ${status} on ${operationId} but x-error-codes names no code for it`);
  return errorResponse(
    code,
    `${operationId} answered ${status} because the request asked for it (code=${status}); the mock's state was neither read nor changed.`,
    // The headers every response of an operation has (getPet's deprecation) are added by the pipeline, as to every response.
    status === 401 ? UNAUTHORIZED_HEADERS : undefined,
  );
}

/**
 * What stands for a response the connection breaks before: hosts never write it (they reset or close
 * the connection), but a caller of `respond` in process sees it, with its `fault`, as a 503.
 */
export function brokenConnection(kind: FaultKind, operationId: string): MockResponse {
  return errorResponse(
    'service_unavailable',
    `${operationId} was not served: the request asked for a network fault (fault=${kind}), which this host cannot make, so it responds 503; the mock's state was neither read nor changed.`,
  );
}
