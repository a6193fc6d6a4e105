/**
 * The request log's view of a request, without the keys a client put in it. Wherever an accepted key
 * stands in the request-target (a query name or value, a path segment or part of one, the userinfo of
 * an absolute-form target, across `/`, `&` or `=`), in any form the package's one redactor finds
 * (src/redact/: percent-encoded once, twice or more, `+` for a space, JSON escapes, base64 at any
 * offset, its last character left off), the part that holds it becomes `***`; the userinfo of an
 * absolute-form target always does. A word of the API's own paths is never hidden: with `--api-key
 * pets`, `GET /v1/pets?limit=5` is logged as it is, and `GET /v1/pets/pets` as `GET /v1/pets/***`.
 * The log's detail (`key=ci session=NAME`) is held to the same rule.
 */
import { openapi } from '../../generated/openapi.js';
import { percentBytes } from '../../redact/decoded-forms.js';
import { replaceEach, unitsReplaced } from '../../redact/each-match.js';
import { base64Windows } from '../../redact/key-patterns.js';
import { KeyRedactor } from '../../redact/key-redactor.js';
import { ADMIN_PREFIX } from '../admin/endpoints.js';
import { matchRoute, routesOf } from './routes.js';

const utf8 = new TextDecoder();

/**
 * Each run of `%XX` escapes decoded as UTF-8; a malformed escape stays as it is, and hides no key that follows it.
 * Match by match and in place (src/redact): a 4 MB body of `%41` split into its escapes made a string of each.
 */
function percentDecoded(text: string): string {
  return replaceEach(text, /(?:%[0-9A-Fa-f]{2})+/g, ([run]) => utf8.decode(percentBytes(run)));
}

/** `value` percent-decoded (`+` as a space when `plus`) until it stops changing, so `%252F` is read as `/`. */
function decoded(value: string, plus: boolean): string {
  let text = plus ? unitsReplaced(value, (code) => (code === 0x2b ? 0x20 : code)) : value;
  for (let round = 0; round < 3; round++) {
    const next = percentDecoded(text);
    if (next === text) return text;
    text = next;
  }
  return text;
}

/** Whether `text`, as it is or percent-decoded (as often as it was encoded), holds a key in a form `redactor` finds. */
function holderOf(redactor: KeyRedactor): (text: string) => boolean {
  // Each distinct text once: most have no escape and no `+`, and a body of megabytes is read once, not three times.
  return (text) => {
    if (redactor.holds(text)) return true;
    const once = decoded(text, false);
    if (once !== text && redactor.holds(once)) return true;
    const plus = decoded(text, true);
    return plus !== text && plus !== once && redactor.holds(plus);
  };
}

/** The most separators (`/`, `?`, `&`, `=`) a key, or its base64, spans: a key holding them is cut into that many pieces and one. */
function separatorsIn(keys: readonly string[]): number {
  return Math.max(0, ...keys.flatMap((key) => [key, ...base64Windows(key)]).map((form) => form.split(/[/?&=]/).length - 1));
}

/** A target cut at `/`, `?`, `&` and `=`: the pieces, each with the separator that follows it (`''` for the last). */
interface Pieces {
  readonly text: string[];
  readonly after: string[];
  /** Pieces that are words of the API's paths: never hidden, even equal to a key. */
  readonly kept: boolean[];
}

/** The text of pieces `from` to `to`, with the separators between them. */
function joined(pieces: Pieces, from: number, to: number): string {
  let text = '';
  for (let i = from; i <= to; i++) text += i === to ? pieces.text[i] : `${pieces.text[i]}${pieces.after[i]}`;
  return text;
}

/**
 * Marks the pieces to hide: those of each shortest run of pieces that holds a key (a key with `/` or
 * `=` in it spans several), all but the API's words. A run is shortest when neither of the runs one
 * piece shorter holds the key, so a piece next to a key is not hidden with it.
 */
function hiddenPieces(pieces: Pieces, holds: (text: string) => boolean, widest: number): boolean[] {
  const hidden = pieces.text.map(() => false);
  for (let width = 1; width <= widest; width++) {
    for (let from = 0; from + width <= pieces.text.length; from++) {
      const to = from + width - 1;
      if (!holds(joined(pieces, from, to))) continue;
      if (width > 1 && (holds(joined(pieces, from + 1, to)) || holds(joined(pieces, from, to - 1)))) continue;
      for (let i = from; i <= to; i++) if (pieces.kept[i] !== true) hidden[i] = true;
    }
  }
  return hidden;
}

