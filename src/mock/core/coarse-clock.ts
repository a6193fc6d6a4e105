// Node only (node:timers): the browser's MSW host never imports it.
import { setTimeout } from 'node:timers';

/**
 * `read` (the real clock by default) read at most about once a millisecond: the first call reads it,
 * and the calls until a timer forgets that reading get the same one, so a value is never more than a
 * timer's lateness old. For the Node server: there a clock read costs a busy server about a
 * microsecond per request (npm run bench), and getPet looks at the clock on every request, for its
 * sunset. Never for a clock a caller gave, which may move at any moment. The timer is Node's own,
 * unreferenced: it keeps no process alive, and a test's fake timers neither see nor stop it.
 * @example
 * const now = coarseClock();
 * now() === now(); // true, within the same millisecond
 */
export function coarseClock(read: () => number = Date.now): () => number {
  let reading: number | undefined;
  // One timer for the clock's life, set again (`refresh`) for each reading: a timer made per reading
  // cost a busy server an allocation and its checks up to a thousand times a second.
  let timer: NodeJS.Timeout | undefined;
  const forget = () => {
    reading = undefined;
  };
  return () => {
    if (reading === undefined) {
      reading = read();
      if (timer === undefined) timer = setTimeout(forget, 1).unref();
      else timer.refresh();
    }
    return reading;
  };
}
