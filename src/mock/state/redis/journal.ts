/**
 * The request journal every replica writes and reads (`--store redis://`, `--workers`): a capped list
 * per session in Redis, newest first. A replica keeps the requests it answers in memory and writes
 * them a moment after the responses are sent (one script per 100 ms, off the response path); a read writes this
 * replica's first, so it sees its own requests at once and the others' a moment after they answered.
 */
import type { FormatRecord, JournalEntry, JournalFilter, JournalKeeper, JournalPage, JournalRecord } from '../journal.js';
import { entryFilter } from '../journal.js';
import type { RedisStore } from './redis-store.js';

/**
 * Numbers each entry from the namespace's one counter and adds it to its session's list, which is
 * then cut to its size and given the sessions' idle time-out; the session's name joins the set of
 * journalled sessions. KEYS: the counter, the set. ARGV: size, time-out (ms), the lists' prefix, then
 * (session, entry JSON without its opening `{`) pairs. Returns the counter.
 */
const APPEND = `
local size = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local touched = {}
for i = 4, #ARGV, 2 do
  local id = redis.call('INCR', KEYS[1])
  local list = ARGV[3] .. ARGV[i]
  redis.call('LPUSH', list, '{"id":' .. id .. ',' .. ARGV[i + 1])
  touched[list] = ARGV[i]
end
for list, name in pairs(touched) do
  redis.call('LTRIM', list, 0, size - 1)
  redis.call('PEXPIRE', list, ttl)
  redis.call('SADD', KEYS[2], name)
end
redis.call('PEXPIRE', KEYS[2], ttl)
return redis.call('GET', KEYS[1])
`;

/** How long a replica gathers the requests it answers before it writes them to Redis. */
const FLUSH_MS = 100;

/** Records waiting to be written at most; past it, while Redis is slow or away, new ones are dropped. */
const MAX_WAITING = 10_000;

/** An entry read back; anything else in the list is skipped. */
function entryOf(json: string): JournalEntry | undefined {
  try {
    const entry: unknown = JSON.parse(json);
    // What APPEND wrote is a JournalEntry's JSON with its id first: an object with a numeric id is one of those.
    return typeof entry === 'object' && entry !== null && 'id' in entry && typeof entry.id === 'number' ? (entry as JournalEntry) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The journal shared through Redis.
 * @example
 * const journal = new SharedJournal(state.store, { size: 500, ttlMs: 1_800_000, format });
 * journal.record(record); // written once the response is sent
 * (await journal.list({ method: 'POST' })).entries; // every replica's
 */
export class SharedJournal implements JournalKeeper {
  readonly #store: RedisStore;
  readonly #size: number;
  readonly #ttlMs: number;
  readonly #format: FormatRecord;
  readonly #prefix: string;
  #waiting: JournalRecord[] = [];
  #scheduled = false;
  /** The writes under way, in order: a read waits for them. */
  #writing: Promise<void> = Promise.resolve();

  constructor(store: RedisStore, options: { readonly size: number; readonly ttlMs: number; readonly format: FormatRecord }) {
    this.#store = store;
    this.#size = options.size;
    this.#ttlMs = options.ttlMs;
    this.#format = options.format;
    this.#prefix = `${store.namespace}:journal:`;
  }

  record(record: JournalRecord): void {
    if (this.#waiting.length >= MAX_WAITING) return;
    this.#waiting.push(record);
    if (this.#scheduled) return;
    this.#scheduled = true;
    // In one script for all the requests of a while, not one per turn of the event loop: fewer, larger
    // writes cost a busy replica less (a read writes what is waiting at once, so it sees its own).
    setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes the records waiting; a failure (Redis away) loses them: the journal never holds a response back. */
  flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#waiting;
    if (batch.length === 0) return this.#writing;
    this.#waiting = [];
    const args: (string | number)[] = [this.#size, this.#ttlMs, `${this.#prefix}s:`];
    // Formatted here, not as the request was answered: the key is hidden before anything reaches Redis.
    for (const record of batch) args.push(record.session, JSON.stringify(this.#format(record, 0)).slice('{"id":0,'.length));
    const keys = [`${this.#prefix}seq`, `${this.#prefix}sessions`];
    this.#writing = this.#writing.then(() =>
      this.#store
        .run(() => this.#store.redis.eval(APPEND, 2, ...keys, ...args))
        .then(
          () => {},
          () => {},
        ),
    );
    return this.#writing;
  }

  async list(filter: JournalFilter): Promise<JournalPage> {
    await this.flush();
    const session = filter.session ?? 'default';
    const [stored, last] = await this.#store.run(() =>
      Promise.all([this.#store.redis.lrange(`${this.#prefix}s:${session}`, 0, this.#size - 1), this.#store.redis.get(`${this.#prefix}seq`)]),
    );
    const matches = entryFilter(filter);
    const entries = stored.flatMap((json) => entryOf(json) ?? []).reverse();
    return { session, entries: entries.filter(matches), last: Number(last ?? 0) };
  }

  async clear(session?: string): Promise<void> {
    await this.flush();
    const { redis } = this.#store;
    if (session !== undefined) {
      await this.#store.run(() => redis.del(`${this.#prefix}s:${session}`));
      return;
    }
    const names = await this.#store.run(() => redis.smembers(`${this.#prefix}sessions`));
    await this.#store.run(() => redis.del(`${this.#prefix}sessions`, ...names.map((name) => `${this.#prefix}s:${name}`)));
  }
}
