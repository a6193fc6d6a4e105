/**
 * Thrown for a body whose bytes are not UTF-8. JSON must be UTF-8 (RFC 8259): a body that is not is
 * rejected, never read with U+FFFD in place of what was sent.
 */
export class NotUtf8Error extends Error {
  constructor() {
    super('The body is not UTF-8');
    this.name = 'NotUtf8Error';
  }
}

/**
 * Reads a web stream as UTF-8 text, giving up (and cancelling it) once it passes `maxBytes`. With
 * `strict`, bytes that are not UTF-8 reject with `NotUtf8Error`; without, each becomes U+FFFD.
 */
export async function readLimited(stream: ReadableStream<Uint8Array> | null, maxBytes: number, strict = false): Promise<string | undefined> {
  if (stream === null) return '';
  const decoder = new TextDecoder('utf-8', { fatal: strict });
  const reader = stream.getReader();
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      size += value.byteLength;
      if (size > maxBytes) {
        // Not awaited: a tee'd body (MSW clones every request) settles its cancel only once every
        // branch is cancelled, which may be never; the response must not wait for it.
        reader.cancel().catch(() => {});
        return undefined;
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    // Only a strict decoder throws a TypeError, and only for bytes that are not UTF-8.
    if (!(strict && error instanceof TypeError)) throw error;
    reader.cancel().catch(() => {});
    throw new NotUtf8Error();
  }
}
