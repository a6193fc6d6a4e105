/**
 * The package's errors: one base class, and a named subclass for each kind of thing that can go wrong,
 * each carrying the exit code a command ends with when the error reaches it. A bad argument to a
 * function (`startMockServer({ count: -1 })`) stays JavaScript's own `TypeError` or `RangeError`, as
 * Node's APIs do; the commands turn those into usage errors where a flag supplied the value.
 */

/** The exit codes of both commands, decided here and nowhere else. */
export const EXIT = {
  /** Everything asked for was done (the verifier: every check passed). */
  ok: 0,
  /** It ran, and something failed: a check, the server, the store. */
  failed: 1,
  /** It could not do what was asked: a flag, a value, a file or a setting the user must change, or a deployment it cannot reach. */
  usage: 2,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The base of every error petstore-mock and petstore-verify throw on purpose. */
export class PetstoreError extends Error {
  override readonly name: string = 'PetstoreError';
  /** The exit code a command ends with when this error reaches it. */
  readonly exitCode: ExitCode;

  constructor(message: string, options: { readonly exitCode?: ExitCode; readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? EXIT.failed;
  }
}

/** A flag or value the user must change; the message says which, and how. */
export class UsageError extends PetstoreError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(message, { exitCode: EXIT.usage });
  }
}

/** spec/openapi.yaml does not say what the code needs: an operation, a schema, an error code, a reference. */
export class SpecError extends PetstoreError {
  override readonly name = 'SpecError';
}

/** A state file (`--state`) that cannot be used; it is left as it is, never replaced. */
export class StateFileError extends PetstoreError {
  override readonly name = 'StateFileError';
}

/**
 * Redis cannot be reached, or may not keep the mock's state (a policy that evicts keys): at start
 * (exit 1, or 2 for a setting to change), or while the mock runs, when the mock responds 503 with the
 * message until Redis is back. The message names the URL, never its password, and the cause.
 */
export class StoreUnavailableError extends PetstoreError {
  override readonly name = 'StoreUnavailableError';
}

/** A session that would hold more of its own pets than its cap (`SESSION_PETS_BYTES`): the mock answers 429 with the message, and changes nothing. */
export class SessionFullError extends PetstoreError {
  override readonly name = 'SessionFullError';
}

/**
 * The mock's clock (the `now` option of the code API) gave no instant a date may show: not a number, or
 * outside the years 0001 to 9998 `--now` and `POST /__mock/clock` keep to. The request it was read for
 * is answered 500 with the message; the mock goes on serving.
 */
export class ClockError extends PetstoreError {
  override readonly name = 'ClockError';
}

/** Thrown by a wait of petstore-verify that the run's deadline cut short. */
export class DeadlineError extends PetstoreError {
  override readonly name = 'DeadlineError';
  constructor() {
    super("the run's deadline passed before the request could be sent", { exitCode: EXIT.usage });
  }
}

/**
 * The exit code for an error that reached a command: its own for the package's errors, 1 for anything
 * else (a bug, or a failure of Node itself, which the message names).
 */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof PetstoreError ? error.exitCode : EXIT.failed;
}

/**
 * A string property of a thrown value (own or inherited), if it has one. What is thrown may be anything
 * (an Error, a DOMException, a string), so each reader gives `undefined` where the value lacks what is
 * asked for, and no report is lost to a second error.
 */
export function stringField(value: unknown, name: string): string | undefined {
  const found: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
  return typeof found === 'string' ? found : undefined;
}

/** The message of anything thrown: its `message`, or the value as text. */
export function messageOf(error: unknown): string {
  return stringField(error, 'message') ?? String(error);
}

/** The `code` of a Node system error (`ENOENT`, `EADDRINUSE`, `ELOCKED`...), or `undefined`. */
export function codeOf(error: unknown): string | undefined {
  return stringField(error, 'code');
}
