/**
 * The one redactor of the package: the mock (its request log, journal, admin answers, the proxy's answers,
 * `--record` files, drift log) and the verifier (every report, the HAR) hide their keys with it, so that
 * a form of a key one of them finds, the other finds too. See key-patterns.ts for the forms.
 */
import { decodedForms, INVISIBLE } from './decoded-forms.js';
import { replaceEach } from './each-match.js';
import { type FoldedText, literalText, mayHold, type SecretFinder, type SecretKind, SHORT_SECRET_LENGTH, secretFinder } from './key-patterns.js';

const JSON_STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

/** How many characters of strings `parsedBody` remembers the verdict of, in all and for one string. */
const HELD_STRINGS_CHARS = 8 * 1024 * 1024;
const HELD_STRING_CHARS = 64 * 1024;

/**
 * The texts `text()` remembers its answer for: the short ones (a header value, a word of a line), which a
 * run or a journal writes again and again (`application/json`, a date, `keep-alive` on every answer).
 * At most so many, so that what they hold (a short text may be a slice of a long one) stays bounded.
 */
const SHOWN_TEXT_CHARS = 128;
const SHOWN_TEXTS = 2_048;

/**
 * A word of a text as the decoded forms are looked for in it: what stands between blanks, quotes and
 * angle brackets. U+FEFF, which JavaScript counts as a blank, is drawn as nothing: it joins a word.
 */
