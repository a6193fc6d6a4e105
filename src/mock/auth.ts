/**
 * The key the mock accepts when none is configured.
 * @example
 * fetch(`${url}/pets`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } });
 */
export const DEFAULT_API_KEY = 'petstore-dev-key';

const BEARER = /^bearer(?:[ \t]+(\S*))?[ \t]*$/i;

export type AuthProblem = 'missing' | 'scheme' | 'empty' | 'key';

/**
 * Compares in time that depends only on the accepted key's length, never on how much of the
 * offered token matches, so response times do not reveal the key.
 */
function constantTimeEqual(offered: string, accepted: string): boolean {
  let difference = offered.length ^ accepted.length;
  for (let i = 0; i < accepted.length; i++) difference |= accepted.charCodeAt(i) ^ (offered.charCodeAt(i) | 0);
  return difference === 0;
}

/**
 * Checks an `Authorization` header against the accepted keys: the index of the key it carries, or
 * what is wrong with it. Every key is compared, so the time taken does not tell which one matched.
 */
export function checkBearer(authorization: string | undefined, acceptedKeys: readonly string[]): AuthProblem | number {
  if (authorization === undefined || authorization.trim() === '') return 'missing';
  const match = BEARER.exec(authorization);
  if (match === null) return 'scheme';
  const token = match[1];
  if (!token) return 'empty';
  let matched = -1;
  for (let i = 0; i < acceptedKeys.length; i++) matched = constantTimeEqual(token, acceptedKeys[i] as string) ? i : matched;
  return matched === -1 ? 'key' : matched;
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

/** What a label may be: a short word, so that `label=key` reads unambiguously on a command line. */
export const KEY_LABEL = /^[A-Za-z][\w.-]{0,31}$/;

/**
 * A `--api-key` value: `label=key` when the part before the first `=` is a label and a key follows
 * that does not start with `=`; otherwise the whole value is the key, so base64 keys ending in `=`
 * stay whole. A key that itself reads `word=rest` is given a label: `ci=word=rest`.
 * @example
 * parseApiKey('ci=s3cret')   // { label: 'ci', key: 's3cret' }
 * parseApiKey('dGVzdA==')    // 'dGVzdA=='
 */
export function parseApiKey(value: string): string | LabelledApiKey {
  const split = value.indexOf('=');
  const label = value.slice(0, split);
  const key = value.slice(split + 1);
  return split > 0 && KEY_LABEL.test(label) && key !== '' && !key.startsWith('=') ? { label, key } : value;
}

/** The headers of every 401: the scheme the client must use. */
export const UNAUTHORIZED_HEADERS: Readonly<Record<string, string>> = { 'www-authenticate': 'Bearer' };

export const AUTH_MESSAGES: Readonly<Record<AuthProblem, string>> = {
  missing: 'Missing credential: send the API key as `Authorization: Bearer <API_KEY>`.',
  empty: 'The bearer token is empty: send `Authorization: Bearer <API_KEY>`.',
  scheme: 'The Authorization header must use the Bearer scheme: `Authorization: Bearer <API_KEY>`.',
  key: 'The bearer token is not an accepted API key. Send a key the mock was started with (--api-key or PETSTORE_API_KEY).',
};
