/** What the key is replaced by in everything petstore-verify records: a shell expands it in a pasted curl. */
export const KEY_PLACEHOLDER = '$PETSTORE_API_KEY';

/**
 * Below this length a key turns up by chance (in an id, a port, a count), so it is replaced only
 * where it stands as a token of its own; a longer key is replaced wherever it appears.
 */
const SHORT_KEY_LENGTH = 8;

const ALNUM = /[A-Za-z0-9]/;
const JSON_STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

/** The forms a deployment may echo a key in: as sent, JSON-escaped, URL-encoded, base64. */
function echoForms(key: string): string[] {
  const jsonEscaped = JSON.stringify(key).slice(1, -1);
  const urlEncoded = encodeURIComponent(key);
  const base64 = Buffer.from(key).toString('base64');
  const forms = [
    key,
    jsonEscaped,
    jsonEscaped.replaceAll('/', '\\/'),
    urlEncoded,
    urlEncoded.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
    urlEncoded.replaceAll('%20', '+'),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(key).toString('base64url'),
  ];
  // Longest first, so that a form containing another is replaced whole.
  return [...new Set(forms)].filter((form) => form !== '').sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The key, each character as it is or percent-encoded (its UTF-8 bytes, hex in either case); its last character optional when `prefixToo`. */
function lenientKeyPattern(key: string, prefixToo: boolean): string {
  const characters = [...key].map((character) => {
    const encoded = [...Buffer.from(character, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    return `(?:${escapeRegExp(character)}|${encoded})`;
  });
  if (prefixToo && characters.length > 1) characters[characters.length - 1] = `${characters.at(-1)}?`;
  return characters.join('');
}

/**
 * Removes one known key from what the deployment sent back, in each form it may be echoed in.
 * It is applied where responses are recorded (bodies, headers, the Pact Verifier's mismatch texts),
 * never over a whole report, so a short key cannot mangle URLs or ids the verifier wrote itself.
 */
export class Redactor {
  readonly #pattern: RegExp | undefined;

  constructor(key: string) {
    const short = key.length < SHORT_KEY_LENGTH;
    const alternatives = echoForms(key).map((form) => {
      const before = short && ALNUM.test(form[0] ?? '') ? '(?<![A-Za-z0-9])' : '';
      const after = short && ALNUM.test(form.at(-1) ?? '') ? '(?![A-Za-z0-9])' : '';
      // The key itself is matched with any of its characters percent-encoded, and (when long) without its last one: the near miss the verifier sends.
      const body = form === key && key !== '' ? lenientKeyPattern(key, !short) : escapeRegExp(form);
      return `${before}${body}${after}`;
    });
    // Case-insensitive: an echo of the key upper-cased, or of the near miss with its case changed, reveals it as surely.
    this.#pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join('|'), short ? 'g' : 'gi');
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
    return isJson ? raw.replace(JSON_STRING_LITERAL, (literal) => this.text(literal)) : this.text(raw);
  }

  /** Response headers with every value redacted. */
  headers(headers: Headers): Headers {
    const redacted = new Headers();
    for (const [name, value] of headers) redacted.append(name, this.text(value));
    return redacted;
  }
}
