/**
 * What a header value may hold, stated once for every header any host of the mock writes (the Node
 * server, `--workers`, `--proxy`, MSW and every `fetch` host): RFC 9110 §5.5 lets a field value hold
 * visible ASCII, spaces and tabs inside it, and obs-text that senders must not generate; Node refuses
 * anything past Latin-1 and CR, LF and NUL with a throw (`ERR_INVALID_CHAR`), and `fetch`'s `Headers`
 * likewise. A value built from outside text (a deployment's Content-Type quoted in a violation, a
 * request's header echoed back) once put an excerpt's "…" in `X-Contract-Violation`, and the throw
 * ended the `--proxy` process. Every value passes `headerValue` where the host writes it: a character
 * HTTP forbids is percent-encoded (its UTF-8 bytes, `%E2%80%A6` for "…"), never written raw.
 */

/** A value of visible ASCII with single spaces or tabs inside, no space at either end: written as it is. */
const SAFE_VALUE = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

/** A character a header value may not hold as it is: outside visible ASCII, space and tab. */
const UNSAFE_CHARACTER = /[^\t\x20-\x7e]/gu;

/**
 * Whether `value` goes into a header as it is (RFC 9110 §5.5): a key must, as `fetch` and Node refuse
 * to send anything else and a percent-encoded key is another key.
 */
export function isHeaderValue(value: string): boolean {
  return SAFE_VALUE.test(value);
}

/**
 * Refuses, where it enters, a key option (`createClient`'s and `expectRequests`' `apiKey`) no header can
 * carry: sent, it would come back in fetch's error, the key with it. The sentence never quotes it.
 */
export function checkKeyOption(where: string, key: unknown): void {
  if (key !== undefined && (typeof key !== 'string' || !isHeaderValue(key)))
    throw new TypeError(`${where} is sent in an HTTP header, which carries visible ASCII only: give the key exactly as it was issued (it is not shown here)`);
}

/**
 * `value` as a header may carry it: as it is when it holds only visible ASCII (and spaces or tabs
 * inside); else each other character percent-encoded as its UTF-8 bytes, and spaces at either end
 * dropped (a field value has none, RFC 9110 §5.5).
 * @example
 * headerValue('text/x-a… (300 characters)'); // 'text/x-a%E2%80%A6 (300 characters)'
 */
export function headerValue(value: string): string {
  if (SAFE_VALUE.test(value)) return value;
  return value.replace(UNSAFE_CHARACTER, percentEncoded).replace(/^[\t ]+|[\t ]+$/g, '');
}

/** One character as its UTF-8 bytes percent-encoded; half a surrogate pair, which has no UTF-8, as U+FFFD's. */
function percentEncoded(character: string): string {
  const lone = character.length === 1 && character.charCodeAt(0) >= 0xd800 && character.charCodeAt(0) <= 0xdfff;
  return encodeURIComponent(lone ? '\ufffd' : character);
}

/**
 * Flat header lists made safe where they were made (`vouchedHeaderList`, `withHeader`): headers made
 * once and written for many answers, whose values a host then writes without testing each again (six
 * tests of a regular expression per answer). Such a list is never changed after, but for numbers (its
 * length, which `safeHeaderList` never looks at).
 */
const VOUCHED = new WeakSet<readonly (string | number)[]>();

/** `list` with every value made safe (`safeHeaderList`), known as such from then on: for headers made once for many answers. */
export function vouchedHeaderList(list: (string | number)[]): (string | number)[] {
  const safe = safeHeaderList(list) as (string | number)[];
  VOUCHED.add(safe);
  return safe;
}

/** A copy of `list` with one header more, its value made safe (`headerValue`): known safe when `list` was (a create's `Location`). */
export function withHeader(list: readonly (string | number)[], name: string, value: string): (string | number)[] {
  const longer = list.slice();
  longer.push(name, headerValue(value));
  if (VOUCHED.has(list)) VOUCHED.add(longer);
  return longer;
}

/**
 * A flat header list (`[name, value, name, value, ...]`, the form Node's `writeHead` takes) with every
 * string value made safe by `headerValue`; the same list when every value already was, or when it was
 * made safe where it was made.
 */
export function safeHeaderList(list: readonly (string | number)[]): readonly (string | number)[] {
  if (VOUCHED.has(list)) return list;
  let safe: (string | number)[] | undefined;
  for (let index = 1; index < list.length; index += 2) {
    const value = list[index];
    if (typeof value !== 'string' || SAFE_VALUE.test(value)) continue;
    safe ??= list.slice();
    safe[index] = headerValue(value);
  }
  return safe ?? list;
}

/** Headers by name with every value made safe by `headerValue`; the same record when every value already was. */
export function safeHeaderRecord(record: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let safe: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(record)) {
    if (SAFE_VALUE.test(value)) continue;
    safe ??= { ...record };
    safe[name] = headerValue(value);
  }
  return safe ?? record;
}
