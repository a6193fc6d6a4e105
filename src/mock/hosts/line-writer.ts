/**
 * Lines gathered and written together: at most one write every `everyMs` milliseconds, or as soon as
 * `maxChars` characters wait, always in the order they came. A write to a pipe or a terminal is a
 * system call, which per line cost a logged request more than the rest of its log.
 * @example
 * const log = lineWriter((text) => process.stderr.write(text));
 * log.line('GET /v1/pets 200 0.4ms'); // written within LINE_WRITE_MS
 * log.flush(); // now, before the process exits
 */
export interface LineWriter {
  /** Queues `line` (without its newline). */
  line(line: string): void;
  /** Writes every line still waiting, now. */
  flush(): void;
}

/** How long a line of the log may wait for the lines after it: unnoticeable to a reader. */
export const LINE_WRITE_MS = 10;

/** How many characters may wait before they are written at once: a burst never holds much memory. */
const MAX_WAITING_CHARS = 64 * 1024;

export function lineWriter(write: (text: string) => void, everyMs = LINE_WRITE_MS, maxChars = MAX_WAITING_CHARS): LineWriter {
  let waiting = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (waiting === '') return;
    const text = waiting;
    waiting = '';
    write(text);
  };
  return {
    line(line) {
      waiting += `${line}\n`;
      if (waiting.length >= maxChars) flush();
      else if (timer === undefined) {
        timer = setTimeout(flush, everyMs);
        // Lines waiting never keep a process alive that has nothing else to do: `flush` at exit writes them.
        timer.unref();
      }
    },
    flush,
  };
}
