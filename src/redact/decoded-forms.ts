/**
 * The texts a text may stand for once the encodings a program applies without being asked are undone:
 * the rule the redactor's patterns (key-patterns.ts) cannot be, a list. A key is written into a log, a
 * page or a report through a few layers: HTML character references (`&#112;`, `&#x70;`, `&period;`),
 * the escapes of a string literal (`\x70`, `\u0070`, `\u{70}`, JavaScript's old `%u0070`, percent
 * escapes, `\U00000070`, and those escapes escaped again in JSON: `\\x70`), Unicode's compatibility forms (full-width `ｐ`, NFKC),
 * characters drawn as nothing between its characters (a zero-width space, a soft hyphen, a combining mark), separators between its characters
 * (`p.e.t`, hex as `70:65:74`), lines cut (base64 at 76 characters) and the binary-to-text encodings
 * (base64 and base64url from where a run of it starts, base32 and base32hex, hex as UTF-8 or UTF-16 text). Each layer
 * is undone in one pass over the text, and layers are undone up to `DEPTH` times (base64 of base64 is 2).
 *
 * Bounded: the texts made from one text count at most `BUDGET_PER_CHARACTER` characters per character of
 * it (and `BUDGET_FLOOR` more), so that a hostile body of megabytes costs a redactor a bounded multiple of
 * reading it, never more; past the budget, deeper layers are not undone. Not covered, on purpose: ciphers
 * (rot13, a reversed key, XOR), which no program applies unasked: whoever writes a key so holds the key,
 * and could send it anywhere; the redactor hides a key a text carries by accident, through encodings.
 * No Node API: the mock runs in a browser too (MSW).
 */
import { replaceEach, TextBuilder, unitsReplaced } from './each-match.js';

/** How many layers of encoding are undone: base64 of base64 of a percent-encoded key is 3. */
const DEPTH = 3;

/** The characters of decoded text made per character of the text, at most. */
export const BUDGET_PER_CHARACTER = 8;

/** Decoded characters any text may make, however short. */
const BUDGET_FLOOR = 4_096;

/** The named character references a key's characters may be written as (HTML's, for ASCII punctuation). */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  period: '.',
  colon: ':',
  semi: ';',
  comma: ',',
  lowbar: '_',
  hyphen: '-',
  dash: '-',
  minus: '-',
  equals: '=',
  plus: '+',
  sol: '/',
  bsol: '\\',
  num: '#',
  excl: '!',
  quest: '?',
  commat: '@',
  dollar: '$',
  percnt: '%',
  ast: '*',
  tilde: '~',
  Hat: '^',
  verbar: '|',
  nbsp: ' ',
};

/** A code point as text, or nothing for one that is none. */
function codePoint(value: number): string {
  return Number.isInteger(value) && value >= 0 && value <= 0x10ffff && (value < 0xd800 || value > 0xdfff) ? String.fromCodePoint(value) : '';
}

/**
 * The text with every character reference and escape replaced by its character, in one pass, character
 * by character: `&#112;`, `&#x70;` (`;` optional), `&period;`; `\\"`, `\\\\`, `\\/`; `\\x70`, `\\u{70}`,
 * `\\U00000070` (C, Python: 8 digits, before `\\u0070`, whose 4 digits it starts with), `\\u0070`, `%u0070`;
 * and each run of percent escapes as the UTF-8 of its characters (`%EF%BD%90` is a full-width `ｐ`).
 * As a global pattern of these (`ESCAPES` in decoded-forms.test.ts) replaces them, without a match of each.
 */
export function unescaped(text: string): string {
  const made = new TextBuilder(text.length);
  for (let at = 0; at < text.length; ) {
    const code = text.charCodeAt(at);
    const [length, character] = code === 0x5c ? backslashed(text, at) : code === 0x26 ? reference(text, at) : code === 0x25 ? percented(text, at) : NONE;
    if (length === 0) made.unit(code);
    else made.text(character);
    at += length === 0 ? 1 : length;
  }
  return made.done();
}

/** No escape at a place: its length 0. */
const NONE: readonly [number, string] = [0, ''];

/** How many characters from `at` are digits of `digits` (a `digitTable`), up to `most`. */
function digitsAt(text: string, at: number, digits: Int8Array, most: number): number {
  let count = 0;
  while (count < most && (digits[text.charCodeAt(at + count)] ?? -1) >= 0) count++;
  return count;
}

