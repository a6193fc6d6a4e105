import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LINE_WRITE_MS, lineWriter, MAX_UNSENT_LOG_BYTES } from './line-writer.js';

describe('lineWriter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the lines of a burst in one write, in order, once LINE_WRITE_MS has passed', () => {
    const writes: string[] = [];
    const log = lineWriter((text) => writes.push(text));
    for (const n of [1, 2, 3]) log.line(`GET /v1/pets/${n} 200 0.1ms`);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(LINE_WRITE_MS);
    expect(writes).toEqual(['GET /v1/pets/1 200 0.1ms\nGET /v1/pets/2 200 0.1ms\nGET /v1/pets/3 200 0.1ms\n']);
    log.line('next');
    vi.advanceTimersByTime(LINE_WRITE_MS);
    expect(writes).toEqual([writes[0], 'next\n']);
  });

  it('writes at once what reaches the size limit, and on flush what waits; never an empty write', () => {
    const writes: string[] = [];
    const log = lineWriter((text) => writes.push(text), LINE_WRITE_MS, 10);
    log.line('12345');
    log.line('67890');
    expect(writes).toEqual(['12345\n67890\n']);
    log.line('last');
    log.flush();
    log.flush();
    vi.advanceTimersByTime(LINE_WRITE_MS);
    expect(writes).toEqual(['12345\n67890\n', 'last\n']);
  });

  it('drops lines while its reader leaves over MAX_UNSENT_LOG_BYTES untaken, and says how many once it takes them again', () => {
    const writes: string[] = [];
    let unsent = MAX_UNSENT_LOG_BYTES + 1;
    const log = lineWriter(
      (text) => writes.push(text),
      LINE_WRITE_MS,
      10,
      () => unsent,
    );
    log.line('first 1');
    log.line('first 2');
    log.line('second');
    log.flush();
    expect(writes).toEqual([]);
    unsent = 0;
    log.line('after');
    log.flush();
    expect(writes).toEqual([
      `petstore-mock: 3 line(s) of the log dropped: stderr was not read (over ${MAX_UNSENT_LOG_BYTES} bytes waited for its reader)\nafter\n`,
    ]);
  });
});
