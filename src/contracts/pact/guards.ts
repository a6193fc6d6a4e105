/** Narrowing of values whose type TypeScript does not know: what is thrown, and parsed JSON. */

/** The message of something thrown: an Error's own, else its text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True for a JSON object or any other non-null object: its fields may then be looked up. */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}
