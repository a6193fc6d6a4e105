/**
 * What the mock does when nobody says otherwise, written once: `createMockApi`, `startMockServer`, the
 * CLI's flags and help, and docs/architecture.md read these values, never a copy of them.
 */
import { BIG_ID_OFFSET, DEFAULT_COUNT, DEFAULT_SEED } from '../../fixtures/seeding.js';
import { BASE_PATH } from '../../openapi/facts.js';

/**
 * The key the mock accepts when none is configured.
 * @example
 * fetch(`${url}/pets`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } });
 */
export const DEFAULT_API_KEY = 'petstore-dev-key';

/**
 * The mock's defaults.
 * @example
 * startMockServer({ port: MOCK_DEFAULTS.port }); // http://127.0.0.1:4010/v1
 */
export const MOCK_DEFAULTS = Object.freeze({
  /** The bearer key accepted when none is configured. */
  apiKey: DEFAULT_API_KEY,
  /** Seed of the generated pets: the same seed gives the same pets. */
  seed: DEFAULT_SEED,
  /** How many pets each session starts with. */
  count: DEFAULT_COUNT,
  /** Milliseconds added before every API answer. */
  delay: 0,
  /** The path every operation is served under: the spec's `/v1`. */
  basePath: BASE_PATH,
  /** Ids beyond 2^53; off, so ids run from 1. */
  bigIds: false,
  /** Honour `Prefer: code=, delay=, auth=expired` and their `__code`-style twins. */
  prefer: true,
  /** Milliseconds a named session may stay idle before it is dropped: 30 minutes. */
  sessionTtl: 30 * 60_000,
  /** How many named sessions may be open at once. */
  maxSessions: 100,
  /** The CLI's port (the library's `startMockServer` picks a free one, 0, unless told). */
  port: 4010,
  /** The interface the server binds: only this machine can reach the mock. */
  host: '127.0.0.1',
  /** Requests the journal keeps per session (`GET /__mock/requests`); 0 turns it off. */
  journalSize: 500,
  /** Characters of a request body a journal entry shows. */
  journalBodyLimit: 4096,
});

/**
 * The range of each number the mock takes, the same for the CLI's flags and the code API's options
 * (in the code API's unit: milliseconds for `sessionTtl`, which `--session-ttl` gives in whole seconds): past
 * them the code API once served `count: 2e7` (3.5 GB) and overflowed Node's timers (`delay: 2 ** 31`
 * answered at once). A time is at most `MAX_TIMER_MS`, the longest timer Node keeps as given.
 */
export const MOCK_RANGES = Object.freeze({
  seed: [0, 2 ** 32 - 1],
  count: [0, 10_000_000],
  delay: [0, 600_000],
  sessionTtl: [1, 31_536_000_000],
  maxSessions: [0, 100_000],
  journalSize: [0, 1_000_000],
  journalBodyLimit: [0, 1_048_576],
  storeTimeout: [1, 600_000],
} as const satisfies Record<string, readonly [number, number]>);

/** The longest timer Node keeps as given (2^31 - 1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What is added to every id: `BIG_ID_OFFSET` with `--big-ids`, and nothing (`undefined`) without.
 * "No offset" is written here only.
 * @example
 * idOffsetOf(false); // undefined: ids from 1
 */
export function idOffsetOf(bigIds: boolean): bigint | undefined {
  return bigIds ? BIG_ID_OFFSET : undefined;
}
