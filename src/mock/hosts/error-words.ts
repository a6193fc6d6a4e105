/** What the CLI can say of an error of any kind: something thrown is usually, but not always, an `Error`. */

/** The `code` of a failed system call (`ENOENT`, `EADDRINUSE`), when `error` is one. */
export function systemErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** The message of an `Error`, or what anything else thrown says as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
