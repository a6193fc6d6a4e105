/**
 * What one pass over a JSON text tells without parsing it: how deep it nests, how many members its
 * objects are written with, and whether it holds a number too long to read. Each is a bound a reader
 * checks before it parses: nesting exhausts a recursive parser's stack, a key written twice is what
 * `JSON.parse` hides (it keeps the last), and reading a number costs time in its length (a
 * million-digit integer takes the lossless parser, and each `bigint` made of it, most of a second, again
 * at each step that reads it).
 */

/**
 * The most characters a JSON number may have and still be read. The longest number the spec holds is
 * an int64, 20 characters (`-9223372036854775808`), and a double needs at most 24
 * (`-2.2250738585072014e-308`); 100 leaves room for a zero fraction or padding zeros (`5.000`, `0001`).
 */
export const MAX_JSON_NUMBER_CHARS = 100;

export interface JsonTextOutline {
  /** How deep arrays and objects nest, at the deepest. */
  readonly depth: number;
  /** How many members its objects are written with, all told: the strings followed by `:`. */
  readonly members: number;
  /** The first number longer than `MAX_JSON_NUMBER_CHARS`: where it starts, and how long it is. */
  readonly overlongNumber: { readonly at: number; readonly length: number } | undefined;
  /**
   * Whether a number outside strings has a fraction, an exponent or 16 digits or more: one a double
   * may round, which a lossless reader reads from its text. Without one, `JSON.parse` reads every number exactly.
   */
  readonly inexactNumber: boolean;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;

/** Space, tab, line feed, carriage return: the whitespace JSON allows between tokens. */
function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** A character a JSON number is written with: a digit, a sign, a point or an exponent's `e`. */
function isNumberCharacter(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}

/** The outline of `text`, in one pass; characters inside strings count for nothing. Text that is not JSON gets an outline too, of what it holds. */
export function outlineJsonText(text: string): JsonTextOutline {
  let depth = 0;
  let deepest = 0;
  let members = 0;
  let overlongNumber: JsonTextOutline['overlongNumber'];
  let inexactNumber = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: a backslash escapes the character after it.
      for (i++; i < text.length; i++) {
        const inside = text.charCodeAt(i);
        if (inside === BACKSLASH) i++;
        else if (inside === QUOTE) break;
      }
      let next = i + 1;
      while (next < text.length && isJsonSpace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === COLON) members++;
    } else if (c === 91 || c === 123) deepest = Math.max(deepest, ++depth);
    else if (c === 93 || c === 125) depth--;
    else if (isNumberCharacter(c)) {
      const start = i;
      let digits = 0;
      for (let d = c; ; d = text.charCodeAt(++i)) {
        if (d >= 48 && d <= 57) digits++;
        // After a digit: the `e` of `true` or `false` is no exponent.
        else if (digits > 0 && (d === 46 || d === 101 || d === 69)) inexactNumber = true;
        if (i + 1 >= text.length || !isNumberCharacter(text.charCodeAt(i + 1))) break;
      }
      if (digits >= 16) inexactNumber = true;
      if (overlongNumber === undefined && i + 1 - start > MAX_JSON_NUMBER_CHARS) overlongNumber = { at: start, length: i + 1 - start };
    }
  }
  return { depth: deepest, members, overlongNumber, inexactNumber };
}
