/**
 * `petstore-mock/testing`: "did my app send what I think it sent?", asked of the mock's request
 * journal from any test runner (vitest, Jest, node:test, mocha). A miss throws an `Error` whose
 * message names the request expected and the nearest requests the mock did receive, and how each differs.
 */

import { MAX_RESPONSE_BYTES } from '../bounds/budget.js';
import { LONGEST_WAIT_MS, wholeNumberIn } from '../bounds/option-value.js';
import { messageOf, StoreUnavailableError } from '../errors.js';
import { checkKeyOption } from '../http/header-value.js';
import { readLimited } from '../http/read-limited.js';
import { parseUserUrl } from '../http/user-url.js';
import type { JournalEntry, JournalFilter } from '../mock/state/journal.js';
import { describeSessionName, sessionName } from '../mock/state/sessions.js';
import { KeyRedactor } from '../redact/key-redactor.js';
import { terminalText } from '../terminal/terminal-text.js';
import { describeEntry, describeExpected, differences, type ExpectedRequest } from './match.js';

export type { JournalEntry, JournalFilter, JournalRule } from '../mock/state/journal.js';
export type { ExpectedRequest } from './match.js';

/** Anything with a journal: `createMockApi()`, `createHandlers()` (MSW). */
interface HasRequests {
  requests(filter?: JournalFilter): readonly JournalEntry[] | Promise<readonly JournalEntry[]>;
}

/**
 * Where the journal is read: a mock in this process (`createMockApi()`, the MSW handlers, a
 * `startMockServer()` server), or the URL of a running one (`http://127.0.0.1:4010/v1`; its
 * `GET /__mock/requests` is read).
 */
export type JournalSource = HasRequests | { readonly mock: HasRequests } | string | URL;

/** How `expectRequests` reads the journal. */
export interface ExpectRequestsOptions {
  /** The session whose journal is read (`X-Mock-Session`). Default: the default session. */
  readonly session?: string;
  /** For a URL: the key `/__mock/*` needs when the mock is reachable beyond its machine. */
  readonly apiKey?: string;
  /**
   * Milliseconds to keep reading the journal until it holds what is expected: for a request the app
   * sends a moment later, or through a journal that cannot be read for a moment (a 503 with Redis).
   * A whole number from 0 to 86,400,000 (a day). Default: 0, read once.
   */
  readonly within?: number;
  /**
   * For a URL: milliseconds one read of the journal may take, its whole answer; an answer that trickles
   * past it is an error that says so. A whole number from 1 to 86,400,000 (a day). Default: 10 000.
   */
  readonly timeout?: number;
}

/**
 * The expectation of one kind of request: a promise of the matching requests (at least one), or ask
 * for an exact count with `times`. The check starts at once, so an expectation a test forgets to
 * `await` still fails it: its rejection goes unhandled, which vitest, Jest and node:test report.
 */
export interface RequestExpectation extends Promise<readonly JournalEntry[]> {
  /** Resolves to the matching requests when there are exactly `count` (0: never sent); rejects naming the nearest otherwise. It replaces the check for at least one. */
  times(count: number): Promise<readonly JournalEntry[]>;
}

/** What can be expected of a journal. */
export interface RequestExpectations {
  /** The mock received a request like `expected`: `await` it for at least one, or `.times(n)` for exactly n. */
  toInclude(expected: ExpectedRequest): RequestExpectation;
}

/** How many of the nearest requests a miss shows. */
const NEAREST = 3;

/** How long one read of a URL's journal may take when `timeout` does not say. */
const READ_TIMEOUT_MS = 10_000;

/** What is wrong with a journal entry as the matcher reads it, if anything: the fields it compares and shows. */
function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'is not an object';
  const fields: readonly [string, string][] = [
    ['id', 'number'],
    ['method', 'string'],
    ['path', 'string'],
    ['query', 'string'],
    ['headers', 'object'],
    ['status', 'number'],
    ['rule', 'string'],
  ];
  const wrong = fields.find(([name, type]) => typeof Reflect.get(entry, name) !== type || Reflect.get(entry, name) === null);
  if (wrong !== undefined) return `has no ${wrong[1]} "${wrong[0]}"`;
  const { operation, body } = entry as { operation?: unknown; body?: unknown };
  if (operation !== null && typeof operation !== 'string') return 'has no "operation" (a string, or null)';
  return body === undefined || typeof body === 'string' ? undefined : 'has a "body" that is not a string';
}

