import { type JsonValue, parseJson } from '../../json/lossless.js';

/**
 * A session's clock: the mock's base clock (its `now` option: the real clock, or the one `--now`
 * started) moved by the offset `POST /__mock/clock` sets. Once set it keeps ticking from there, so
 * timestamps still advance between requests.
 * @example
 * const clock = new MockClock(Date.now);
 * clock.set(Date.parse('2031-01-01T00:00:00Z')); // getPet answers 410 from now on
 * clock.reset(); // back to the base clock
 */
export class MockClock {
  #offset: number;

  /** `offset`: milliseconds the clock starts ahead of `base` (behind when negative), as a shared store keeps it. */
  constructor(
    readonly base: () => number,
    offset = 0,
  ) {
    this.#offset = offset;
  }

  /** Epoch milliseconds. */
  now(): number {
    return this.base() + this.#offset;
  }

  /** Moves the clock so that it reads `time` now. */
  set(time: number): void {
    this.#offset = time - this.base();
  }

  /** Back to the base clock. */
  reset(): void {
    this.#offset = 0;
  }
}

const EXAMPLE = '{"now": "2031-01-01T00:00:00Z"}';

/**
 * The time a `POST /__mock/clock` body asks for: `{"now": "<ISO 8601 date>"}` gives its epoch
 * milliseconds, `{"now": null}` gives `null` (back to the base clock), anything else a message
 * saying what is wrong.
 * @example
 * parseClockBody('{"now":"2031-01-01T00:00:00Z"}'); // { time: 1924992000000 }
 */
export function parseClockBody(text: string): { readonly time: number | null } | { readonly error: string } {
  let body: JsonValue;
  try {
    body = parseJson(text);
  } catch {
    return { error: `The body is not valid JSON: send ${EXAMPLE}.` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('now' in body)) {
    return { error: `The body must be a JSON object with \`now\`: ${EXAMPLE}, or {"now": null} for the base clock.` };
  }
  const now = body.now;
  if (now === null) return { time: null };
  const time = typeof now === 'string' ? Date.parse(now) : Number.NaN;
  return Number.isNaN(time) ? { error: `now must be an ISO 8601 date such as 2031-01-01T00:00:00Z, or null; got ${JSON.stringify(now)}.` } : { time };
}
