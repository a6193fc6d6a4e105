/**
 * How a request the mock received (a journal entry) differs from the one a test expected: each
 * difference in words, so that a miss says what the app sent instead, and the count of them ranks
 * the received requests by how near they came.
 */
import type { JournalEntry } from '../mock/state/journal.js';
import { terminalText } from '../terminal/terminal-text.js';

/**
 * A request as a test expects it: every field optional, all given must hold.
 * @example
 * const rex: ExpectedRequest = { method: 'POST', path: '/v1/pets', body: { name: 'Rex' } };
 */
export interface ExpectedRequest {
  readonly method?: string;
  /** The path as sent, without the query: exact, `*` matching any run of characters (`/v1/pets/*`), or a RegExp. */
  readonly path?: string | RegExp;
  /** Query parameters that must be there with these values (others may be too). */
  readonly query?: Readonly<Record<string, string>>;
  /** Headers the journal shows (`content-type`, `prefer`, `x-mock-session`, `accept`) with these values; names in any case. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A string: the body's exact text. Anything else: JSON whose every given field the body has, recursively (arrays whole). */
  readonly body?: unknown;
  readonly status?: number;
  readonly operation?: string;
}

/**
 * `value` shown in a message: JSON, cut at 120 characters, with every character a terminal acts on
 * escaped (JSON leaves a right-to-left override and DEL as they are; a test runner's log shows the message).
 */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return terminalText(text.length > 120 ? `${text.slice(0, 117)}...` : text);
}

function pathMatches(expected: string | RegExp, path: string): boolean {
  if (expected instanceof RegExp) return expected.test(path);
  const pattern = expected
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(path);
}

/** True for an object that is not an array: what a JSON object parses to. */
function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where `actual` differs from the fields `expected` gives, at `where` (`body.tags[0]`). */
function jsonDifferences(expected: unknown, actual: unknown, where: string): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${where} is ${shown(actual)}, not an array`];
    if (actual.length !== expected.length) return [`${where} has ${actual.length} items, not ${expected.length}`];
    return expected.flatMap((item, i) => jsonDifferences(item, actual[i], `${where}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (!isPlainObject(actual)) return [`${where} is ${shown(actual)}, not an object`];
    return Object.entries(expected).flatMap(([name, value]) =>
      name in actual ? jsonDifferences(value, actual[name], `${where}.${name}`) : [`${where}.${name} is missing`],
    );
  }
  return Object.is(expected, actual) ? [] : [`${where} is ${shown(actual)}, not ${shown(expected)}`];
}

function bodyDifferences(expected: unknown, entry: JournalEntry): string[] {
  if (entry.body === undefined) return ['it has no body in the journal'];
  if (typeof expected === 'string') return entry.body === expected ? [] : [`body is ${shown(entry.body)}, not ${shown(expected)}`];
  let parsed: unknown;
  try {
    parsed = JSON.parse(entry.body);
  } catch {
    return [`body is not JSON: ${shown(entry.body)}`];
  }
  return jsonDifferences(expected, parsed, 'body');
}

function mapDifferences(expected: Readonly<Record<string, string>>, actual: (name: string) => string | null | undefined, what: string): string[] {
  return Object.entries(expected).flatMap(([name, value]) => {
    const got = actual(name);
    if (got === null || got === undefined) return [`${what} ${name} is missing`];
    return got === value ? [] : [`${what} ${name} is ${shown(got)}, not ${shown(value)}`];
  });
}

/**
 * Every way `entry` differs from `expected`; none when it matches.
 * @example
 * differences({ method: 'POST' }, entry); // ['method is GET, not POST']
 */
export function differences(expected: ExpectedRequest, entry: JournalEntry): string[] {
  const found: string[] = [];
  if (expected.method !== undefined && expected.method.toUpperCase() !== entry.method)
    found.push(`method is ${terminalText(entry.method)}, not ${expected.method.toUpperCase()}`);
  if (expected.path !== undefined && !pathMatches(expected.path, entry.path)) found.push(`path is ${terminalText(entry.path)}, not ${String(expected.path)}`);
  if (expected.query !== undefined) {
    const query = new URLSearchParams(entry.query);
    found.push(...mapDifferences(expected.query, (name) => query.get(name), 'query parameter'));
  }
  if (expected.headers !== undefined) found.push(...mapDifferences(expected.headers, (name) => entry.headers[name.toLowerCase()], 'header'));
  if (expected.status !== undefined && expected.status !== entry.status) found.push(`status is ${entry.status}, not ${expected.status}`);
  if (expected.operation !== undefined && expected.operation !== entry.operation)
    found.push(`operation is ${terminalText(entry.operation ?? 'none')}, not ${expected.operation}`);
  if (expected.body !== undefined) found.push(...bodyDifferences(expected.body, entry));
  return found;
}

/** `expected` in one line: `POST /v1/pets with body {"name":"Rex"}`. */
export function describeExpected(expected: ExpectedRequest): string {
  const parts = [`${expected.method?.toUpperCase() ?? 'any method'} ${expected.path === undefined ? 'any path' : String(expected.path)}`];
  if (expected.query !== undefined) parts.push(`query ${shown(expected.query)}`);
  if (expected.headers !== undefined) parts.push(`headers ${shown(expected.headers)}`);
  if (expected.body !== undefined) parts.push(`body ${shown(expected.body)}`);
  if (expected.status !== undefined) parts.push(`answered ${expected.status}`);
  if (expected.operation !== undefined) parts.push(`operation ${expected.operation}`);
  return parts.join(', ');
}

/** `entry` in one line, what it holds from outside escaped for the terminal: `#3 POST /v1/pets?x=1 -> 201 (createPet), body {...}`. */
export function describeEntry(entry: JournalEntry): string {
  const target = entry.query === '' ? entry.path : `${entry.path}?${entry.query}`;
  const text = entry.body ?? '';
  const body = entry.body === undefined ? '' : `, body ${text.length > 120 ? `${text.slice(0, 117)}...` : text}`;
  return terminalText(`#${entry.id} ${entry.method} ${target} -> ${entry.status} (${entry.operation ?? entry.rule})${body}`);
}