/** The entries of a journal page, or an Error saying what the answer is instead. */
function entriesOf(text: string, where: string): readonly JournalEntry[] {
  const refuse = (what: string) =>
    new Error(`expectRequests: ${where} answered no request journal: ${what}. Is it the URL of a petstore-mock, such as http://127.0.0.1:4010/v1?`);
  let page: unknown;
  try {
    page = JSON.parse(text);
  } catch {
    throw refuse(`its body is not JSON (${terminalText(JSON.stringify(text.slice(0, 80)))})`);
  }
  const entries: unknown = typeof page === 'object' && page !== null ? Reflect.get(page, 'entries') : undefined;
  if (!Array.isArray(entries)) throw refuse('its JSON has no list "entries"');
  const wrong = entries.findIndex((entry) => entryProblem(entry) !== undefined);
  if (wrong !== -1) throw refuse(`entries[${wrong}] ${entryProblem(entries[wrong])}`);
  // Checked above: each entry has every field the matcher reads, of its type.
  return entries as JournalEntry[];
}

/** The mock in this process a source names (itself, or a server's or the MSW handlers' `mock`), or `undefined` for a URL or anything else. */
function inProcessMock(source: JournalSource): HasRequests | undefined {
  if (typeof source !== 'object' || source === null || source instanceof URL) return undefined;
  return 'requests' in source ? source : source.mock;
}

/**
 * The journal of the mock at `source`, read within bounds: at most `MAX_RESPONSE_BYTES` (5 MiB, more
 * than a journal of 500 entries holds) and `timeout` milliseconds for the whole answer, so that an
 * endless or trickling answer ends in an error that says which.
 */
async function readUrl(base: URL, options: ExpectRequestsOptions): Promise<readonly JournalEntry[]> {
  const url = new URL('/__mock/requests', base);
  const where = `GET ${url.href}`;
  const headers: Record<string, string> = {};
  if (options.session !== undefined) headers['x-mock-session'] = options.session;
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  const timeout = options.timeout ?? READ_TIMEOUT_MS;
  let response: Response;
  let text: string | undefined;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeout) });
    // The signal bounds the body too: a read it ends rejects with its reason.
    text = await readLimited(response.body, MAX_RESPONSE_BYTES);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError')
      throw new Error(
        `expectRequests: ${where} did not answer whole within ${timeout} ms; is the mock busy, or is it another server? (raise it with { timeout })`,
      );
    const cause = error instanceof Error && error.cause !== undefined ? ` (${messageOf(error.cause)})` : '';
    throw new Error(`expectRequests: ${where} failed: ${messageOf(error)}${cause}`);
  }
  if (text === undefined)
    throw new Error(
      `expectRequests: ${where} answered more than ${MAX_RESPONSE_BYTES} bytes, which no request journal holds; is it the URL of a petstore-mock?`,
    );
  if (!response.ok) {
    const message = `expectRequests: ${where} answered ${response.status}: ${terminalText(text.slice(0, 300))}`;
    // A 503 says the journal cannot be read right now (Redis away, a replica not answering): worth reading again.
    throw response.status === 503 ? new StoreUnavailableError(message) : new Error(message);
  }
  return entriesOf(text, where);
}

function reader(source: JournalSource, options: ExpectRequestsOptions): () => Promise<readonly JournalEntry[]> {
  if (typeof source === 'string' || source instanceof URL) {
    // Checked now, where the test names it: the host rule of every URL the package is given.
    const base = parseUserUrl(String(source), { name: 'expectRequests', schemes: ['http:', 'https:'], example: 'http://127.0.0.1:4010/v1' });
    return () => readUrl(base, options);
  }
  const mock = inProcessMock(source);
  if (typeof mock?.requests !== 'function')
    throw new TypeError(
      `expectRequests reads the journal of a mock: give its URL (http://127.0.0.1:4010/v1), a MockApi, a started server or what createHandlers returns; got ${source === null ? 'null' : `a value of type ${typeof source}`}`,
    );
  const filter: JournalFilter = options.session === undefined ? {} : { session: options.session };
  return async () => mock.requests(filter);
}

/** The message of a miss: what was expected, how many matched, and the nearest received. */
function missMessage(expected: ExpectedRequest, count: number | undefined, entries: readonly JournalEntry[], matched: readonly JournalEntry[]): string {
  const wanted = count === undefined ? 'at least 1 request' : `exactly ${count} request${count === 1 ? '' : 's'}`;
  const head = `expected the mock to have received ${wanted} like ${describeExpected(expected)}, but it received ${matched.length} (of ${entries.length} in its journal).`;
  if (matched.length > 0) return `${head} The matching ones:\n${matched.map((entry) => `  ${describeEntry(entry)}`).join('\n')}`;
  if (entries.length === 0) return `${head} The journal is empty: did the request reach this mock (its URL, its session)?`;
  const ranked = entries
    .map((entry) => ({ entry, found: differences(expected, entry) }))
    // The fewest differences first; among equals, the latest.
    .sort((a, b) => a.found.length - b.found.length || b.entry.id - a.entry.id)
    .slice(0, NEAREST);
  return `${head} The nearest:\n${ranked.map(({ entry, found }) => `  ${describeEntry(entry)}\n    ${found.join('; ')}`).join('\n')}`;
}

