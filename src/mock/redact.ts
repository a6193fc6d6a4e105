/**
 * The request log's view of a request-target, without the keys a client put in it. A query name or
 * value that holds an accepted key, in any encoding, becomes `***`; so does a path segment equal to a
 * key, unless it is a word of the API's own paths: with `--api-key pets`, `GET /v1/pets?limit=5` is
 * logged as it is, and `GET /v1/pets/pets` as `GET /v1/pets/***`.
 */
import { openapi } from '../generated/openapi.js';
import { ADMIN_PREFIX } from './admin.js';
import { routesOf } from './routes.js';

/** `value` percent-decoded (`+` as a space when `plus`) until it stops changing, so `%252F` is read as `/`; malformed escapes are left as they are. */
function decoded(value: string, plus: boolean): string {
  let text = plus ? value.replaceAll('+', ' ') : value;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(text);
    } catch {
      return text;
    }
    if (next === text) return text;
    text = next;
  }
  return text;
}

/**
 * The function the request log passes each target through, for a mock that accepts `keys` under `basePath`.
 * @example
 * const redact = targetRedactor(['s3cr+t'], '/v1');
 * redact('/v1/pets?token=s3cr%2Bt&limit=5'); // '/v1/pets?token=***&limit=5'
 */
export function targetRedactor(keys: readonly string[], basePath: string): (target: string) => string {
  const words = new Set([...basePath.split('/'), ...ADMIN_PREFIX.split('/')]);
  for (const route of routesOf(openapi)) for (const segment of route.segments) if (!segment.startsWith('{')) words.add(segment);
  const isKey = (segment: string) => {
    const plain = decoded(segment, false);
    return !words.has(plain) && keys.includes(plain);
  };
  const holdsKey = (text: string) => {
    const plain = decoded(text, true);
    return keys.some((key) => text.includes(key) || plain.includes(key));
  };
  const part = (pair: string) => {
    const equals = pair.indexOf('=');
    if (equals === -1) return holdsKey(pair) ? '***' : pair;
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    return `${holdsKey(name) ? '***' : name}=${holdsKey(value) ? '***' : value}`;
  };
  return (target) => {
    const mark = target.indexOf('?');
    const path = mark === -1 ? target : target.slice(0, mark);
    const shownPath = path
      .split('/')
      .map((segment) => (isKey(segment) ? '***' : segment))
      .join('/');
    return mark === -1
      ? shownPath
      : `${shownPath}?${target
          .slice(mark + 1)
          .split('&')
          .map(part)
          .join('&')}`;
  };
}
