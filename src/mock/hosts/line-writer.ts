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

/**
 * The most bytes written and not yet taken by the reader of the log (a pipe nobody drains: a paused
 * `| less`, a supervisor that reads only stdout) before lines are dropped instead of kept: the mock
 * once kept every line, 93 MiB more for 120 MB of log. The drop is said once the reader takes bytes again.
 */
export const MAX_UNSENT_LOG_BYTES = 1024 * 1024;

/**
 * `write` gets the lines; `unsent` says how many bytes it holds that its reader has not taken yet
 * (`process.stderr.writableLength`): past `MAX_UNSENT_LOG_BYTES`, lines are counted and dropped.
 */
export function lineWriter(write: (text: string) => void, everyMs = LINE_WRITE_MS, maxChars = MAX_WAITING_CHARS, unsent: () => number = () => 0): LineWriter {
  let waiting = '';
  let waitingLines = 0;
  let dropped = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (waiting === '') return;
    const text = waiting;
    const lines = waitingLines;
    waiting = '';
    waitingLines = 0;
    if (unsent() > MAX_UNSENT_LOG_BYTES) {
      dropped += lines;
      return;
    }
    const said =
      dropped === 0
        ? ''
        : `petstore-mock: ${dropped} line(s) of the log dropped: stderr was not read (over ${MAX_UNSENT_LOG_BYTES} bytes waited for its reader)\n`;
    dropped = 0;
    write(said + text);
  };
  return {
    line(line) {
      waiting += `${line}\n`;
      waitingLines++;
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
