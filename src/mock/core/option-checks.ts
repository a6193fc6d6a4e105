/**
 * The checks every option of the code API passes where it enters (`createMockApi`, `startMockServer`,
 * `createHandlers`, `startProxyServer`): a value of the wrong type, from JavaScript or a cast, is a
 * `TypeError`, one out of its range (`MOCK_BOUNDS`) a `RangeError`, each a sentence naming the option
 * and what to give, never a message of the code that would have tripped on it later
 * (`Cannot read properties of undefined`) nor a value taken as another (`seed: '7'`).
 */
import { described, wholeNumberIn } from '../../bounds/option-value.js';
import { MOCK_BOUNDS } from './defaults.js';

/** The options argument itself: an object, or nothing. */
export function optionsObject<T extends object>(where: string, options: T | undefined): T {
  if (options === undefined) return {} as T;
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(`${where} takes an object of options, such as { port: 0 }, or nothing; got ${described(options)}`);
  return options;
}

/** `true` or `false`, or the default when absent. */
export function trueOrFalse(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false; got ${described(value)}`);
  return value;
}

/** A function, or `undefined` when absent. */
export function callback<F>(name: string, value: F | undefined, example: string): F | undefined {
  if (value !== undefined && typeof value !== 'function') throw new TypeError(`${name} must be a function, such as ${example}; got ${described(value)}`);
  return value;
}

/** A string, or `undefined` when absent. */
export function text(name: string, value: unknown, example: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`${name} must be a string, such as ${example}; got ${described(value)}`);
  return value;
}

/** A list, or `undefined` when absent. */
export function list<T>(name: string, value: readonly T[] | undefined, example: string): readonly T[] | undefined {
  if (value !== undefined && !Array.isArray(value)) throw new TypeError(`${name} must be a list, such as ${example}; got ${described(value)}`);
  return value;
}

/** A plain object (no list, no null), or `undefined` when absent. */
export function record<T extends object>(name: string, value: T | undefined, what: string): T | undefined {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw new TypeError(`${name} must be ${what}; got ${described(value)}`);
  return value;
}

/** What every Node host of the mock (its server, the proxy) takes about where it listens. */
interface ServerPlace {
  readonly port?: number;
  readonly host?: string;
  readonly allowedHosts?: readonly string[];
  readonly onRequest?: (line: string) => void;
}

/**
 * Checks the options of where a server listens, the same for `startMockServer` and `startProxyServer`:
 * the port by `MOCK_BOUNDS.port`, `host` and each of `allowedHosts` a string (their rule is `checkReach`'s,
 * src/mock/server-reach.ts, which the options' normalizing applies), `onRequest` a function. (`timeouts`: `checkTimeouts`.)
 */
export function checkServerPlace(where: string, options: ServerPlace): void {
  wholeNumberIn('port', options.port, MOCK_BOUNDS.port, 0);
  text('host', options.host, "'127.0.0.1'");
  for (const host of list('allowedHosts', options.allowedHosts, "['mock.internal']") ?? [])
    if (typeof host !== 'string') throw new TypeError(`${where}: allowedHosts takes IP addresses and host names; got ${described(host)}.`);
  callback('onRequest', options.onRequest, '(line) => console.log(line)');
}

/**
 * A caller's function the mock calls as it serves (`onRequest`, `onProblem`), checked where it enters
 * and kept from stopping the process: what it throws, or its promise rejects with, would be an
 * uncaught exception in a server's event handler, which ends Node. It is said once on stderr instead,
 * and the mock serves on.
 * @example
 * const log = guardedCallback('onRequest', options.onRequest, '(line) => console.log(line)');
 * log?.('GET /v1/pets 200 0.4ms'); // never throws
 */
export function guardedCallback<A extends unknown[]>(
  name: string,
  value: ((...args: A) => unknown) | undefined,
  example: string,
): ((...args: A) => void) | undefined {
  const given = callback(name, value, example);
  if (given === undefined) return undefined;
  let told = false;
  const tell = (error: unknown) => {
    if (told) return;
    told = true;
    console.error(
      `petstore-mock: ${name} threw (${error instanceof Error ? error.message : String(error)}); the mock serves on and says this once: fix ${name}.`,
    );
  };
  return (...args) => {
    try {
      const result = given(...args);
      if (result instanceof Promise) result.catch(tell);
    } catch (error) {
      tell(error);
    }
  };
}