/** The escape `\\…` at `at`: its length and character, or `NONE`. */
function backslashed(text: string, at: number): readonly [number, string] {
  const next = text[at + 1] ?? '';
  // A string literal's escape of a quote, a backslash or a slash (JSON's, JavaScript's): `\\\\x70` written in JSON.
  if (next === '"' || next === '\\' || next === '/') return [2, next];
  if ((next === 'x' || next === 'X') && digitsAt(text, at + 2, HEX, 2) === 2) return [4, hexCharacter(text, at + 2, at + 4)];
  if (next === 'u' && text[at + 2] === '{') {
    const count = digitsAt(text, at + 3, HEX, 7);
    if (count >= 1 && count <= 6 && text[at + 3 + count] === '}') return [count + 4, hexCharacter(text, at + 3, at + 3 + count)];
  }
  if (next === 'U' && digitsAt(text, at + 2, HEX, 8) === 8) return [10, hexCharacter(text, at + 2, at + 10)];
  return unit(text, at);
}

/** `\\u0070` or `%u0070` at `at` (JavaScript's old `escape`): its length and character, or `NONE`. */
function unit(text: string, at: number): readonly [number, string] {
  const next = text[at + 1];
  return (next === 'u' || next === 'U') && digitsAt(text, at + 2, HEX, 4) === 4 ? [6, hexCharacter(text, at + 2, at + 6)] : NONE;
}

/** The character whose code is written in hex from `start` to `end`, or nothing for a code that is none. */
function hexCharacter(text: string, start: number, end: number): string {
  return codePoint(Number.parseInt(text.slice(start, end), 16));
}

/** The character reference at `at` (`&#112;`, `&#x70`, `&period;`): its length and character, or `NONE`. */
function reference(text: string, at: number): readonly [number, string] {
  if (text[at + 1] === '#') {
    const decimal = digitsAt(text, at + 2, DECIMAL, 7);
    if (decimal > 0) {
      const end = at + 2 + decimal;
      return [end - at + (text[end] === ';' ? 1 : 0), codePoint(Number(text.slice(at + 2, end)))];
    }
    const hex = text[at + 2] === 'x' || text[at + 2] === 'X' ? digitsAt(text, at + 3, HEX, 6) : 0;
    if (hex > 0) {
      const end = at + 3 + hex;
      return [end - at + (text[end] === ';' ? 1 : 0), hexCharacter(text, at + 3, end)];
    }
    return NONE;
  }
  const letters = digitsAt(text, at + 1, LETTERS, 7);
  if (letters < 2 || letters > 6 || text[at + 1 + letters] !== ';') return NONE;
  const name = text.slice(at + 1, at + 1 + letters);
  return [letters + 2, NAMED[name] ?? `&${name};`];
}

/** `%u0070`, or a run of percent escapes as the UTF-8 of its characters, at `at`: its length and text, or `NONE`. */
function percented(text: string, at: number): readonly [number, string] {
  const escaped = unit(text, at);
  if (escaped !== NONE) return escaped;
  let end = at;
  while (text.charCodeAt(end) === 0x25 && digitsAt(text, end + 1, HEX, 2) === 2) end += 3;
  return end === at ? NONE : [end - at, UTF8.decode(percentBytes(text.slice(at, end)))];
}

const UTF8 = new TextDecoder();

/** The bytes a run of percent escapes (`%41%42`) stands for, read in place: a run of megabytes split into its escapes made a string of each. */
export function percentBytes(run: string): Uint8Array {
  const bytes = new Uint8Array(run.length / 3);
  for (let at = 0; at < bytes.length; at++) bytes[at] = ((HEX[run.charCodeAt(3 * at + 1)] ?? 0) << 4) | (HEX[run.charCodeAt(3 * at + 2)] ?? 0);
  return bytes;
}

/**
 * The text with only a JSON string's escapes undone (`\\`, `\"`, `\/`, `\u0070`): `unescaped` reads a
 * `%aa` the string holds as a percent escape too, and so never gives back a key with `%` and hex digits in it.
 */
