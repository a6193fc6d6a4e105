/** Reads a web stream as UTF-8 text, giving up (and cancelling it) once it passes `maxBytes`. */
export async function readLimited(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | undefined> {
  if (stream === null) return '';
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBytes) {
      // Not awaited: a tee'd body (MSW clones every request) settles its cancel only once every
      // branch is cancelled, which may be never; the answer must not wait for it.
      reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}
