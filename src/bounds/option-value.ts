/**
 * How an option of the code API is checked where it enters, in every room that takes one (the mock,
 * the typed client, `expectRequests`): a value of the wrong type is a `TypeError`, one out of its
 * range a `RangeError`, each a sentence naming the option and what to give, never the message of the
 * code that would have tripped on it later (Node's timer: `The value of "delay" is out of range`).
 */

/** The longest any wait of the package may be: a day in milliseconds, within Node's longest timer (2^31 - 1 ms, past which it fires after 1 ms). */
export const LONGEST_WAIT_MS = 86_400_000;

/** A value as a sentence names it: its type, and numbers and short strings as written. */
export function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return `a value of type ${typeof value}`;
}

/** A whole number from `least` to `most`, or the option's default when absent. */
export function wholeNumberIn(name: string, value: unknown, [least, most]: readonly [number, number], fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, a whole one from ${least} to ${most}; got ${described(value)}`);
  if (!Number.isInteger(value) || value < least || value > most) throw new RangeError(`${name} must be a whole number from ${least} to ${most}; got ${value}`);
  return value;
}
