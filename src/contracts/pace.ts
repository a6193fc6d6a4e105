import { DeadlineError } from '../errors.js';

export interface PacerOptions {
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Requests started per second at most; default unlimited. */
  readonly rps?: number | undefined;
  /** Ends every wait at once when it aborts, so a slow --rps cannot outlive --deadline. */
  readonly deadline?: AbortSignal | undefined;
}

/**
 * How the verifier's waits (the pacer's, and those for a Retry-After) are timed: `schedule` calls
 * `done` after `ms` and returns what cancels it. Real timers here; a test of the CLI swaps
 * `schedule` from a preloaded module (test/support/instant-waits.ts), so that a run through real
 * Retry-Afters takes no real time and the waits asked for can still be checked.
 * @public (imported by that preload from dist/, which knip cannot see)
 */
export const waits = {
  schedule(ms: number, done: () => void): () => void {
    const timer = setTimeout(done, ms);
    return () => clearTimeout(timer);
  },
};

/** What to call when a signal aborts, by signal: each signal gets one listener, however many waits are on it. */
const onAbort = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `then` when `signal` aborts; returns what forgets it. Every wait of a run is on the run's one
 * deadline, and a rate-limited run has dozens at once: one listener each would pass Node's limit of
 * ten and print a MaxListenersExceededWarning.
 */
function whenAborted(signal: AbortSignal, then: () => void): () => void {
  let waiting = onAbort.get(signal);
  if (waiting === undefined) {
    const all = new Set<() => void>();
    waiting = all;
    onAbort.set(signal, all);
    signal.addEventListener(
      'abort',
      () => {
        for (const call of all) call();
        all.clear();
      },
      { once: true },
    );
  }
  const set = waiting;
  set.add(then);
  return () => set.delete(then);
}

/** Waits `ms`, or rejects with a DeadlineError as soon as `deadline` aborts. */
export function sleepUnlessAborted(ms: number, deadline: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (deadline?.aborted) return reject(new DeadlineError());
    let forget = () => {};
    const cancel = waits.schedule(ms, () => {
      forget();
      resolve();
    });
    if (deadline)
      forget = whenAborted(deadline, () => {
        cancel();
        reject(new DeadlineError());
      });
  });
}

/**
 * Keeps requests to --concurrency and --rps. Both suites send through one: the spec suite's
 * HttpClient, and the forwarding proxy in front of the Pact Verifier.
 */
export class Pacer {
  readonly #concurrency: number;
  readonly #interval: number;
  readonly #deadline: AbortSignal | undefined;
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];
  #nextStart = 0;

  constructor(options: PacerOptions) {
    this.#concurrency = options.concurrency;
    this.#interval = options.rps === undefined ? 0 : 1000 / options.rps;
    this.#deadline = options.deadline;
  }

  /** Runs `send` once a slot is free and its start is due; throws `DeadlineError` if the deadline comes first. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      await this.#due();
      return await send();
    } finally {
      this.#release();
    }
  }

  async #due(): Promise<void> {
    if (this.#deadline?.aborted) throw new DeadlineError();
    if (this.#interval === 0) return;
    const now = performance.now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + this.#interval;
    if (start > now) await sleepUnlessAborted(start - now, this.#deadline);
  }

  async #acquire(): Promise<void> {
    if (this.#inFlight < this.#concurrency) {
      this.#inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#inFlight--;
  }
}
