/**
 * How many bytes the text of a value takes in JSON, as UTF-8 with its escapes: its strings and its
 * members' names, however deep (numbers and literals aside). A record is held to a byte bound (what a
 * create accepts, what an answer holds) by this, not by its characters: a million U+0001 are a million
 * characters and six million bytes answered.
 * @example
 * jsonTextBytes({ name: 'Rex' }); // 11: "name" and "Rex", quotes included
 */
export function jsonTextBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value !== 'object' || value === null) return 0;
  let bytes = 0;
  for (const key in value) bytes += stringBytes(key) + jsonTextBytes((value as Record<string, unknown>)[key]);
  return bytes;
}

/** The bytes of one JSON string, quotes and escapes included, as `JSON.stringify` writes it in UTF-8. */
function stringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) bytes += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}
