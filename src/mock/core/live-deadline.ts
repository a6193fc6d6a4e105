/**
 * A deadline for an answer from another process (Redis, another replica) that does not count the time
 * this process could not have read it. When the event loop is blocked (a large journal read being made,
 * on a loaded machine), a timer due meanwhile runs as soon as it is free, before the loop reads the
 * sockets, where the answer may have been waiting all along: ten reads at once of a journal at its
 * bound with `--workers 2` were half of them a 503 saying a replica did not answer, though both had.
 * So a deadline that finds it ran late gives the loop as long again (at most `ms`, `EXTENSIONS` times):
 * an answer that came meanwhile is read; one that never comes still ends the wait.
 */

/** How late a timer may run before the loop counts as having been blocked, in milliseconds. */
const SLACK_MS = 100;
/** How many times a deadline is moved for its process's own stalls: the wait is at most `(1 + EXTENSIONS) * ms`. */
const EXTENSIONS = 3;

/** The longest a deadline of `ms` may wait, its extensions for stalls included: the bound for a timer that cannot tell a stall (ioredis's own). */
export function longestWait(ms: number): number {
  return (1 + EXTENSIONS) * ms;
}

/** A pending deadline: `clear` it once its answer comes. */
export interface LiveDeadline {
  clear(): void;
}

/**
 * Calls `expire` once `ms` have passed in which this process could have read an answer.
 * @example
 * const deadline = liveDeadline(3_000, () => reject(new Error('no answer within 3 s')));
 * reply.then(() => deadline.clear());
 */
export function liveDeadline(ms: number, expire: () => void): LiveDeadline {
  let due = performance.now() + ms;
  let extensions = 0;
  const check = () => {
    const now = performance.now();
    const late = now - due;
    if (late > SLACK_MS && extensions < EXTENSIONS) {
      extensions++;
      const more = Math.min(late, ms);
      due = now + more;
      timer = setTimeout(check, more);
      return;
    }
    expire();
  };
  let timer = setTimeout(check, ms);
  return { clear: () => clearTimeout(timer) };
}