function stringUnescaped(text: string): string {
  return replaceEach(text, /\\(["\\/])|\\u([0-9a-fA-F]{4})/g, ([, quoted, unit]) => quoted ?? codePoint(Number.parseInt(unit ?? '', 16)));
}

/** The separators a text may put between the characters of a key, one kind at a time. */
const SEPARATORS = ['.', ':', '-', '_', '|', '/', ',', ' '];

/** Runs of one or two characters joined by one separator, at least 8 of them: `p.e.t.s.t.o.r.e`, `70:65:74:73:74:6f:72:65`. */
const SEPARATED = SEPARATORS.map((separator) => {
  const part = `[^\\s${separator === '-' ? '\\-' : `\\${separator}`}]{1,2}`;
  return { separator, pattern: new RegExp(`(?:${part}\\${separator}){7,}${part}`, 'g') };
});

/** Whether `text` holds `character` `times` times or more. */
function occurs(text: string, character: string, times: number): boolean {
  let at = -1;
  for (let found = 0; found < times; found++) {
    at = text.indexOf(character, at + 1);
    if (at === -1) return false;
  }
  return true;
}

/** The text with each run of characters between one kind of separator joined, one text per separator found. */
function unseparated(text: string): string[] {
  return SEPARATED.filter(({ separator }) => occurs(text, separator, 7)).map(({ separator, pattern }) =>
    replaceEach(text, pattern, ([run]) => unitsReplaced(run, (code) => (code === separator.charCodeAt(0) ? -1 : code))),
  );
}

/**
 * At least 8 characters, each but the last followed by one filler, the same throughout, which none of
 * them is; a filler of `SEPARATORS` is `unseparated`'s.
 */
const FILLED = /[\s\S]([^.:\-_|/, ])(?:(?!\1)[\s\S]\1){6,}(?!\1)[\s\S]/gs;

/**
 * The text with each run of single characters between one filler joined, whatever the filler (`p\0e\0t…`,
 * as UTF-16 text shows when read as bytes, `p~e~t…`).
 */
function unfilled(text: string): string {
  return replaceEach(text, FILLED, ([run]) => {
    const joined = new TextBuilder(run.length);
    for (let at = 0; at < run.length; at += 2) joined.unit(run.charCodeAt(at));
    return joined.done();
  });
}

/**
 * A run of at least `NEEDLE` numbers, each a byte or a character's code, written with one radix's digits
 * (binary, octal, decimal, hex), after a prefix or not (`0x53`, `\123`, `\53 `, `=53`, `U+0053`), with
 * any filler between them (`83,51,99`, Node's `{"type":"Buffer","data":[83,51]}`, `53 33`): the key's
 * bytes written as a list of numbers, the one rule for all these. A number without a prefix ends at a
 * filler, so a run splits one way only. The escapes `unescaped` reads (`&#83;`, `%53`, `\x53`) are its.
 */
const NUMBER_RUN = /(?:(?:0[xXoObB]|\\|=|[uU]\+)[0-9a-fA-F]{1,8}[\s,;:.\]["'/|-]{0,3}|[0-9a-fA-F]{1,8}[\s,;:.\]["'/|-]{1,3}){7,}/g;
const NUMBER = /(?:0[xXoObB]|\\|=|[uU]\+)?([0-9a-fA-F]{1,8})/g;
const RADIX_DIGITS: readonly (readonly [number, RegExp])[] = [
  [2, /^[01]{8}$/],
  [8, /^[0-7]{1,3}$/],
  [10, /^\d{1,7}$/],
  [16, /^[0-9a-fA-F]{1,6}$/],
];

/**
 * What each run of numbers in `text` stands for, as characters: in each radix, every stretch of at least
 * `NEEDLE` numbers its digits can write (a word's hex letters beside a list of decimals are not of it).
 */
function numbersDecoded(text: string): string[] {
  const decoded: string[] = [];
  for (const [run] of text.matchAll(NUMBER_RUN)) {
    // Each radix's stretch as it grows, number by number: a run of megabytes is never held as a list of its numbers.
    const stretches = RADIX_DIGITS.map(([radix, pattern]) => ({ radix, pattern, stretch: new Stretch(run.length) }));
    // `exec` from the run's start, not `matchAll`: an iterator's result and a match for each of a million numbers.
    NUMBER.lastIndex = 0;
    for (let match = NUMBER.exec(run); match !== null; match = NUMBER.exec(run)) {
      const number = match[1] ?? '';
      for (const { radix, pattern, stretch } of stretches) {
        if (pattern.test(number)) stretch.add(codePoint(Number.parseInt(number, radix)));
        else stretch.end(decoded);
      }
    }
    for (const { stretch } of stretches) stretch.end(decoded);
  }
  return decoded;
}

/**
 * The characters of a stretch of numbers, as they are read. Filler (`65,65,65…`) is no key: a key of 8
 * characters or more has 4 kinds of them, as `varied` asks of base64; a stretch whose first 32 are not
 * varied is not kept, however long it goes on (a text of a million `1,` made a list of each).
 */
class Stretch {
  readonly #most: number;
  #made: TextBuilder | undefined;
  #first = '';
  #numbers = 0;
  #filler = false;

  /** `most`: the most characters it may hold (the run's length). */
  constructor(most: number) {
    this.#most = most;
  }

  add(character: string): void {
    this.#numbers++;
    if (this.#filler) return;
    if (this.#first.length < 32) {
      this.#first += character;
      this.#filler = this.#first.length >= 32 && !varied(this.#first);
      return;
    }
    this.#made ??= new TextBuilder(this.#most);
    this.#made.text(character);
  }

  /** Ends the stretch: what it holds goes to `decoded` when it may be a key's. */
  end(decoded: string[]): void {
    if (this.#numbers === 0) return;
    if (this.#numbers >= NEEDLE && !this.#filler && varied(this.#first)) decoded.push(this.#first + (this.#made?.done() ?? ''));
    this.#made = undefined;
    this.#first = '';
    this.#numbers = 0;
    this.#filler = false;
  }
}

/** A table of digit values by character code, -1 for a character that is none. */
function digitTable(pairs: readonly (readonly [string, number])[]): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (const [character, value] of pairs) table[character.charCodeAt(0)] = value;
  return table;
}

const BASE64 = digitTable([...[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, v) => [c, v] as const), ['-', 62], ['_', 63]]);
const BASE32 = digitTable([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'].flatMap((c, v) => [[c, v] as const, [c.toLowerCase(), v] as const]));
/** RFC 4648 7's base32hex, the alphabet that keeps the bytes' order (DNSSEC's NSEC3 names). */
const BASE32HEX = digitTable([...'0123456789ABCDEFGHIJKLMNOPQRSTUV'].flatMap((c, v) => [[c, v] as const, [c.toLowerCase(), v] as const]));

/** The bytes a run of `bits`-bit digits stands for (`digits` gives each its value), as Latin-1 text: each byte one character. */
function bytesOf(run: string, digits: Int8Array, bits: number): string {
  const bytes = new Uint8Array(Math.floor((run.length * bits) / 8));
  let [buffer, held, length] = [0, 0, 0];
  for (let at = 0; at < run.length; at++) {
    const value = digits[run.charCodeAt(at)] ?? -1;
    if (value < 0) break;
    buffer = ((buffer << bits) | value) & 0xffff;
    held += bits;
    if (held >= 8) {
      held -= 8;
      bytes[length++] = (buffer >> held) & 0xff;
    }
  }
  // A short run as characters at once: a decoder has a cost of its own per call.
  return length < 1024 ? String.fromCharCode(...bytes.subarray(0, length)) : LATIN1.decode(bytes.subarray(0, length));
}

const LATIN1 = new TextDecoder('latin1');

/**
 * The runs of printable ASCII in what binary was decoded to, each at least `NEEDLE` long: a key's bytes
 * are such a run, and the rest, bytes of what was no encoding at all, is never searched or decoded again.
 */
function printableRuns(decoded: string): string[] {
  return Array.from(decoded.matchAll(PRINTABLE), ([run]) => run);
}

/** The shortest text searched: a long key (8 characters) less an end character. */
const NEEDLE = 7;
const PRINTABLE = new RegExp(`[\\x20-\\x7e]{${NEEDLE},}`, 'g');

const HEX = digitTable([...'0123456789abcdef'].flatMap((digit, value) => [[digit, value] as const, [digit.toUpperCase(), value] as const]));
const DECIMAL = digitTable([...'0123456789'].map((digit, value) => [digit, value] as const));
/** Letters, for the names of character references: each as a digit of value 0. */
const LETTERS = digitTable([...'abcdefghijklmnopqrstuvwxyz'].flatMap((letter) => [[letter, 0] as const, [letter.toUpperCase(), 0] as const]));

/**
 * Bytes (as Latin-1 text) read as Latin-1 (UTF-8 for ASCII), and as UTF-16 in either order: a UTF-16
 * unit of ASCII is a zero byte beside it, so without the zeros it reads as Latin-1. Whatever binary
 * is decoded from is read both ways: the key in UTF-16 is the key.
 */
function bothWidths(latin: string): string[] {
  return latin.includes('\0') ? [latin, unitsReplaced(latin, (code) => (code === 0 ? -1 : code))] : [latin];
}

/** Hex as bytes, read as `bothWidths`. */
function hexTexts(run: string): string[] {
  return bothWidths(bytesOf(run, HEX, 4));
}

/**
 * What each run of the base64 alphabet (base32's and hex's are within it) decodes to, the encodings
 * found in one pass over the text. Each run long enough to hold `NEEDLE` bytes: base64 4 characters for
 * 3 bytes, base32 8 for 5, hex 2 for 1 and 1 for its alignment. Base64 is decoded from where its run
 * starts, and after each `/` or `+` of it, which a path or a query uses as its own (`/v1/pets/<base64>`):
 * a key's base64 at any other offset is the patterns' to find (key-patterns.ts), one layer deep.
 */
const BASE64_RUN = /[A-Za-z0-9+/_-]{10,}/g;
const INNER_RUNS: readonly { readonly pattern: RegExp; readonly decode: (run: string) => string[] }[] = [
  { pattern: /(?<=[/+])[A-Za-z0-9_-]{10,}/g, decode: (run) => bothWidths(bytesOf(run, BASE64, 6)) },
  { pattern: /[A-Z2-7]{12,}/g, decode: (run) => bothWidths(bytesOf(run, BASE32, 5)) },
  { pattern: /[a-z2-7]{12,}/g, decode: (run) => bothWidths(bytesOf(run, BASE32, 5)) },
  { pattern: /[0-9A-V]{12,}/g, decode: (run) => bothWidths(bytesOf(run, BASE32HEX, 5)) },
  { pattern: /[0-9a-v]{12,}/g, decode: (run) => bothWidths(bytesOf(run, BASE32HEX, 5)) },
  { pattern: /[0-9a-fA-F]{15,}/g, decode: (run) => [...hexTexts(run), ...hexTexts(run.slice(1))] },
];

/** What the runs of binary-to-text encodings in `text` decode to. */
function binaryDecoded(text: string): string[] {
  const decoded: string[] = [];
  for (const [run] of text.matchAll(BASE64_RUN)) {
    if (!varied(run)) continue;
    decoded.push(...bothWidths(bytesOf(run, BASE64, 6)));
    for (const { pattern, decode } of INNER_RUNS) for (const [inner] of run.matchAll(pattern)) decoded.push(...decode(inner));
  }
  return decoded;
}

/**
 * Whether a run is worth decoding: its first 32 characters are of 4 kinds or more. The encoding of a key of
 * 8 characters or more is (`aaaaaaaa` is `YWFhYWFhYWFh`); filler (`xxxx…`, `AAAA…`) is not, and is long.
 */
function varied(run: string): boolean {
  return new Set(run.slice(0, 32)).size >= 4;
}

/**
 * What a terminal or a page draws as nothing, or as a mark on the character before it: Unicode's default
 * ignorable code points (a zero-width space U+200B, a soft hyphen U+00AD, joiners, U+FEFF, variation
 * selectors, bidirectional marks) and combining marks (`s\u0336` draws a struck-out `s`). A key with them
 * between its characters reads as the key, and a program that wraps a long token inserts them unasked.
 */
export const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]/gu;

/** A run of them, left out as one: a text of a million of them is some thousands of runs, or fewer matches. */
const INVISIBLE_RUN = new RegExp(`${INVISIBLE.source}+`, 'gu');

/** The texts one layer of decoding makes of `text`: each differs from it. */
function layer(text: string): string[] {
  // Each layer only where the text has what it undoes: a pass over a long text costs as much as the rest.
  const made = [
    ...(/[&\\%]/.test(text) ? [unescaped(text)] : []),
    ...(text.includes('\\') && /%[0-9a-fA-F]{2}/.test(text) ? [stringUnescaped(text)] : []),
    ...(/[^\0-\x7f]/.test(text) ? [text.normalize('NFKC'), replaceEach(text, INVISIBLE_RUN, () => '')] : []),
    ...(/[\r\n]/.test(text) ? [unitsReplaced(text, (code) => (code === 0x0a || code === 0x0d ? -1 : code))] : []),
    ...unseparated(text),
    unfilled(text),
  ];
  for (const decoded of [...binaryDecoded(text), ...numbersDecoded(text).flatMap(bothWidths)]) made.push(...printableRuns(decoded));
  return made.filter((decoded) => decoded !== text && decoded.length >= NEEDLE);
}

/**
 * Every text `text` may stand for, `DEPTH` layers of encoding deep, itself first; at most
 * `BUDGET_PER_CHARACTER` characters of them per character of `text` beyond it.
 * @example
 * decodedForms('&#x6b;&#x65;&#x79;'); // ['&#x6b;&#x65;&#x79;', 'key', ...]
 * decodedForms(btoa(btoa('key'))).includes('key'); // true
 */
export function decodedForms(text: string): string[] {
  const forms = [text];
  const seen = new Set(forms);
  let budget = BUDGET_PER_CHARACTER * text.length + BUDGET_FLOOR;
  let frontier = [text];
  for (let depth = 0; depth < DEPTH && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const source of frontier) {
      for (const decoded of layer(source)) {
        if (seen.has(decoded)) continue;
        budget -= decoded.length;
        if (budget < 0) return forms;
        seen.add(decoded);
        forms.push(decoded);
        next.push(decoded);
      }
    }
    frontier = next;
  }
  return forms;
}
