/**
 * The one exit of the mock's Error bodies. A message that helps a client names what it sent: the
 * `Content-Type` of a 415, the `X-Mock-Session` of a 400, the path of a 404, the `Host` of a 403, the
 * `Origin` the admin refuses. Whatever a client put there (its key, by mistake or through a page that
 * makes it send one) comes back in the answer, and from there into a browser's console, a test's
 * output or a CI log. So no message hides input itself: every Error body any host writes passes
 * `keylessErrors` once, whole, and a message written later that quotes input is covered as those of
 * today are. Its exits: the pipeline's (src/mock/pipeline/pipeline.ts: the Node server, its workers,
 * MSW, the Vite plugin and the code API all answer through it), the Node hosts' guard before the
 * pipeline (the mock's server and the proxy), and the proxy's own answers.
 *
 * Only answers of 400 and up: a success answer holds what the client sent as data (a pet's name), and
 * the redactor's cost stays off the path of every answer that succeeds.
 *
 * The same exit bounds what an Error quotes: its body is at most `ERROR_BODY_BYTES`, its message cut
 * to fit, after the key is hidden in the whole text, so that no cut keeps a piece of a key the
 * redactor would no longer know.
 */
import type { KeyRedactor } from '../../redact/key-redactor.js';
import { cachedIn, memoize } from './memo.js';
import type { MockResponse } from './messages.js';

/**
 * The userinfo of a URL an Error quotes (an absolute-form target, `http://user:password@host/`): a
 * credential whatever it holds, a key the mock knows or not, as the request log shows it (`***`).
 */
// A scheme is tried only where a run of its characters begins: tried at every letter of a long word, the
// match took time in the square of its length (15,000 letters in a path: 0.24 s a 404).
const USERINFO = /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#\s"]*@/g;

/**
 * The most bytes of an Error body (its JSON, in UTF-8): a message quoting input is cut to fit, ending
 * with "…". A 404 quoted a whole path (12 KB over HTTP, where Node bounds a request's head at 16 KiB;
 * any length through MSW or the code API, which bound none), a 415 a `Content-Type` twice (24 KB).
 */
export const ERROR_BODY_BYTES = 2 * 1024;

/** The last characters of a message a cut keeps: where it says what to do (the operations served, the media type to send). */
const KEPT_END = 200;

/** `text` cut to its first `head` and last `tail` UTF-16 units around "…", never between the two halves of a surrogate pair. */
function cutMiddle(text: string, head: number, tail: number): string {
  const start = /[\ud800-\udbff]/.test(text.charAt(head - 1)) ? head - 1 : head;
  const end = /[\udc00-\udfff]/.test(text.charAt(text.length - tail)) ? text.length - tail + 1 : text.length - tail;
  return `${text.slice(0, start)}…${text.slice(end)}`;
}

/**
 * `body` as it is when within `ERROR_BODY_BYTES`, else with the middle of its message cut out to fit:
 * the start names what was wrong, the end what to do, and the input quoted between them goes.
 */
function withinBound(body: string): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most bodies are known to fit without counting.
  if (body.length * 3 <= ERROR_BODY_BYTES || Buffer.byteLength(body) <= ERROR_BODY_BYTES) return body;
  const error = JSON.parse(body) as Record<string, unknown>;
  const message = error.message;
  if (typeof message !== 'string') return body;
  let room = message.length;
  let cut = body;
  while (Buffer.byteLength(cut) > ERROR_BODY_BYTES && room > 2) {
    room = Math.floor(room * Math.min(0.9, ERROR_BODY_BYTES / Buffer.byteLength(cut)));
    const tail = Math.min(KEPT_END, Math.floor(room / 2));
    cut = JSON.stringify({ ...error, message: cutMiddle(message, room - tail, tail) });
  }
  return cut;
}

/** The exit of each redactor, made once: the proxy asks for the one of a request's redactor, which it keeps for the credentials a client repeats. */
const exits = new WeakMap<KeyRedactor, (response: MockResponse) => MockResponse>();

/**
 * The function each exit passes its answers through: an Error body that holds a key, in any form
 * `redactor` finds, has each form replaced by `***` in its string literals (it stays the spec's Error
 * JSON, its code and status as they were), and so has the userinfo of a URL it quotes; then its
 * message is cut to `ERROR_BODY_BYTES`; any other answer is given back as it is.
 * @example
 * const keyless = keylessErrors(new KeyRedactor(['s3cretKEYvalue42']));
 * keyless(errorResponse('not_found', 'No operation is served at /v1/s3cretKEYvalue42.')).body;
 * // '{"code":"not_found","message":"No operation is served at /v1/***.","status":404}'
 */
export function keylessErrors(redactor: KeyRedactor): (response: MockResponse) => MockResponse {
  return cachedIn(exits, redactor, () => {
    // A client that repeats a request repeats its Error: the body is scanned once while it is repeated.
    const shown = memoize((body) => withinBound(redactor.body(body, true).replace(USERINFO, '$1***@')));
    return (response) => {
      if (response.status < 400 || response.body === '') return response;
      const body = shown(response.body);
      // The headers are unchanged, prepared ones included: a host sets the length from the body it writes.
      return body === response.body ? response : { ...response, body };
    };
  });
}
