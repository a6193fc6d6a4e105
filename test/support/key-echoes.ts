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
 * `\u` escapes (and those quoted in JSON again, `\\u0067`), base64 and base64url at each of the three offsets (`base64("u:" + key)` as Basic writes
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
    'json \\u escapes, quoted in JSON again': JSON.stringify(jsonUnicodeEscaped(key)).slice(1, -1),
    base64: base64(key),
    'base64 of "u:" + key (Basic)': basic,
    'base64 of "x" + key': base64(`x${key}`),
    'base64 of "xyz" + key + "!"': base64(`xyz${key}!`),
    'base64url of "u:" + key': Buffer.from(`u:${key}`).toString('base64url'),
    'base64 of "u:" + key, percent-encoded': encodeURIComponent(basic),
    hex: Buffer.from(key).toString('hex'),
  };
}

/**
 * The second and third red teams' encodings of a key (issue 34): each one a program may write a key in
 * without being asked. The third's follow from three rules: the key's bytes as a list of numbers in any
 * radix, its characters between a fixed filler, the key in UTF-16. The fourth's: base32hex, 8-digit
 * `\U` escapes, and characters a terminal draws as nothing between the key's (it still reads as the key).
 */
export function layeredKeyEncodings(key: string): Record<string, string> {
  const b64 = (value: string) => Buffer.from(value).toString('base64');
  const hex = (value: string) => Buffer.from(value).toString('hex');
  const characters = [...key];
  return {
    'HTML hex references': characters.map((c) => `&#x${c.codePointAt(0)?.toString(16)};`).join(''),
    'HTML decimal references': characters.map((c) => `&#${c.codePointAt(0)};`).join(''),
    'HTML named references': key.replaceAll('.', '&period;').replaceAll('-', '&hyphen;').replaceAll('_', '&lowbar;'),
    '\\x escapes': characters.map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
    '\\u{} escapes': characters.map((c) => `\\u{${c.codePointAt(0)?.toString(16)}}`).join(''),
    '\\u escapes, upper case': characters.map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(''),
    '%u escapes': characters.map((c) => `%u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    base32: base32(key),
    'base64 of base64': b64(b64(key)),
    'base64 cut in lines': `${b64(key).slice(0, 8)}\n${b64(key).slice(8)}`,
    'base64url of user:key': Buffer.from(`user:${key}`).toString('base64url'),
    'percent-encoded base64 of user:key': encodeURIComponent(b64(`user:${key}`)),
    'hex with colons': [...Buffer.from(key)].map((byte) => byte.toString(16).padStart(2, '0')).join(':'),
    'hex in upper case': hex(key).toUpperCase(),
    'hex of UTF-16': Buffer.from(key, 'utf16le').swap16().toString('hex'),
    'full-width letters': characters.map((c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join(''),
    'dotted letters': characters.join('.'),
    "Node's Buffer as JSON": JSON.stringify(Buffer.from(key)),
    'decimal bytes': [...Buffer.from(key)].join(','),
    '0x bytes': [...Buffer.from(key)].map((byte) => `0x${byte.toString(16)}`).join(','),
    'octal escapes': [...Buffer.from(key)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join(''),
    'CSS escapes': [...Buffer.from(key)].map((byte) => `\\${byte.toString(16).padStart(6, '0')}`).join(''),
    'quoted-printable': [...Buffer.from(key)].map((byte) => `=${byte.toString(16).toUpperCase()}`).join(''),
    'binary bytes': [...Buffer.from(key)].map((byte) => byte.toString(2).padStart(8, '0')).join('.'),
    'base64 of UTF-16': Buffer.from(key, 'utf16le').toString('base64'),
    '\\u0000 between the characters': characters.join('\\u0000'),
    base32hex: base32(key, '0123456789ABCDEFGHIJKLMNOPQRSTUV'),
    '\\U escapes (8 digits)': characters.map((c) => `\\U${c.codePointAt(0)?.toString(16).padStart(8, '0')}`).join(''),
    'zero-width spaces between the characters': characters.join('\u200b'),
    'soft hyphens between the characters': characters.join('\u00ad'),
    'each character struck out (a combining mark)': characters.map((c) => `${c}\u0336`).join(''),
  };
}

/** RFC 4648 base32, or with `alphabet` its base32hex. */
function base32(text: string, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'): string {
  let [bits, value, out] = [0, 0, ''];
  for (const byte of Buffer.from(text)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
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
function decodedRuns(text: string): [run: string, decoded: Buffer][] {
  const decoded: [string, Buffer][] = [];
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{4,}/g)) {
    const standard = run.replaceAll('-', '+').replaceAll('_', '/');
    for (let start = 0; start < 4; start++) {
      const aligned = standard.slice(start, start + Math.floor((standard.length - start) / 4) * 4);
      if (aligned.length >= 4) decoded.push([run, Buffer.from(aligned, 'base64')]);
    }
  }
  for (const [run] of text.matchAll(/[0-9A-Fa-f]{4,}/g))
    for (const start of [0, 1]) decoded.push([run, Buffer.from(run.slice(start, start + Math.floor((run.length - start) / 2) * 2), 'hex')]);
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
    const at = anyCase ? reading.toLowerCase().indexOf(key.toLowerCase()) : reading.indexOf(key);
    if (at !== -1) return `the key, in ${JSON.stringify(reading.slice(Math.max(0, at - 80), at + key.length + 80))}`;
    for (const [run, decoded] of decodedRuns(reading))
      if (holdsBytes(decoded, bytes)) return `the key in base64 or hex, in the run ${JSON.stringify(run.slice(0, 200))}`;
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

/** Session names (`X-Mock-Session`: 1 to 64 of `[A-Za-z0-9._~-]`) that hold `key`: the key, a name around it, base64url of `u:` + key, its hex; those that fit. */
function keySessionNames(key: string): string[] {
  const names = [key, `s-${key}-1`, Buffer.from(`u:${key}`).toString('base64url'), Buffer.from(key).toString('hex')];
  return names.filter((name) => /^[A-Za-z0-9._~-]{1,64}$/.test(name));
}

/** Sends a request and reads its answer whole; what it answers does not matter here. */
async function sent(url: string, init: RequestInit = {}): Promise<string> {
  const response = await fetch(url, init);
  return response.text();
}

/**
 * Sends `key` in each encoding of `keyEncodings` to a mock whose API is at `baseUrl` (ending `/v1`) and
 * that accepts `accepted`: in a query value, a path segment, a create's body (the JSON `\u` encoding as
 * JSON escapes, so the name stored is the key), the `Accept` and `Prefer` headers, and a Basic
 * credential; and as each of `keySessionNames`, with and without the mock's key, to the API and to the
 * admin. Resolves once every answer was read.
 */
export async function sendKeyEverywhere(baseUrl: string, key: string, accepted: string): Promise<void> {
  const origin = new URL(baseUrl).origin;
  const bearer = { authorization: `Bearer ${accepted}` };
  for (const [name, form] of Object.entries(keyEncodings(key))) {
    const inJson = name.startsWith('json') ? form : JSON.stringify(form).slice(1, -1);
    await sent(`${baseUrl}/pets?limit=1&k=${encodeURIComponent(form)}`, { headers: { ...bearer, accept: `application/json;k=${form}`, prefer: `k=${form}` } });
    await sent(`${baseUrl}/pets/${encodeURIComponent(form)}`, { headers: bearer });
    await sent(`${baseUrl}/pets`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: `{"name":"${inJson}","categoryId":1}` });
    await sent(`${origin}/__mock/${encodeURIComponent(form)}`);
  }
  await sent(`${baseUrl}/pets`, { headers: { authorization: `Basic ${Buffer.from(`u:${key}`).toString('base64')}` } });
  for (const session of keySessionNames(key)) {
    const headers = { 'x-mock-session': session };
    await sent(`${baseUrl}/pets?limit=1`, { headers: { ...headers, ...bearer } });
    await sent(`${baseUrl}/pets?limit=1`, { headers });
    await sent(`${origin}/__mock/clock`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"now":"2031-01-01T00:00:00Z"}',
    });
  }
}

/** The admin answers that show what `sendKeyEverywhere` sent: every session's journal, health and clock, the sessions, the coverage, a reset. */
export async function adminAnswers(baseUrl: string, key: string): Promise<string> {
  const origin = new URL(baseUrl).origin;
  const texts = [await sent(`${origin}/__mock/sessions`), await sent(`${origin}/__mock/coverage`), await sent(`${origin}/__mock/requests`)];
  for (const session of keySessionNames(key)) {
    const headers = { 'x-mock-session': session };
    for (const path of ['/__mock/requests', '/__mock/health', '/__mock/clock']) texts.push(await sent(`${origin}${path}`, { headers }));
    texts.push(await sent(`${origin}/__mock/sessions/${session}/reset`, { method: 'POST' }));
  }
  return texts.join('\n');
}