const WORD = /(?:[^\s"'<>`]|\uFEFF)+/g;

/** A text of ASCII only. */
const ASCII = /^[\0-\x7f]*$/;

/** One character drawn as nothing (decoded-forms.ts `INVISIBLE`), to test a text for. */
const HAS_INVISIBLE = new RegExp(INVISIBLE.source, 'u');

/** The longest value found whole; a longer one is found as its windows of this many characters (`#add`). */
const LONGEST_VALUE_CHARS = 512;

/** How a redactor shows what it hides, and where it looks for a short secret. */
export interface KeyRedactorOptions {
  /** What replaces a secret; default `***`. */
  readonly placeholder?: string;
  /**
   * Whether a secret shorter than 8 characters is found only where it stands as a token of its own
   * (not inside a word or a number); default false: anywhere.
   */
  readonly shortAsToken?: boolean;
}

/**
 * Finds secrets (keys, and values made from them) in a text in any form, and replaces each with a
 * placeholder: `***` by default, `$PETSTORE_API_KEY` in the verifier's reports.
 * @example
 * const redactor = new KeyRedactor(['s3cret-k3y']);
 * redactor.text(`Basic ${btoa('user:s3cret-k3y')}`); // 'Basic dXNlcj***', no form of the key left
 * redactor.holds('%73%33cret-k3y'); // true
 */
export class KeyRedactor {
  readonly #placeholder: string;
  readonly #shortKind: SecretKind;
  readonly #values: string[] = [];
  /**
   * One pattern per long value, the longest value's first, then one of every value's halves: a value
   * known later may hold another's forms (a near miss `<key>x`, `base64("<key>:")` holds the key's
   * base64), and a form that may stop short of its end would otherwise stop inside the longer value's
   * and leave its last characters behind.
   */
  #long: SecretFinder[] = [];
  #short: SecretFinder | undefined;
  /** The placeholder and the rest of the word it stands in, placeholders after it included. */
  readonly #rest: RegExp;
  /** The long values lower-cased, each whole and without its first or last character: what a decoded text is searched for. */
  #decodedNeedles: string[] = [];
  /** Whether each string of a parsed body seen since the last secret was added holds one (`parsedBody`). */
  readonly #heldStrings = new Map<string, boolean>();
  #heldChars = 0;
  /** Whether a value was longer than `LONGEST_VALUE_CHARS`, and so is found as its parts. */
  #parted = false;
  /** A run of a word's characters right before a placeholder, and right after one (`#keyPiece` says how much of each is a key's). */
  readonly #before: RegExp;
  readonly #after: RegExp;
  /** The finders of the values known, by kind and value (`#finder`). */
  readonly #finders = new Map<string, SecretFinder | undefined>();
  /** What `text()` gave each short text since the last secret was added. */
  readonly #shownTexts = new Map<string, string>();
  /**
   * The last text whose decoded forms held no secret: the journal asks again of the text `text()` gave it
   * (`holds`), and the forms of a body of megabytes are most of what redacting it costs. One text, no more.
   */
  #decodedClean: string | undefined;

  constructor(secrets: readonly (string | undefined)[], options: KeyRedactorOptions = {}) {
    this.#placeholder = options.placeholder ?? '***';
    const placeholder = this.#placeholder.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&');
    // The rest of the word, and the placeholders of a long key's windows, side by side: one placeholder.
    this.#rest = new RegExp(`${placeholder}(?:[0-9A-Za-z=]|${placeholder})+`, 'g');
    // Each from where a run starts, lazily: a run of a megabyte is read once, not once a position.
    this.#before = new RegExp(`(?<![^\\s"'<>\`])[^\\s"'<>\`]+?(?=${placeholder})`, 'g');
    this.#after = new RegExp(`(?<=${placeholder})[^\\s"'<>\`]+`, 'g');
    this.#shortKind = options.shortAsToken === true ? 'short-token' : 'short';
    for (const secret of secrets) if (secret !== undefined && secret !== '') this.#add(secret);
    this.#compile();
  }

  /**
   * Keeps `value` as one of the values whose forms are found, or, past `LONGEST_VALUE_CHARS`, as its
   * windows: a pattern grows faster than its value (4,000 characters took 4 s to compile, and 4,700 were
   * more than a regular expression may hold: the CLIs died at start with the key in hex in the stack).
   * Each window of a long key is as unique as a key, and every form of the whole holds every window's.
   * A window is a part of the value: the value is `value.length / 512` parts, rounded up, of equal length.
   */
  #add(value: string, hidden?: (window: string) => boolean): boolean {
    // Parts of equal length side by side, each over half the longest: found one after another, none is cut
    // short by the one before (a part shorter than a long secret would be found anywhere, as a short one is).
    const parts = Math.ceil(value.length / LONGEST_VALUE_CHARS);
    const size = Math.ceil(value.length / parts);
    const windows = Array.from({ length: parts }, (_, i) => value.slice(i * size, (i + 1) * size));
    if (parts > 1) this.#parted = true;
    const before = this.#values.length;
    for (const window of windows) if (!this.#values.includes(window) && hidden?.(window) !== true) this.#values.push(window);
    return this.#values.length > before;
  }

  /**
   * Adds a value made from a secret that reveals it (a near miss the verifier sends: the key with a
   * suffix, under Basic), to be found in every form as the secrets are.
   */
  know(value: string): void {
    if (value === '') return;
    // A long value's parts that hold a part of a secret known already, in any case (a long key's near misses:
    // its case changed, a character more or less), would add only patterns, some 100 KB each, that V8 compiles.
    const hidden =
      value.length > LONGEST_VALUE_CHARS ? (window: string) => this.#decodedNeedles.some((needle) => window.toLowerCase().includes(needle)) : undefined;
    // Compiled again only when it adds a value: the verifier makes each near miss once an operation.
    if (this.#add(value, hidden)) this.#compile();
  }

  /**
   * `text` with every form of every secret replaced by the placeholder. A long form takes with it the
   * rest of the word it ends in (letters, digits and base64's padding): a form found a
   * character short of its end (a near miss, a base64 window) leaves no part of it beside the placeholder.
   */
  text(text: string): string {
    if (text.length > SHOWN_TEXT_CHARS)
      return this.#checked(
        () => this.#shown(text),
        () => this.#withheld(text),
      );
    let shown = this.#shownTexts.get(text);
    if (shown === undefined) {
      shown = this.#checked(
        () => this.#shown(text),
        () => this.#withheld(text),
      );
      if (this.#shownTexts.size >= SHOWN_TEXTS) this.#shownTexts.clear();
      this.#shownTexts.set(text, shown);
    }
    return shown;
  }

  /**
   * `work`, or `otherwise` when V8's regular expressions run out of stack on it: a run of some millions of
   * characters without a break (an 8 MB name a variant's body limit let in) overflowed it, and the throw
   * in the journal's step ended the mock. The redactor never throws and never shows what it could not check.
   */
  #checked<T>(work: () => T, otherwise: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof RangeError) return otherwise();
      throw error;
    }
  }

  /** What is shown of a text too long to check: the placeholder and its length, nothing of it. */
  #withheld(text: string): string {
    return `${this.#placeholder} (${text.length} characters withheld: too long to check for the key)`;
  }

  /** `text()`, worked out. */
  #shown(text: string): string {
    // A key with characters drawn as nothing between its own reads as the key, and no pattern finds it whole:
    // each word that holds one so goes whole first, before a pattern for a half of it hides that half and leaves the rest.
    let shown = text;
    if (HAS_INVISIBLE.test(text)) {
      shown = replaceEach(text, WORD, ([word]) => (HAS_INVISIBLE.test(word) && this.#decodedHolds(word) ? this.#placeholder : word));
      // A key that spans words (it holds a quote) goes with the whole text, as one under layers does below.
      if (this.#decodedHolds(shown)) return this.#placeholder;
    }
    const before = shown;
    // Each pattern only where its needles say it may find something; the text is folded again once it changed.
    let literal = literalText(shown);
    for (const finder of this.#long) {
      if (!mayHold(finder, literal)) continue;
      const replaced = shown.replace(finder.pattern, this.#placeholder);
      if (replaced !== shown) [shown, literal] = [replaced, literalText(replaced)];
    }
    if (shown !== before) {
      shown = shown.replace(this.#rest, this.#placeholder);
      // A long key is found as its parts and their halves: a piece of it cut inside a half leaves the rest of
      // that half before the placeholder, up to 255 characters of the key. What of it stands there goes too.
      if (this.#parted) {
        shown = replaceEach(shown, this.#before, ([run]) => run.slice(0, run.length - this.#keyPiece(run, 'end')));
        shown = replaceEach(shown, this.#after, ([run]) => run.slice(this.#keyPiece(run, 'start')));
      }
      literal = literalText(shown);
    }
    if (this.#short && mayHold(this.#short, literal)) shown = shown.replace(this.#short.pattern, this.#placeholder);
    // What is left holds a long secret only under layers of encoding (decoded-forms.ts): each word that
    // does goes whole, and the whole text when only words together do.
    if (this.#decodedHolds(shown)) {
      shown = replaceEach(shown, WORD, ([word]) => (this.#decodedHolds(word) ? this.#placeholder : word));
      if (this.#decodedHolds(shown)) return this.#placeholder;
    }
    return shown;
  }

  /**
   * How many characters at the `end` of `run` (before a placeholder; 0, or 8 or more: fewer, ordinary text
   * holds by chance), or at its `start` (after one, where the rest of the word goes anyway), are a piece of a
   * long secret, in any case. Such a piece is a piece of one value's part, and each shorter one at the same
   * side is a piece too: the longest is found by halving.
   */
  #keyPiece(run: string, side: 'start' | 'end'): number {
    const lower = run.toLowerCase();
    const piece = (length: number) => (side === 'end' ? lower.slice(lower.length - length) : lower.slice(0, length));
    const isPiece = (length: number) => this.#decodedNeedles.some((needle) => needle.includes(piece(length)));
    const least = side === 'end' ? SHORT_SECRET_LENGTH : 1;
    if (run.length < least || !isPiece(least)) return 0;
    // A piece of a part is no longer than the part.
    let [longest, tooLong] = [least, Math.min(run.length, LONGEST_VALUE_CHARS) + 1];
    while (tooLong - longest > 1) {
      const middle = Math.floor((longest + tooLong) / 2);
      if (isPiece(middle)) longest = middle;
      else tooLong = middle;
    }
    return longest;
  }

  /** Whether `text` holds a secret in any form `text()` replaces. */
  holds(text: string): boolean {
    // What cannot be checked is taken to hold one: `text()` then withholds it.
    return this.#checked(
      () => {
        const literal = literalText(text);
        return this.#long.some((finder) => found(finder, text, literal)) || found(this.#short, text, literal) || this.#decodedHolds(text);
      },
      () => true,
    );
  }

  /** Whether a text `text` stands for, once layers of encoding are undone, holds a long secret (or all of it but an end character). */
  #decodedHolds(text: string): boolean {
    if (this.#decodedNeedles.length === 0 || text === this.#decodedClean) return false;
    // Every layer makes a text of ASCII shorter (escapes, base64, hex, numbers, separators): one shorter than the
    // shortest needle holds none in any form. A text of a million words is that many of them.
    if (text.length < SHORT_SECRET_LENGTH - 1 && ASCII.test(text)) return false;
    const holds = decodedForms(text).some((form) => {
      const lower = form.toLowerCase();
      return this.#decodedNeedles.some((needle) => lower.includes(needle));
    });
    if (!holds) this.#decodedClean = text;
    return holds;
  }

  /**
   * A body: in JSON only the string literals are touched (a key `1` must not turn `"id": 1` into
   * something that no longer parses); any other body is redacted as text.
   */
  body(raw: string, isJson: boolean): string {
    // Most bodies echo nothing: one scan says so, and the body is kept as it is, not copied (a copy of a
    // body of megabytes per answer is what a deployment answering them would make the verifier hold).
    if (!this.holds(raw)) return raw;
    if (!isJson) return this.text(raw);
    return this.#checked(
      () => replaceEach(raw, JSON_STRING_LITERAL, ([literal]) => this.#literal(literal)),
      () => this.#withheld(raw),
    );
  }

  /**
   * A JSON string literal redacted: as text, escapes and all; or, when it stands for characters drawn as
   * nothing (`\u200b`, which a JSON viewer draws as nothing), as the string it stands for, written again.
   */
  #literal(literal: string): string {
    if (literal.includes('\\u')) {
      const value = parsedLiteral(literal);
      if (value !== undefined && HAS_INVISIBLE.test(value)) {
        const shown = this.text(value);
        return shown === value ? literal : JSON.stringify(shown);
      }
    }
    return this.text(literal);
  }

  /**
   * A JSON body whose parsed value is at hand, as `body(raw, true)` returns it. `body` touches only the
   * string literals, so a secret it would hide stands in the strings of `value` (member names and
   * values, escapes undone, which only makes a form plainer): those are what is scanned, each distinct
   * one once (a page repeats its member names and statuses on every item), and only a body that holds
   * one is scanned whole.
   */
  parsedBody(raw: string, value: unknown): string {
    for (const string of distinctStrings(value)) if (this.#holdsString(string)) return this.body(raw, true);
    return raw;
  }

  /** `holds`, remembered for each string until a secret is added: the pages of a run list the same strings again and again. */
  #holdsString(string: string): boolean {
    // A long string is scanned each time: kept, it (or the text it was sliced from) held hundreds of MB beside a deployment answering 5 MB names.
    if (string.length > HELD_STRING_CHARS) return this.holds(string);
    let holds = this.#heldStrings.get(string);
    if (holds === undefined) {
      holds = this.holds(string);
      this.#heldChars += string.length;
      // Bounded in characters: past the bound the strings are forgotten, not kept.
      if (this.#heldChars > HELD_STRINGS_CHARS) {
        this.#heldStrings.clear();
        this.#heldChars = string.length;
      }
      this.#heldStrings.set(string, holds);
    }
    return holds;
  }

  /** Headers with every value redacted. */
  headers(headers: Headers): Headers {
    const redacted = new Headers();
    for (const [name, value] of headers) redacted.append(name, this.text(value));
    return redacted;
  }

  /**
   * The finder of one value's forms, made once: a near miss told later makes the finders again, and a long
   * key's are long (7,700 characters: 3 MB of patterns, made in about a second).
   */
  #finder(value: string, kind: 'long' | 'long-halves'): SecretFinder | undefined {
    const key = `${kind}:${value}`;
    if (!this.#finders.has(key)) this.#finders.set(key, secretFinder([value], kind));
    return this.#finders.get(key);
  }

  #compile(): void {
    this.#decodedClean = undefined;
    this.#heldStrings.clear();
    this.#heldChars = 0;
    this.#shownTexts.clear();
    const long = this.#values.filter((value) => value.length >= SHORT_SECRET_LENGTH).sort((a, b) => b.length - a.length);
    // The halves last: a half of a longer value may stand inside a shorter one's form, and hiding it
    // first would leave the rest of that form behind. A pattern for each value's halves, not one for all:
    // V8 compiles a pattern in time that grows faster than its length (a long key's 16 parts: 5.5 s in one
    // pattern, 0.6 s in 16), and every value's patterns are made once (`secretFinder`).
    this.#long = [...long.map((value) => this.#finder(value, 'long')), ...long.map((value) => this.#finder(value, 'long-halves'))].filter(
      (finder) => finder !== undefined,
    );
    this.#decodedNeedles = [...new Set(long.flatMap((value) => [value, value.slice(1), value.slice(0, -1)].map((needle) => needle.toLowerCase())))];
    this.#short = secretFinder(
      this.#values.filter((value) => value.length < SHORT_SECRET_LENGTH),
      this.#shortKind,
    );
  }
}

/** The distinct strings of a parsed JSON value, member names included. */
function distinctStrings(value: unknown): Set<string> {
  const strings = new Set<string>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') strings.add(item);
    else if (Array.isArray(item)) for (const element of item) pending.push(element);
    else if (item !== null && typeof item === 'object') {
      for (const [name, member] of Object.entries(item)) {
        strings.add(name);
        pending.push(member);
      }
    }
  }
  return strings;
}

/** The string a JSON string literal stands for, or `undefined` for one JSON does not read (a `\x` escape). */
function parsedLiteral(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `finder` finds a form in `text` (`literal`: the text as `literalText` gives it). */
function found(finder: SecretFinder | undefined, text: string, literal: FoldedText): boolean {
  if (finder === undefined || !mayHold(finder, literal)) return false;
  // `replace`, not `test`: V8 compiles a global pattern to machine code for `replace` at once, and ran a long
  // key's patterns in its interpreter for `test`, 0.3 s a short text each time (a mock with a key of 7,700
  // characters answered the verifier's requests after its 10 s timeout).
  let result = false;
  text.replace(finder.pattern, (match) => {
    result = true;
    return match;
  });
  return result;
}

/**
 * The secrets an `Authorization` value holds, whatever its scheme: the credential after the scheme
 * (the whole value when it has none), and for Basic its decoded `user:password` and the password.
 * @example
 * credentialSecrets(`Basic ${btoa('u:k3y')}`); // ['dTprM3k=', 'u:k3y', 'k3y']
 */
export function credentialSecrets(authorization: string | undefined): string[] {
  if (authorization === undefined) return [];
  const value = authorization.trim();
  const space = value.search(/\s/);
  const credential = space === -1 ? value : value.slice(space).trim();
  const secrets = credential === '' ? [] : [credential];
  if (space !== -1 && /^basic$/i.test(value.slice(0, space))) {
    const decoded = decodedBase64(credential);
    const colon = decoded?.indexOf(':') ?? -1;
    if (decoded !== undefined && decoded !== '') secrets.push(decoded);
    if (decoded !== undefined && colon !== -1 && colon < decoded.length - 1) secrets.push(decoded.slice(colon + 1));
  }
  return secrets;
}

/** Base64 decoded as UTF-8 text, or `undefined` when it is not base64 of text. */
function decodedBase64(text: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (character) => character.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
