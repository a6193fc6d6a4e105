/**
 * The key in every encoding an attacker or a careless client may write it in, and the check that a text
 * holds it in none of them. The check decodes rather than encodes: it percent-decodes and JSON-unescapes
 * the text, then decodes every run of base64 (and base64url, and hex) at each of its alignments and looks
 * for the key's bytes, so it is not the redactor's own method (src/redact/key-patterns.ts, which encodes
 * the key) checked against itself.
 */

const utf8 = new TextEncoder();

function base64(bytes: Uint8Array | string): string {
  return Buffer.from(typeof bytes === 'string' ? utf8.encode(bytes) : bytes).toString('base64');
}

/** Every character of `text` as `\uXXXX`, as a JSON encoder that escapes everything writes it. */
export function jsonUnicodeEscaped(text: string): string {
  return [...text].map((character) => [...character].map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('');
}

/** Every byte of `text` percent-encoded, letters and digits too. */
export function percentEveryByte(text: string): string {
  return [...utf8.encode(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * The key in each encoding, by name: as it is, percent-encoded (the usual way, every byte, twice), JSON
 * `\u` escapes, base64 and base64url at each of the three offsets (`base64("u:" + key)` as Basic writes
 * it, with one or three bytes before it, so that it starts at 1, 2 or 0 modulo 3), and hex.
 */
export function keyEncodings(key: string): Record<string, string> {
  const basic = base64(`u:${key}`);
  return {
    plain: key,
    percent: encodeURIComponent(key),
    'percent every byte': percentEveryByte(key),
    'percent twice': encodeURIComponent(percentEveryByte(key)),
    'json \\u escapes': jsonUnicodeEscaped(key),
    base64: base64(key),
    'base64 of "u:" + key (Basic)': basic,
    'base64 of "x" + key': base64(`x${key}`),
    'base64 of "xyz" + key + "!"': base64(`xyz${key}!`),
    'base64url of "u:" + key': Buffer.from(`u:${key}`).toString('base64url'),
    'base64 of "u:" + key, percent-encoded': encodeURIComponent(basic),
    hex: Buffer.from(key).toString('hex'),
  };
}

/** `text` with every run of `%XX` decoded as UTF-8 (bytes that are not UTF-8 as U+FFFD), `+` as a space when `plus`. */
function percentDecoded(text: string, plus: boolean): string {
  const spaced = plus ? text.replaceAll('+', ' ') : text;
  return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'));
}

/** `text` with every JSON escape (`\uXXXX`, `\/`, `\"`...) read. */
function jsonUnescaped(text: string): string {
  const short: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return text.replace(/\\(?:[uU]([0-9A-Fa-f]{4})|(.))/g, (_, hex: string | undefined, other: string | undefined) =>
    hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (short[other ?? ''] ?? other ?? ''),
  );
}

/** Every way `text` may be read: as it is, percent-decoded (up to three times), JSON-unescaped, and both in either order. */
function readings(text: string): string[] {
  const found = new Set([text]);
  for (let round = 0; round < 3; round++)
    for (const reading of [...found])
      for (const next of [percentDecoded(reading, false), percentDecoded(reading, true), jsonUnescaped(reading)]) found.add(next);
  return [...found];
}

/** Whether the bytes of `decoded` hold `key`'s. */
function holdsBytes(decoded: Buffer, key: Buffer): boolean {
  return decoded.indexOf(key) !== -1;
}

/** Each run of base64 (or base64url) characters in `text`, decoded at each of its four alignments; each run of hex, at both. */
function decodedRuns(text: string): Buffer[] {
  const decoded: Buffer[] = [];
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{4,}/g)) {
    const standard = run.replaceAll('-', '+').replaceAll('_', '/');
    for (let start = 0; start < 4; start++) {
      const aligned = standard.slice(start, start + Math.floor((standard.length - start) / 4) * 4);
      if (aligned.length >= 4) decoded.push(Buffer.from(aligned, 'base64'));
    }
  }
  for (const [run] of text.matchAll(/[0-9A-Fa-f]{4,}/g))
    for (const start of [0, 1]) decoded.push(Buffer.from(run.slice(start, start + Math.floor((run.length - start) / 2) * 2), 'hex'));
  return decoded;
}

/**
 * The way `text` reveals `key`, or `undefined` when it holds it in no encoding: as it is (in any case,
 * for a key of 8 characters or more), or inside any reading of it (percent-decoded, JSON-unescaped), or
 * in base64, base64url or hex at any alignment within such a reading.
 * @example
 * expect(revealsKey(log, key)).toBeUndefined();
 */
export function revealsKey(text: string, key: string): string | undefined {
  const bytes = Buffer.from(key);
  const anyCase = key.length >= 8;
  for (const reading of readings(text)) {
    if (reading.includes(key) || (anyCase && reading.toLowerCase().includes(key.toLowerCase()))) return `the key, in ${JSON.stringify(reading.slice(0, 200))}`;
    for (const decoded of decodedRuns(reading)) if (holdsBytes(decoded, bytes)) return `the key in base64 or hex, in ${JSON.stringify(reading.slice(0, 200))}`;
  }
  return undefined;
}

/** Every encoding of every key `text` reveals, each named, for a test's message; `[]` when it reveals none. */
export function keysRevealed(text: string, keys: readonly string[]): string[] {
  return keys.flatMap((key) => {
    const how = revealsKey(text, key);
    return how === undefined ? [] : [`${key.slice(0, 3)}…: ${how}`];
  });
}