/** Set when `times()` takes the place of the check for at least one request, which then stops at its next step. */
interface Replaced {
  replaced: boolean;
}

/**
 * Reads the journal until `count` requests (at least one when `undefined`) match, or `within` has passed;
 * then resolves to them or throws. A check `replaced` resolves to nothing and reads no more.
 */
async function check(
  read: () => Promise<readonly JournalEntry[]>,
  expected: ExpectedRequest,
  count: number | undefined,
  within: number,
  replaced: Replaced = { replaced: false },
): Promise<readonly JournalEntry[]> {
  const deadline = Date.now() + within;
  // One microtask first: a `.times(n)` in the same statement replaces this check before it reads anything.
  await Promise.resolve();
  for (;;) {
    if (replaced.replaced) return [];
    const entries = await read().catch((error: unknown) => {
      // While `within` lasts, a journal that cannot be read right now is read again; any other failure is the test's to see.
      if (error instanceof StoreUnavailableError && Date.now() < deadline) return undefined;
      throw error;
    });
    if (entries !== undefined) {
      const matched = entries.filter((entry) => differences(expected, entry).length === 0);
      if (count === undefined ? matched.length > 0 : matched.length === count) return matched;
      if (Date.now() >= deadline) throw new Error(missMessage(expected, count, entries, matched));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * `checked`, its failure's message with the keys hidden in any form: it quotes what a server answered and
 * the requests a journal holds, which may carry the test's own key (red team 14 #7: printed whole, as base64 and percent-encoded).
 */
async function keyless<T>(checked: Promise<T>, keys: KeyRedactor): Promise<T> {
  try {
    return await checked;
  } catch (error) {
    if (error instanceof Error) error.message = keys.text(error.message);
    throw error;
  }
}

/**
 * The keys a refused option may hold, hidden as the mock hides them (a session named after the key):
 * the one given, and those of a mock in this process.
 */
function keysOf(source: JournalSource, options: ExpectRequestsOptions): KeyRedactor {
  const mock = inProcessMock(source);
  const held = mock !== undefined && 'options' in mock ? (mock.options as { apiKeys?: unknown }).apiKeys : undefined;
  return new KeyRedactor([options.apiKey, ...(Array.isArray(held) ? held.filter((key) => typeof key === 'string') : [])], { shortAsToken: true });
}

/**
 * Expectations on the requests a mock received, for any test runner.
 * @example
 * import { expectRequests } from 'petstore-mock/testing';
 *
 * await expectRequests(api).toInclude({ method: 'POST', path: '/v1/pets', body: { name: 'Rex' } }).times(1);
 * await expectRequests('http://127.0.0.1:4010/v1').toInclude({ path: '/v1/pets/*', status: 404 });
 */
export function expectRequests(source: JournalSource, options: ExpectRequestsOptions = {}): RequestExpectations {
  // Checked where they enter, as every option of the package: a timer would take 2^31 ms as 1 ms.
  const within = wholeNumberIn('expectRequests: within', options.within, [0, LONGEST_WAIT_MS], 0);
  const timeout = wholeNumberIn('expectRequests: timeout', options.timeout, [1, LONGEST_WAIT_MS], READ_TIMEOUT_MS);
  checkKeyOption('expectRequests: apiKey', options.apiKey);
  if (options.session !== undefined && (typeof options.session !== 'string' || sessionName(options.session) === undefined))
    throw new TypeError(`expectRequests: session: ${keysOf(source, options).text(describeSessionName(String(options.session)))}`);
  const read = reader(source, { ...options, timeout });
  const keys = keysOf(source, options);
  return {
    toInclude: (expected) => {
      const atLeastOne = { replaced: false };
      // Started now, not when awaited: an expectation left without `await` fails the test all the same.
      const checked = keyless(check(read, expected, undefined, within, atLeastOne), keys);
      return Object.assign(checked, {
        times: (count: number) => {
          if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`times(count): count must be a whole number, 0 or more; got ${count}`);
          atLeastOne.replaced = true;
          return keyless(check(read, expected, count, within), keys);
        },
      });
    },
  };
}
