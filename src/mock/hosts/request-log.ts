/**
 * The request log's view of a request-target, without the keys a client put in it. A query name or
 * value that holds an accepted key, in any encoding, becomes `***`; so does a path segment equal to a
 * key where the API takes a value (`{petId}`), or in a path no route knows, but never a word of the
 * API's own paths: with `--api-key pets`, `GET /v1/pets?limit=5` is logged as it is, and
 * `GET /v1/pets/pets` as `GET /v1/pets/***`.
 */
import { openapi } from '../../generated/openapi.js';
import { ADMIN_PREFIX } from '../admin/endpoints.js';
import { matchRoute, routesOf } from '../pipeline/routes.js';

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
  const routes = routesOf(openapi);
  const words = new Set([...basePath.split('/'), ...ADMIN_PREFIX.split('/')]);
  for (const route of routes) for (const segment of route.segments) if (!segment.startsWith('{')) words.add(segment);
  const isKey = (segment: string) => keys.includes(decoded(segment, false));
  /** The path with each segment that holds a value, and a key, replaced. */
  const pathShown = (path: string) => {
    const segments = path.split('/');
    const route = path.startsWith(`${basePath}/`) ? matchRoute(routes, path.slice(basePath.length))?.route : undefined;
    // The route's segments end the path: its words are never keys, its values may be.
    const offset = segments.length - (route?.segments.length ?? 0);
    const holdsValue = (segment: string, i: number) =>
      route ? i >= offset && route.segments[i - offset]?.startsWith('{') === true : !words.has(decoded(segment, false));
    return segments.map((segment, i) => (holdsValue(segment, i) && isKey(segment) ? '***' : segment)).join('/');
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
    const path = pathShown(mark === -1 ? target : target.slice(0, mark));
    return mark === -1
      ? path
      : `${path}?${target
          .slice(mark + 1)
          .split('&')
          .map(part)
          .join('&')}`;
  };
}
