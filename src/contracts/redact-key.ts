/** What the key is replaced by in everything petstore-verify records: a shell expands it in a pasted curl. */
export const KEY_PLACEHOLDER = '$PETSTORE_API_KEY';

/**
 * Below this length a key turns up by chance (in an id, a port, a count), so it is replaced only
 * where it stands as a token of its own; a longer key is replaced wherever it appears.
 */
const SHORT_KEY_LENGTH = 8;

const ALNUM = /[A-Za-z0-9]/;
const JSON_STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

/**
 * A half of a long value is redacted on its own only when ordinary text cannot hold it by chance:
 * 8 characters or more, with a letter and a digit. So `sk_live_9fQ2x` is, but `petstore` (the first
 * half of the mock's key `petstore-dev-key`) is a word, and `12345678` could be an id.
 */
function isRandomEnough(part: string): boolean {
  return part.length >= SHORT_KEY_LENGTH && /[A-Za-z]/.test(part) && /[0-9]/.test(part);
}

/** The value split in the middle (both middles when its length is odd), each half that could not be ordinary text. */
function halves(value: string): string[] {
  const cuts = new Set([Math.floor(value.length / 2), Math.ceil(value.length / 2)]);
  return [...cuts].flatMap((cut) => [value.slice(0, cut), value.slice(cut)]).filter(isRandomEnough);
}

/**
 * The forms a deployment may echo a value in: as sent, JSON-escaped, URL-encoded, base64; for a
 * long key also hex (upper case is matched too: a long key's pattern ignores case) and its halves.
 * A short key's hex (`31` for `1`) or halves would turn up in any count or date.
 */
function echoForms(value: string, long: boolean): string[] {
  const jsonEscaped = JSON.stringify(value).slice(1, -1);
  const urlEncoded = encodeURIComponent(value);
  const bytes = Buffer.from(value);
  const base64 = bytes.toString('base64');
  return [
    value,
    jsonEscaped,
    jsonEscaped.replaceAll('/', '\\/'),
    urlEncoded,
    urlEncoded.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
    urlEncoded.replaceAll('%20', '+'),
    base64,
    base64.replace(/=+$/, ''),
    bytes.toString('base64url'),
    ...(long ? [bytes.toString('hex'), ...halves(value)] : []),
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The value, each character as it is or percent-encoded (its UTF-8 bytes, hex in either case); its last character optional when `prefixToo`. */
function lenientPattern(value: string, prefixToo: boolean): string {
  const characters = [...value].map((character) => {
    const encoded = [...Buffer.from(character, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    return `(?:${escapeRegExp(character)}|${encoded})`;
  });
  if (prefixToo && characters.length > 1) characters[characters.length - 1] = `${characters.at(-1)}?`;
  return characters.join('');
}

/**
 * One regular expression for every form of every known value, longest form first, so that a form
 * containing another (the near miss `<key>x` contains the key) is replaced whole.
 */
function patternOf(values: readonly string[], short: boolean): RegExp | undefined {
  const forms = new Map<string, boolean>();
  for (const value of values) for (const form of echoForms(value, !short)) if (form !== '') forms.set(form, forms.get(form) === true || form === value);
  const alternatives = [...forms]
    .sort(([a], [b]) => b.length - a.length)
    .map(([form, isValue]) => {
      const before = short && ALNUM.test(form[0] ?? '') ? '(?<![A-Za-z0-9])' : '';
      const after = short && ALNUM.test(form.at(-1) ?? '') ? '(?![A-Za-z0-9])' : '';
      // A value itself is matched with any of its characters percent-encoded, and (when long) without its last one: the near miss the verifier sends.
      return `${before}${isValue ? lenientPattern(form, !short) : escapeRegExp(form)}${after}`;
    });
  // Case-insensitive: an echo of the key upper-cased, or of the near miss with its case changed, reveals it as surely.
  return alternatives.length === 0 ? undefined : new RegExp(alternatives.join('|'), short ? 'g' : 'gi');
}

/**
 * Removes the key from what the deployment sent back, in each form it may be echoed in, and every
 * near miss of it the verifier built and sent (`know`), in the same forms.
 * It is applied where responses are recorded (bodies, headers, the Pact Verifier's mismatch texts),
 * never over a whole report, so a short key cannot mangle URLs or ids the verifier wrote itself.
 */
export class Redactor {
  /** Whether the key is short: then every value is replaced only as a token of its own, and in fewer forms. */
  readonly #short: boolean;
  /** The key, then each value made from it that the verifier sent. */
  readonly #values: string[];
  #pattern: RegExp | undefined;

  constructor(key: string) {
    this.#short = key.length < SHORT_KEY_LENGTH;
    this.#values = [key];
    this.#pattern = patternOf(this.#values, this.#short);
  }

  /**
   * A value made from the key that the verifier sends (a near miss: the key with a suffix, its case
   * changed, under Basic): the deployment may echo it, and it reveals the key, so it is redacted too.
   */
  know(value: string): void {
    if (value === '' || this.#values.includes(value)) return;
    this.#values.push(value);
    this.#pattern = patternOf(this.#values, this.#short);
  }

  /** A piece of text the deployment sent: a header value, a message, a body that is not JSON. */
  text(value: string): string {
    return this.#pattern ? value.replace(this.#pattern, KEY_PLACEHOLDER) : value;
  }

  /**
   * A body: in JSON only the string literals are touched (a key `1` must not turn `"id": 1` into
   * something that no longer parses); any other body is redacted as text.
   */
  body(raw: string, isJson: boolean): string {
    // Most bodies echo nothing: one scan says so, and the body is kept as it is, not copied (a copy of a
    // body of megabytes per answer is what a deployment answering them would make the verifier hold).
    if (this.#pattern === undefined || raw.search(this.#pattern) < 0) return raw;
    return isJson ? raw.replace(JSON_STRING_LITERAL, (literal) => this.text(literal)) : this.text(raw);
  }

  /** Response headers with every value redacted. */
  headers(headers: Headers): Headers {
    const redacted = new Headers();
    for (const [name, value] of headers) redacted.append(name, this.text(value));
    return redacted;
  }
}
