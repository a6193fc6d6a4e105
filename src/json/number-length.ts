/**
 * The length of the numbers a JSON text holds, found in one pass without parsing: reading a number
 * costs time in its length (a million-digit integer takes the lossless parser, and each `bigint` made of
 * it, most of a second, again at each step that reads it), so a text holding one longer than any
 * number a reader keeps is refused before it is parsed.
 */

/**
 * The most characters a JSON number may have and still be read. The longest number the spec holds is
 * an int64, 20 characters (`-9223372036854775808`), and a double needs at most 24
 * (`-2.2250738585072014e-308`); 100 leaves room for a zero fraction or padding zeros (`5.000`, `0001`).
 */
export const MAX_JSON_NUMBER_CHARS = 100;

const NUMBER_CHARACTER = /[0-9eE.+-]/;

/** The first number of `text` longer than `limit` characters, where it starts and how long it is; `undefined` when none is. */
export function overlongNumber(text: string, limit: number = MAX_JSON_NUMBER_CHARS): { readonly at: number; readonly length: number } | undefined {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (NUMBER_CHARACTER.test(c)) {
      const start = i;
      while (i + 1 < text.length && NUMBER_CHARACTER.test(text[i + 1] ?? '')) i++;
      if (i + 1 - start > limit) return { at: start, length: i + 1 - start };
    }
  }
  return undefined;
}
