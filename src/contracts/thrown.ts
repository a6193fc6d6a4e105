/**
 * Readers of a thrown value, which may be anything (an Error, a DOMException, a string): each gives
 * `undefined` where the value lacks what is asked for, so that no report is lost to a second error.
 */

/** A string property of `value` (own or inherited), if it has one. */
export function stringField(value: unknown, name: string): string | undefined {
  const found: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
  return typeof found === 'string' ? found : undefined;
}

/** The message of a thrown value: an Error's `message`, or the value as text. */
export function messageOf(error: unknown): string {
  return stringField(error, 'message') ?? String(error);
}
