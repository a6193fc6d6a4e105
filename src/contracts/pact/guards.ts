/** Narrowing of values whose type TypeScript does not know: the Pact Verifier's documents and requests. */

/** True for a JSON object or any other non-null object: its fields may then be looked up. */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}
