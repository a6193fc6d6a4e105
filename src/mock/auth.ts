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
 * Checks an `Authorization` header against the accepted keys; `undefined` when it is valid.
 * Every key is compared, so the time taken does not tell which one matched.
 */
export function checkBearer(authorization: string | undefined, acceptedKeys: readonly string[]): AuthProblem | undefined {
  if (authorization === undefined || authorization.trim() === '') return 'missing';
  const match = BEARER.exec(authorization);
  if (match === null) return 'scheme';
  const token = match[1];
  if (!token) return 'empty';
  let valid = false;
  for (const key of acceptedKeys) valid = constantTimeEqual(token, key) || valid;
  return valid ? undefined : 'key';
}

export const AUTH_MESSAGES: Readonly<Record<AuthProblem, string>> = {
  missing: 'Missing credential: send the API key as `Authorization: Bearer <API_KEY>`.',
  empty: 'The bearer token is empty: send `Authorization: Bearer <API_KEY>`.',
  scheme: 'The Authorization header must use the Bearer scheme: `Authorization: Bearer <API_KEY>`.',
  key: 'The bearer token is not an accepted API key. Send a key the mock was started with (--api-key or PETSTORE_API_KEY).',
};
