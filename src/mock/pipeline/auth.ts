import { apiKeyProblem, isWhitespace } from '../../http/header-value.js';
import { errorResponse, type PreparedResponse, prepared } from '../core/messages.js';

export type AuthProblem = 'missing' | 'scheme' | 'empty' | 'key';

const isSpaceOrTab = (code: number) => code === 0x20 || code === 0x09;

const BEARER = 'bearer';

/**
 * Where the token of `Bearer <token>` lies in `header` (the scheme in any case; spaces or tabs
 * around the token), as `[start, end]`; `undefined` when the header is not of that form. The format
 * is `/^bearer(?:[ \t]+(\S*))?[ \t]*$/i`, parsed by hand (auth.test.ts holds the two to the same results).
 */
function tokenBounds(header: string): [start: number, end: number] | undefined {
  if (header.length < BEARER.length) return undefined;
  for (let i = 0; i < BEARER.length; i++) if ((header.charCodeAt(i) | 0x20) !== BEARER.charCodeAt(i)) return undefined;
  let end = header.length;
  while (end > BEARER.length && isSpaceOrTab(header.charCodeAt(end - 1))) end--;
  let start = BEARER.length;
  if (start === end) return [end, end];
  if (!isSpaceOrTab(header.charCodeAt(start))) return undefined;
  while (isSpaceOrTab(header.charCodeAt(start))) start++;
  for (let i = start; i < end; i++) if (isWhitespace(header.charCodeAt(i))) return undefined;
  return [start, end];
}

/** Why a header that holds no accepted key is rejected. */
function rejection(authorization: string): AuthProblem {
  let blank = true;
  for (let i = 0; i < authorization.length && blank; i++) blank = isWhitespace(authorization.charCodeAt(i));
  if (blank) return 'missing';
  const bounds = tokenBounds(authorization);
  if (bounds === undefined) return 'scheme';
  return bounds[0] === bounds[1] ? 'empty' : 'key';
}

/**
 * The check of `Authorization` headers against `acceptedKeys` (none of them empty or with whitespace:
 * see `apiKeyProblem`): the index of the key a header holds, or what is wrong with it.
 *
 * Every key is compared in full whatever the token, so the time taken tells neither which key matched
 * nor how much of one did. A header that holds a key is parsed once, in place, allocating nothing:
 * this runs on every request. One that does not is parsed again, to say why.
 * @example
 * const check = bearerCheck(['alpha', 'beta']);
 * check('Bearer beta'); // 1
 * check('Basic YWxwaGE='); // 'scheme'
 */
export function bearerCheck(acceptedKeys: readonly string[]): (authorization: string | undefined) => AuthProblem | number {
  const keys = acceptedKeys.map((key) => {
    const problem = apiKeyProblem(key);
    if (problem !== undefined) throw new TypeError(problem);
    return Uint16Array.from({ length: key.length }, (_, i) => key.charCodeAt(i));
  });
  return (authorization) => {
    if (authorization === undefined) return 'missing';
    const length = authorization.length;
    let scheme = length > BEARER.length;
    for (let i = 0; i < BEARER.length && scheme; i++) scheme = (authorization.charCodeAt(i) | 0x20) === BEARER.charCodeAt(i);
    if (!scheme || !isSpaceOrTab(authorization.charCodeAt(BEARER.length))) return rejection(authorization);
    let start = BEARER.length + 1;
    while (start < length && isSpaceOrTab(authorization.charCodeAt(start))) start++;
    let end = length;
    while (end > start && isSpaceOrTab(authorization.charCodeAt(end - 1))) end--;
    // A token equal to a key has no whitespace, as no key has: matching it needs no other look at the token.
    let matched = -1;
    for (let k = 0; k < keys.length; k++) {
      // Both indexes stay below their array's length, so neither element is undefined: the casts say
      // so without a check in this loop, which runs over every key on every request.
      const key = keys[k] as Uint16Array;
      let difference = (end - start) ^ key.length;
      for (let i = 0; i < key.length; i++) difference |= (key[i] as number) ^ (authorization.charCodeAt(start + i) | 0);
      if (difference === 0) matched = k;
    }
    return matched === -1 ? rejection(authorization) : matched;
  };
}

