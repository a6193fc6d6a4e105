import { ClockError, messageOf } from '../../errors.js';
import { type JsonValue, parseJson, stringifyJson } from '../../json/lossless.js';

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

/** An ISO 8601 date (RFC 3339), with a time to the minute or finer, `Z` or an offset: each field captured. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))?)?$/i;

/**
 * The first and the last instant a clock may be set to: a time the mock shows is an RFC 3339
 * date-time (`toISOString`), whose year is four digits, 0001 to 9999 (year 0 is none of the
 * calendar's, 10000 prints as `+010000`). The last leaves a year to 9999's end, as the clock ticks on
 * from it.
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9998-12-31T23:59:59.999Z');

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The days of `month` (1 to 12) in `year`, by the proleptic Gregorian calendar ISO 8601 counts in. */
function daysIn(year: number, month: number): number {
  const last = new Date(0);
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  last.setUTCFullYear(year, month, 0);
  return last.getUTCDate();
}

/** What is out of the calendar in a matched date, if anything: a day its month lacks, an hour, minute or second past its clock. */
function calendarProblem(text: string, fields: readonly number[]): string | undefined {
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = fields;
  if (month < 1 || month > 12) return `${text} has no month ${month}: months are 01 to 12`;
  const days = daysIn(year, month);
  if (day < 1 || day > days) return `${text} is not a day of the calendar: ${MONTHS[month - 1]} ${year} has ${days} days`;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59)
    return `${text} is not a time of the clock: hours are 00 to 23, minutes and seconds 00 to 59`;
  return undefined;
}

/**
 * The epoch milliseconds of an ISO 8601 date (`2031-01-01T00:00:00Z`, a date alone, an offset, a time
 * without an offset in local time), or what is wrong with it. A date must be one of the calendar:
 * `Date.parse` moves 2030-02-30 to 2 March, which is never what was meant, so it is refused, as is any
 * other spelling `Date.parse` takes (`Dec 6 2030`).
 * @example
 * parseIsoDate('2031-01-01T00:00:00Z'); // { time: 1924992000000 }
 * parseIsoDate('2030-02-30T00:00:00Z'); // { problem: '2030-02-30T00:00:00Z is not a day of the calendar: February 2030 has 28 days' }
 */
export function parseIsoDate(text: string): { readonly time: number } | { readonly problem: string } {
  const match = ISO_DATE.exec(text);
  if (match === null) return { problem: `${JSON.stringify(text)} is not an ISO 8601 date such as 2031-01-01T00:00:00Z` };
  const problem = calendarProblem(
    text,
    match.slice(1).map((field) => Number(field ?? 0)),
  );
  if (problem !== undefined) return { problem };
  const time = Date.parse(text.toUpperCase());
  if (Number.isNaN(time)) return { problem: `${JSON.stringify(text)} is not an ISO 8601 date such as 2031-01-01T00:00:00Z` };
  if (!inRange(time)) return { problem: `${text} is outside the years an RFC 3339 date prints (0001 to 9999, leaving the clock a year to tick): ${RANGE}` };
  return { time };
}

/** The one rule every instant the mock's clock gives is held to, wherever the clock comes from. */
function inRange(time: unknown): time is number {
  return typeof time === 'number' && time >= EARLIEST && time <= LATEST;
}

const RANGE = `give a date from ${new Date(EARLIEST).toISOString()} to ${new Date(LATEST).toISOString()}`;

/** A value as a sentence may quote it: a function or an object by its kind, a number or a string as written. */
function quoted(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  return value === null ? 'null' : `a value of type ${typeof value}`;
}

/**
 * The mock's base clock (the `now` option): `Date.now` when none is given; a given one is refused with a
 * `TypeError` unless it is a function, and each reading is held to the rule of `--now` and
 * `POST /__mock/clock` (epoch milliseconds, years 0001 to 9998), so a date the mock shows is always one
 * of the calendar. A reading that is not, or a clock that throws, is a `ClockError`: the request it was
 * read for is answered 500 with a sentence naming `now`, never `Invalid Date` nor a crash.
 * @example
 * checkedClock(() => Date.parse('2031-01-01T00:00:00Z'))(); // 1924992000000
 * checkedClock(() => NaN)(); // throws ClockError: ...read NaN...
 * checkedClock('2031-01-01'); // throws TypeError: now must be a function...
 */
export function checkedClock(now: unknown): () => number {
  if (now === undefined) return Date.now;
  if (typeof now !== 'function')
    throw new TypeError(
      `now must be a function that returns the time in epoch milliseconds, such as () => Date.parse('2031-01-01T00:00:00Z'); got ${quoted(now)}`,
    );
  const read = now as () => unknown;
  return () => {
    let time: unknown;
    try {
      time = read();
    } catch (error) {
      throw new ClockError(`The mock's clock (its now option) threw: ${messageOf(error)}. Give a now() that returns epoch milliseconds.`, { cause: error });
    }
    if (!inRange(time))
      throw new ClockError(
        `The mock's clock (its now option) read ${quoted(time)}, which is no instant a date of the mock may show: now() must return epoch milliseconds of the years 0001 to 9998, as --now and POST /__mock/clock take; ${RANGE}.`,
      );
    return time;
  };
}

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
  if (typeof now !== 'string') return { error: `now must be an ISO 8601 date such as 2031-01-01T00:00:00Z, or null; got ${stringifyJson(now)}.` };
  const parsed = parseIsoDate(now);
  return 'time' in parsed ? parsed : { error: `now must be a date of the calendar, or null: ${parsed.problem}.` };
}
