/**
 * A page of pets within the largest answer the mock queues (`ANSWER_BYTES`, 4 MiB): the spec's page is
 * "at most `limit`" pets, so a page whose pets pass the bytes holds the first of them that fit, at least
 * one. Pets of the usual size (a page of 100 is some 6 KB) never come near it; a session holding its
 * 16 MiB of pets in 1 MB names answered 24 MB a read, pinned by each client that read none of it. Every
 * host answers a list through the list operation, so the bound holds on all of them (memory, Redis,
 * `--workers`, MSW, the proxy's shadow).
 */
import { ANSWER_BYTES } from '../../bounds/budget.js';

/** The UTF-8 bytes of `text` from `from` to `to`. */
function utf8Bytes(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    // A surrogate half is 2 of a pair's 4 bytes.
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code < 0xe000) ? 2 : 3;
  }
  return bytes;
}

/**
 * `body`, a JSON array of pets as a store writes it, within `maxBytes` of UTF-8: the pets after the
 * first that would pass it left out. Strings are read by JSON's grammar (a `,` or `}` inside a name
 * is not a pet's end). Only the first `maxBytes` or so are read, a few milliseconds for a page of 4 MiB.
 * @example
 * pageWithin('[{"id":1,"name":"a"},{"id":2,"name":"b"}]', 25); // '[{"id":1,"name":"a"}]'
 */
export function pageWithin(body: string, maxBytes = ANSWER_BYTES): string {
  // Three bytes a character at most: a page that short is within the bound however it is written.
  if (body.length * 3 <= maxBytes) return body;
  let depth = 0;
  let inString = false;
  let bytes = 1;
  let counted = 1;
  let end = -1;
  let over = false;
  for (let i = 1; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) depth--;
    else if (code === 0x2c && depth === 0) {
      bytes += utf8Bytes(body, counted, i);
      counted = i;
      // Room for the closing bracket; the first pet is kept whatever its size.
      over = bytes + 1 > maxBytes;
      if (over && end !== -1) break;
      end = i;
      if (over) break;
    }
  }
  const fits = !over && bytes + utf8Bytes(body, counted, body.length) <= maxBytes;
  return end === -1 || fits ? body : `${body.slice(0, end)}]`;
}
