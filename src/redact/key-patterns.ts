/**
 * The regular expressions that find a secret in a text, in every form a text may hold it in: as it is,
 * each character percent-encoded (once or twice, hex in either case), JSON-escaped (`\u0041`, `\/`), `+`
 * for a space, in base64 or base64url wherever it starts (`base64("user:" + key)` holds it at an offset
 * that is not a multiple of 3), as hex, and halves of it that ordinary text cannot hold by chance.
 * Below src/mock and src/contracts: the mock and the verifier hide their keys with the same patterns.
 * No Node API: the mock runs in a browser too (MSW).
 */
import { TextBuilder, unitsReplaced } from './each-match.js';

/**
 * Below this length a secret turns up by chance (in an id, a port, a count), so it is found only where it
 * stands as a token of its own, and in fewer forms; a longer one is found wherever it appears, in any case.
 */
export const SHORT_SECRET_LENGTH = 8;

const utf8 = new TextEncoder();

/** The escapes JSON has a short form for (RFC 8259 7), and `\/`, which it allows for `/`. */
const JSON_SHORT: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Hex digits matching either case, for a pattern that is case-sensitive (a short secret's). */
function hexPattern(value: number, digits: number): string {
  return [...value.toString(16).padStart(digits, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

/** A character as it is, in either case when `anyCase` and it has two. */
function literalPattern(character: string, anyCase: boolean): string {
  const lower = character.toLowerCase();
  const upper = character.toUpperCase();
  if (!anyCase || lower === upper || [...lower].length !== 1 || [...upper].length !== 1) return escapeRegExp(character);
  return `[${lower}${upper}]`;
}

/**
 * One character as a pattern: itself (in either case when `anyCase`), or any escape a URL or a JSON
 * string writes it in: its UTF-8 bytes percent-encoded (or encoded again, as often as it was: `%252F`), its UTF-16
 * units as `\uXXXX`, JSON's short escape (each escaped again, as often as it was: JSON quoted in JSON
 * writes `\\u0041`), `+` for a space. Escapes of the characters of one text may be
 * mixed in any way. Case is spelt out in classes rather than with the `i` flag, which V8 compiles many
 * times slower for a pattern this long.
 */
function characterPattern(character: string, anyCase = false): string {
  // `formOf` maps characters with it, so `anyCase` may be an index: only whether it is truthy counts, as below.
  const key = `${anyCase ? 'i' : 's'}${character}`;
  let pattern = characterPatterns.get(key);
  if (pattern === undefined) {
    pattern = characterPatternOf(character, anyCase);
    if (characterPatterns.size >= MAX_CHARACTER_PATTERNS) characterPatterns.clear();
    characterPatterns.set(key, pattern);
  }
  return pattern;
}

/**
 * Each character's pattern, once: a key's patterns repeat the few characters of its alphabet, and a key of
 * 7,700 characters asked for a million of them (most of a verifier's CPU, with UTF-8 encoding each anew).
 */
const characterPatterns = new Map<string, string>();
const MAX_CHARACTER_PATTERNS = 4_096;

/** `characterPattern`, worked out. */
function characterPatternOf(character: string, anyCase: boolean): string {
  const bytes = [...utf8.encode(character)].map((byte) => `%(?:25)*${hexPattern(byte, 2)}`).join('');
  let units = '';
  for (let i = 0; i < character.length; i++) units += `\\\\+[uU]${hexPattern(character.charCodeAt(i), 4)}`;
  const short = JSON_SHORT[character];
  const alternatives = [
    literalPattern(character, anyCase),
    bytes,
    units,
    ...(short === undefined ? [] : [`\\\\+${escapeRegExp(short.slice(1))}`]),
    ...(character === ' ' ? ['\\+'] : []),
  ];
  return `(?:${alternatives.join('|')})`;
}

/** A base64 character as a pattern: its base64url twin too (`-` for `+`, `_` for `/`), each in any escape `characterPattern` knows. */
function base64CharacterPattern(character: string): string {
  const twin = character === '+' ? '-' : character === '/' ? '_' : undefined;
  return twin === undefined ? characterPattern(character) : `(?:${characterPattern(character)}|${characterPattern(twin)})`;
}

/** How many characters at each end of a form may be missing. */
interface MissingEnds {
  readonly first: number;
  readonly last: number;
}

/**
 * `text` as a form: a pattern, character by character, with as many characters at each end optional as
 * `missing` says; and its needle, the characters every match holds, folded (`foldedForNeedles`).
 */
function formOf(text: string, each: (character: string) => string, missing: MissingEnds = { first: 0, last: 0 }): Form {
  const characters = [...text].map(each);
  if (characters.length <= missing.first + missing.last) return { text, pattern: characters.join(''), needle: needleOf([...text]) };
  for (let i = 0; i < missing.first; i++) characters[i] = `${characters[i]}?`;
  for (let i = 1; i <= missing.last; i++) characters[characters.length - i] = `${characters.at(-i)}?`;
  return { text, pattern: characters.join(''), needle: needleOf([...text].slice(missing.first, characters.length - missing.last)) };
}

/**
 * The characters a match of a form holds literally when the text it is in has no escape (`%`, `\\`), folded;
 * `undefined` when a character outside ASCII is among them (its case may be another character).
 */
function needleOf(characters: readonly string[]): string | undefined {
  const needle = characters.join('');
  return /^[\0-\x7f]*$/.test(needle) ? foldedForNeedles(needle) : undefined;
}

/**
 * A text as a needle is looked for in it: lower case, `-` and `_` as base64's `+` and `/` (a form's base64
 * twins), a space as `+` (how a URL writes it). Each character folds on its own, so a text that holds a
 * form's characters literally holds the form's needle once folded.
 */
function foldedForNeedles(text: string): string {
  const lower = text.toLowerCase();
  // One pass, and none for the most texts, which hold none of the three.
  if (!/[-_ ]/.test(lower)) return lower;
  return unitsReplaced(lower, (code) => (code === 0x2d || code === 0x20 ? 0x2b : code === 0x5f ? 0x2f : code));
}

/**
 * The ends of a form of a long value that may be missing, so that the value echoed without its first or
 * last character (the verifier's near miss; a deployment that cuts a credential one character too far)
 * is found too: `perCharacter` characters of the form at each end (one in plain text, two in hex and in
 * base64, which splits a byte across characters), and only while at least `SHORT_SECRET_LENGTH`
 * characters' worth of it remain, which ordinary text cannot hold by chance. The value's own last
 * character is always optional (`lastAlways`).
 */
function missingEnds(text: string, perCharacter: number, lastAlways = false): MissingEnds {
  const enough = text.length - 2 * perCharacter >= SHORT_SECRET_LENGTH * perCharacter;
  return { first: enough ? perCharacter : 0, last: enough || lastAlways ? perCharacter : 0 };
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The base64 characters that hold the value whatever stands around it, for each of the three offsets
 * (modulo 3) it may start at in the encoded bytes: a character encodes 6 bits, and those whose bits all
 * come from the value are the same wherever the value is, so a window of base64 that holds the value
 * holds one of these three runs. The characters at its edges, which mix in bits of the bytes around it,
 * are left: they hold a few bits of the value, never the value.
 */
export function base64Windows(value: string): string[] {
  const bytes = utf8.encode(value);
  return [0, 1, 2].map((offset) => {
    const padded = new Uint8Array(offset + bytes.length + 2);
    padded.set(bytes, offset);
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    return base64Of(padded).slice(first, end);
  });
}

function hexOf(value: string): string {
  return [...utf8.encode(value)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A half of a long value is found on its own only when ordinary text cannot hold it by chance: 8
 * characters or more, with a letter and a digit. So `sk_live_9fQ2x` is, but `petstore` (the first half
 * of the mock's key `petstore-dev-key`) is a word, and `12345678` could be an id.
 */
function isRandomEnough(part: string): boolean {
  return part.length >= SHORT_SECRET_LENGTH && /[A-Za-z]/.test(part) && /[0-9]/.test(part);
}

/** The value cut in the middle (both middles when its length is odd), each half that could not be ordinary text. */
function halves(value: string): string[] {
  const cuts = new Set([Math.floor(value.length / 2), Math.ceil(value.length / 2)]);
  return [...cuts].flatMap((cut) => [value.slice(0, cut), value.slice(cut)]).filter(isRandomEnough);
}

/** One form of a value: the text it is written as, and the pattern that finds it in any escape. */
interface Form {
  readonly text: string;
  readonly pattern: string;
  /** What a text without escapes holds, folded, wherever the pattern finds the form in it (`undefined`: none said). */
  readonly needle: string | undefined;
}

/** A character in either case, or escaped. */
const anyCasePattern = (character: string) => characterPattern(character, true);

/**
 * The forms of a long value: itself (its last character optional), its base64 whole and at every
 * offset, its hex, its random halves; all but base64 in any case (an echo of the key upper-cased reveals it as surely).
 */
function longForms(value: string): Form[] {
  const own = formOf(value, anyCasePattern, missingEnds(value, 1, true));
  // Its whole base64 too, padded or not, so that an echo of it alone leaves no edge character behind.
  const whole = base64Of(utf8.encode(value));
  // A window too short to say anything (a value of one or two bytes) is left to the value's other forms.
  const long = (window: string) => window.length >= 4;
  // Only the windows at each offset lose their ends: the whole forms are for an echo of the value alone.
  const windows = [
    ...[whole, whole.replace(/=+$/, '')].filter(long).map((window) => formOf(window, base64CharacterPattern)),
    ...base64Windows(value)
      .filter(long)
      .map((window) => formOf(window, base64CharacterPattern, missingEnds(window, 2))),
  ];
  const hex = hexOf(value);
  return [own, ...windows, formOf(hex, (digit) => literalPattern(digit, true), missingEnds(hex, 2))];
}

/**
 * The halves of a long value that ordinary text cannot hold: as they are (in any case, or escaped), in
 * base64 at each offset and in hex, so that an echo of the value's random half alone (a credential cut
 * after its scheme, then encoded) is found in the forms the whole value is.
 */
function halfForms(value: string): Form[] {
  return halves(value).flatMap((half) => [
    formOf(half, anyCasePattern),
    ...base64Windows(half).map((window) => formOf(window, base64CharacterPattern)),
    formOf(hexOf(half), (digit) => literalPattern(digit, true)),
  ]);
}

const ALNUM = /[A-Za-z0-9]/;

/**
 * How a secret is found: a long one (`SHORT_SECRET_LENGTH` or more) in every form; a short one as it
 * is and in base64, either anywhere (`short`: the mock hides the whole part of a target or a text that
 * holds it, where hiding too much costs nothing) or only as a token of its own (`short-token`: the
 * verifier's reports hold ids, ports and URLs that a key `1` would mangle).
 */
export type SecretKind = 'long' | 'long-halves' | 'short' | 'short-token';

/** The forms of a short value: itself, its whole base64 (padded or not), and anywhere also its base64 at other offsets. */
function shortForms(value: string, asToken: boolean): Form[] {
  const base64 = base64Of(utf8.encode(value));
  const whole = [value, base64, base64.replace(/=+$/, '')];
  const texts = asToken ? whole : [...whole, ...base64Windows(value).filter((window) => window.length >= 4)];
  return [...new Set(texts)]
    .filter((text) => text !== '')
    .map((text) => {
      const form = formOf(text, text === value ? characterPattern : base64CharacterPattern);
      if (!asToken) return form;
      const before = ALNUM.test(text[0] ?? '') ? '(?<![A-Za-z0-9])' : '';
      const after = ALNUM.test(text.at(-1) ?? '') ? '(?![A-Za-z0-9])' : '';
      return { ...form, pattern: `${before}${form.pattern}${after}` };
    });
}

/**
 * How a text is searched for the forms of some values: one regular expression (global) for every form,
 * and the needles (`Form`) that tell, with no more than `includes`, that a text without escapes holds
 * none of them. The pattern of each form is long (each character in every escape), and most texts a
 * report or a log writes hold no key: the needles spare them the pattern.
 */
export interface SecretFinder {
  readonly pattern: RegExp;
  /** One per form, or `undefined` when a form has none: then every text is searched with the pattern. */
  readonly needles: readonly string[] | undefined;
  /** Whether a needle holds `%` or `\\`, which undoing a text's escapes may take for an escape of its own: then a text with escapes is searched. */
  readonly escapable: boolean;
}

/**
 * The finder of every form of every value, or `undefined` for none. Longest form first in the pattern,
 * so that a form holding another (the near miss `<key>x` holds the key) is replaced whole.
 */
export function secretFinder(values: readonly string[], kind: SecretKind): SecretFinder | undefined {
  const key = `${kind}\0${values.join('\0')}`;
  let made = madeFinders.get(key);
  if (made === undefined) {
    made = madeFinder(values, kind);
    const chars = key.length + (made?.source.length ?? 0);
    if (madeChars + chars > MADE_FINDERS_CHARS) {
      madeFinders.clear();
      madeChars = 0;
    }
    madeFinders.set(key, made);
    madeChars += chars;
  }
  return made === null ? undefined : { pattern: new RegExp(made.source, 'g'), needles: made.needles, escapable: made.escapable };
}

/**
 * The finders made, as text, by kind and values: the mock's redactors (its log, journal, admin answers,
 * Errors) each know the same keys, and a key of 7,700 characters took 0.17 s to make each one's 3 MB of
 * patterns. Text only, bounded in characters: a RegExp holds the code V8 compiles for it (some 45 bytes a
 * character), which is each redactor's own to hold, or drop.
 */
const madeFinders = new Map<string, (Omit<SecretFinder, 'pattern'> & { readonly source: string }) | null>();
let madeChars = 0;
const MADE_FINDERS_CHARS = 8 * 1024 * 1024;

function madeFinder(values: readonly string[], kind: SecretKind): (Omit<SecretFinder, 'pattern'> & { readonly source: string }) | null {
  const forms = values.flatMap((value) =>
    kind === 'long' ? longForms(value) : kind === 'long-halves' ? halfForms(value) : shortForms(value, kind === 'short-token'),
  );
  if (forms.length === 0) return null;
  const alternatives = [...new Map(forms.map((form) => [form.pattern, form.text.length]))].sort(([, a], [, b]) => b - a).map(([pattern]) => pattern);
  const needles = forms.map((form) => form.needle);
  return {
    source: alternatives.join('|'),
    needles: needles.every((needle) => needle !== undefined) ? [...new Set(needles)] : undefined,
    escapable: needles.some((needle) => needle?.includes('%') === true || needle?.includes('\\') === true),
  };
}

/**
 * A text as `mayHold` reads it, folded (`foldedForNeedles`): as it is, and, when it has an escape (`%` or
 * `\\`, with which any character of a form may be written), once more with every escape a form's pattern
 * reads undone (`escapesUndone`), so that such a text is searched only where a needle says it may hold a form.
 */
export interface FoldedText {
  readonly plain: string;
  readonly unescaped: string | undefined;
}

/**
 * The escapes `characterPattern` reads, each undone into the character it stands for: a byte percent-encoded
 * any number of times (`%41`, `%2541`), a UTF-16 unit as `\\uXXXX` behind any number of backslashes, JSON's
 * short escapes. A form of a needle (ASCII only, without `%` or `\\`) written with them is its needle once
 * they are undone. Read in one pass, character by character (`TextBuilder`): a global pattern with a
 * replacer held every match of a 4 MB text of `%41` at once (300 MB).
 * As `text.replace(/%(?:25)*([0-9a-fA-F]{2})|\\+[uU]([0-9a-fA-F]{4})|\\+([bfnrt/"\\])/g, …)` would.
 */
export function escapesUndone(text: string): string {
  const made = new TextBuilder(text.length);
  for (let at = 0; at < text.length; ) {
    const code = text.charCodeAt(at);
    // An escape is its length and its character's code in one number (`escaped`): no array made for each of a million.
    const found = code === PERCENT ? percentEscape(text, at) : code === BACKSLASH ? backslashEscape(text, at) : 0;
    made.unit(found === 0 ? code : found % 0x10000);
    at += found === 0 ? 1 : Math.floor(found / 0x10000);
  }
  return made.done();
}

const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const SHORT_ESCAPED: Readonly<Record<string, number>> = { b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, '/': 0x2f, '"': 0x22 };

/** An escape of `length` characters that stands for the UTF-16 unit `code`, as one number. */
function escaped(length: number, code: number): number {
  return length * 0x10000 + code;
}

/** The value of a hex digit, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The value of the `digits` hex digits at `at`, or -1 when they are not all hex digits. */
function hexAt(text: string, at: number, digits: number): number {
  let value = 0;
  for (let i = 0; i < digits; i++) {
    const digit = at + i < text.length ? hexDigit(text.charCodeAt(at + i)) : -1;
    if (digit === -1) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * The escape at `at`, a `%`, as `escaped` gives it, or 0 for none. `%` then `25` any number of times then
 * two hex digits; without the digits, the last `25` is them (a `%` escaped), as a pattern backtracks.
 */
function percentEscape(text: string, at: number): number {
  let end = at + 1;
  while (text.startsWith('25', end)) end += 2;
  const byte = hexAt(text, end, 2);
  if (byte !== -1) return escaped(end + 2 - at, byte);
  return end > at + 1 ? escaped(end - at, PERCENT) : 0;
}

/**
 * The escape at `at`, a `\\`, as `escaped` gives it, or 0 for none. A run of backslashes, then `u` and four
 * hex digits, or a short escape's letter; a run of two or more before anything else is a `\\` escaped.
 */
function backslashEscape(text: string, at: number): number {
  let end = at;
  while (text.charCodeAt(end) === BACKSLASH) end++;
  const next = text[end] ?? '';
  if (next === 'u' || next === 'U') {
    const unit = hexAt(text, end + 1, 4);
    if (unit !== -1) return escaped(end + 5 - at, unit);
  }
  const short = SHORT_ESCAPED[next];
  if (short !== undefined) return escaped(end + 1 - at, short);
  return end - at >= 2 ? escaped(end - at, BACKSLASH) : 0;
}

/**
 * Whether a text may hold a form `finder` finds: a needle of it stands in the text as it is, or, when the text
 * has escapes, in the text with them undone; or the finder has no needles, or needles an escape could hide.
 */
export function mayHold(finder: SecretFinder, folded: FoldedText): boolean {
  if (finder.needles === undefined || (folded.unescaped !== undefined && finder.escapable)) return true;
  const { plain, unescaped } = folded;
  return finder.needles.some((needle) => plain.includes(needle) || unescaped?.includes(needle) === true);
}

/** A text folded for `mayHold`. */
export function literalText(text: string): FoldedText {
  const plain = foldedForNeedles(text);
  if (!text.includes('%') && !text.includes('\\')) return { plain, unescaped: undefined };
  return { plain, unescaped: foldedForNeedles(escapesUndone(text)) };
}