/**
 * An accepted key with the label the request log shows in its place.
 * @example
 * const ci: LabelledApiKey = { label: 'ci', key: process.env.CI_KEY ?? 'ci-secret' };
 */
export interface LabelledApiKey {
  /** A word (letters, digits, `_`, `.`, `-`; at most 32, starting with a letter): `ci`, `qa-team`. */
  readonly label: string;
  readonly key: string;
}

/** What a label may be: a short word, so that `label:key` reads unambiguously on a command line. */
export const KEY_LABEL = /^[A-Za-z][\w.-]{0,31}$/;

/** Padded base64 or base64url: `=` only at its end, and a length that is a multiple of 4. */
const PADDED_BASE64 = /^[A-Za-z0-9+/_-]+={1,2}$/;

/** `value` split at its first `separator` when what comes before is a label; the key may be empty. */
function labelledBy(value: string, separator: ':' | '='): LabelledApiKey | undefined {
  const at = value.indexOf(separator);
  const label = value.slice(0, at);
  return at > 0 && KEY_LABEL.test(label) ? { label, key: value.slice(at + 1) } : undefined;
}

/**
 * A `--api-key` value: `label:key` when the part before the first `:` is a label (no base64, base64url
 * or hex key has a `:`). The older `label=key` is kept where a base64 key cannot read that way: a key
 * must follow the `=` and not start with `=`, since a base64 key's `=` only pads its end. A value that
 * is padded base64 is always the key as it is. A label with nothing after it (`ci:`, or `ci=`, which no
 * base64 key is) comes back with an empty key: the variable meant to hold the key was unset.
 * @example
 * parseApiKey('ci:s3cret')   // { label: 'ci', key: 's3cret' }
 * parseApiKey('ci=s3cret')   // { label: 'ci', key: 's3cret' }
 * parseApiKey('Zm9vYmE=')    // 'Zm9vYmE='
 * parseApiKey('ci:')         // { label: 'ci', key: '' }
 */
export function parseApiKey(value: string): string | LabelledApiKey {
  const colon = labelledBy(value, ':');
  if (colon !== undefined) return colon;
  if (value.length % 4 === 0 && PADDED_BASE64.test(value)) return value;
  const equals = labelledBy(value, '=');
  return equals !== undefined && !equals.key.startsWith('=') ? equals : value;
}

/**
 * Said of a key given as a label and nothing after it (`ci:` from `ci:$CI_KEY` with the variable unset),
 * which the CLI and the code API refuse; it names neither the label nor the value: what looks like a label may be a key.
 */
export const LABEL_WITHOUT_KEY = 'It is a label with no key after it: is the variable that should hold the key set? Give a key, as label:<key>.';

/** The headers of every 401: the scheme the client must use. */
export const UNAUTHORIZED_HEADERS: Readonly<Record<string, string>> = { 'www-authenticate': 'Bearer' };

export const AUTH_MESSAGES: Readonly<Record<AuthProblem, string>> = {
  missing: 'Missing credential: send the API key as `Authorization: Bearer <API_KEY>`.',
  empty: 'The bearer token is empty: send `Authorization: Bearer <API_KEY>`.',
  scheme: 'The Authorization header must use the Bearer scheme: `Authorization: Bearer <API_KEY>`.',
  key: 'The bearer token is not an accepted API key. Send a key the mock was started with (--api-key or PETSTORE_API_KEY).',
};

const unauthorized = (problem: AuthProblem): PreparedResponse => prepared(errorResponse('unauthorized', AUTH_MESSAGES[problem], UNAUTHORIZED_HEADERS));

/** The 401 of each way a credential can be wrong, made once: the pipeline and the proxy respond with these. */
export const UNAUTHORIZED: { readonly [P in AuthProblem]: PreparedResponse } = {
  missing: unauthorized('missing'),
  scheme: unauthorized('scheme'),
  empty: unauthorized('empty'),
  key: unauthorized('key'),
};