/**
 * `target` cut into pieces, keeping separators: its path at `/`, `&` and `=` (`1;k=KEY`), its query at
 * `&` and `=`. `isWord(index)` says which path segments are words of the API.
 */
function piecesOf(target: string, isWord: (index: number) => boolean): Pieces {
  const mark = target.indexOf('?');
  const path = (mark === -1 ? target : target.slice(0, mark)).split(/([/&=])/);
  const query = mark === -1 ? [] : target.slice(mark + 1).split(/([&=])/);
  const pieces: Pieces = { text: [], after: [], kept: [] };
  let segment = 0;
  for (let i = 0; i < path.length; i += 2) {
    // A path segment that is a word holds no separator, so it is one piece.
    const separator = path[i + 1] ?? (mark === -1 ? '' : '?');
    pieces.text.push(path[i] ?? '');
    pieces.after.push(separator);
    pieces.kept.push(isWord(segment));
    if (separator === '/') segment++;
  }
  for (let i = 0; i < query.length; i += 2) {
    pieces.text.push(query[i] ?? '');
    pieces.after.push(query[i + 1] ?? '');
    pieces.kept.push(false);
  }
  return pieces;
}

/**
 * The `scheme://authority` of an absolute-form target as the log shows it, and the rest of the target.
 * Userinfo is a credential whatever it holds: always hidden; so is an authority that holds a key.
 */
function splitOrigin(target: string, holds: (text: string) => boolean): [origin: string, rest: string] {
  // Userinfo ends at the last `@` before the query, not at the first `/`: Node passes on a target whose
  // userinfo holds a raw `/` (`http://u:k/ey@host/`), and the key must not hide on both sides of it.
  const origin = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^?#]*@)?[^/?#]*/.exec(target)?.[0];
  if (origin === undefined) return ['', target];
  const authority = origin.indexOf('//') + 2;
  const at = origin.lastIndexOf('@');
  const host = origin.slice(at === -1 ? authority : at + 1);
  const shown = holds(host) ? '***' : at === -1 ? host : `***@${host}`;
  return [`${origin.slice(0, authority)}${shown}`, target.slice(origin.length)];
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
  const holds = holderOf(new KeyRedactor(keys));
  const widest = 1 + separatorsIn(keys);
  /** Which segments of `path` are words: a known route's own words, or anywhere else any word of the API. */
  const wordsOf = (path: string) => {
    const segments = path.split('/');
    const route = path.startsWith(`${basePath}/`) ? matchRoute(routes, path.slice(basePath.length))?.route : undefined;
    // The route's segments end the path: its words are never keys, its values may be.
    const offset = segments.length - (route?.segments.length ?? 0);
    return (i: number) => (route ? i < offset || route.segments[i - offset]?.startsWith('{') === false : words.has(decoded(segments[i] ?? '', false)));
  };
  return (target) => {
    // A piece holds a key only if the whole target does; most hold none, and have no userinfo to hide.
    if (!target.includes('@') && !holds(target)) return target;
    const [origin, rest] = splitOrigin(target, holds);
    const mark = rest.indexOf('?');
    const pieces = piecesOf(rest, wordsOf(mark === -1 ? rest : rest.slice(0, mark)));
    const hidden = hiddenPieces(pieces, holds, widest);
    return origin + pieces.text.map((text, i) => `${hidden[i] ? '***' : text}${pieces.after[i]}`).join('');
  };
}

/**
 * The function the request log passes its detail through (`key=ci session=worker-1`): a value that
 * holds a key, in any form `targetRedactor` knows, becomes `***`.
 * @example
 * detailRedactor(['s3cret'])('session=s3cret'); // 'session=***'
 */
export function detailRedactor(keys: readonly string[]): (detail: string) => string {
  const holds = holderOf(new KeyRedactor(keys));
  return (detail) =>
    detail
      .split(' ')
      .map((word) => {
        const equals = word.indexOf('=');
        return holds(word) ? `${word.slice(0, equals + 1)}***` : word;
      })
      .join(' ');
}

/**
 * The function the journal passes header values, session names and bodies through: each key, in any
 * form the package's redactor finds, becomes `***`; a text that still holds one once percent-decoded
 * (encoded three times in a form body) is hidden whole.
 * @example
 * textRedactor(['s3cret'])('{"token":"s3cret"}'); // '{"token":"***"}'
 */
export function textRedactor(keys: readonly string[]): (text: string) => string {
  const redactor = new KeyRedactor(keys);
  const holds = holderOf(redactor);
  return (text) => {
    const shown = redactor.text(text);
    return holds(shown) ? '***' : shown;
  };
}
