import { describe, expect, it } from 'vitest';
import { readLimited } from './read-limited.js';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('readLimited', () => {
  it('reads a body up to the limit as text, multi-byte characters split across chunks included', async () => {
    const bytes = new TextEncoder().encode('Zoë');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 3));
        controller.enqueue(bytes.slice(3));
        controller.close();
      },
    });
    expect(await readLimited(stream, 4)).toBe('Zoë');
    expect(await readLimited(null, 4)).toBe('');
  });

  it('gives up past the limit', async () => {
    expect(await readLimited(streamOf('12345', '6'), 5)).toBeUndefined();
  });

  it('gives up past the limit on one branch of a tee, whose cancel waits for the other branch', async () => {
    // A body still arriving, cloned as MSW clones every request.
    const arriving = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new Uint8Array(100)) });
    const [branch] = arriving.tee();
    expect(await readLimited(branch, 10)).toBeUndefined();
  });
});
