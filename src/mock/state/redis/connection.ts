/**
 * The connection to Redis and the checks that keep the state from silently forking: the URL as it may
 * be shown (never a password), the time-out on every command, and the server's eviction policy, which
 * must not let Redis drop a key of the mock's to make room.
 */

import { codeOf, EXIT, messageOf, StoreUnavailableError, UsageError } from '../../../errors.js';
import { parseUserUrl } from '../../../http/user-url.js';
import { liveDeadline, longestWait } from '../../core/live-deadline.js';
import type { RedisClient, ScriptHost, SubscriberClient } from './redis-client.js';

/** Milliseconds a Redis command may take before the request that needs it gets a 503. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 3_000;

/**
 * The URL as it may be shown: without user name, password, query or fragment. ioredis takes options
 * from the query (`?password=...` among them), so no part of it is shown.
 */
export function displayUrl(url: string): string {
  const parsed = parseUserUrl(url, { name: 'The store', schemes: ['redis:', 'rediss:'], example: 'redis://127.0.0.1:6379 or redis://host:6379/2' });
  databaseOf(parsed);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.href.replace(/\/$/, '');
}

/**
 * The database a store URL names: its path, `/` and a number written in plain digits (`/2`), 0 when it
 * has none. ioredis reads the path with `parseInt`, so `/0x1`, `/1e1` or `/-0` would pick a database
 * the URL does not say; such a path is refused instead.
 */
function databaseOf(url: URL): number {
  const path = url.pathname;
  if (path === '' || path === '/') return 0;
  if (!/^\/(?:0|[1-9][0-9]{0,8})$/.test(path))
    throw new TypeError(
      `The store's path names its Redis database, a number in plain digits such as /2 (redis://127.0.0.1:6379/2); got ${JSON.stringify(path)}.`,
    );
  return Number(path.slice(1));
}

/**
 * Selects the database the URL names, once more: ioredis selects it on connecting, but when the server
 * has no such database it reports the error on the side and goes on in database 0, where the mock
 * would write over whatever lives there.
 */
async function selectDatabase(redis: RedisClient, url: string): Promise<void> {
  const database = databaseOf(new URL(url));
  if (database === 0) return;
  try {
    await redis.select(database);
  } catch (error) {
    throw new StoreUnavailableError(
      `Redis at ${displayUrl(url)} has no database ${database} (${messageOf(error)}); pass a --store URL whose path names one it has (/0 to /15 unless its redis.conf sets \`databases\`).`,
      { cause: error, exitCode: EXIT.usage },
    );
  }
}

/**
 * A connection of its own, named for `purpose`, subscribed to `channels`. A break is the caller's to
 * notice (ioredis reconnects and subscribes again by itself, and says so on 'close'); one that fails
 * to subscribe at first is closed and its error thrown.
 * @example
 * const subscriber = await openSubscriber(redis, 'changes', ['petstore:changes']);
 */
export async function openSubscriber(redis: RedisClient, purpose: string, channels: readonly string[]): Promise<SubscriberClient> {
  const subscriber = redis.duplicate({ connectionName: `petstore-mock-${process.pid}-${purpose}` });
  subscriber.on('error', () => undefined);
  try {
    await subscriber.connect();
    for (const channel of channels) await subscriber.subscribe(channel);
  } catch (error) {
    subscriber.disconnect();
    throw error;
  }
  return subscriber;
}

/**
 * `reply`, or a rejection once `ms` have passed without it. ioredis's own time-out starts only when a
 * command is sent, and with auto-pipelining a command waits for the pipeline before it: a request
 * would wait twice the time-out. This bounds the wait from the moment the request asks.
 */
export function withDeadline<T>(reply: Promise<T>, ms: number): Promise<T> {
  // One promise and one deadline, not a race of two and a finally: this runs for every command. The deadline
  // does not count this process's own stalls, when a reply waits unread in the socket (live-deadline.ts).
  return new Promise<T>((resolve, reject) => {
    const deadline = liveDeadline(ms, () => reject(new Error(`no response within ${ms} ms`)));
    reply.then(
      (value) => {
        deadline.clear();
        resolve(value);
      },
      (error: unknown) => {
        deadline.clear();
        reject(error);
      },
    );
  });
}

/**
 * Whether loading ioredis failed because it is not installed. import() says ERR_MODULE_NOT_FOUND; the
 * CommonJS build (dist/cjs/) loads it with require(), which says MODULE_NOT_FOUND, also when a module
 * that ioredis itself requires is missing: only the one naming ioredis counts.
 */
function isIoredisMissing(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ERR_MODULE_NOT_FOUND' || (code === 'MODULE_NOT_FOUND' && messageOf(error).startsWith("Cannot find module 'ioredis'"));
}

/** Loads ioredis, which the package lists as an optional peer dependency. */
async function loadClient(): Promise<typeof import('ioredis').Redis> {
  try {
    return (await import('ioredis')).Redis;
  } catch (error) {
    if (!isIoredisMissing(error)) throw error;
    throw new UsageError('--store redis:// needs the ioredis package: run npm install ioredis');
  }
}

/** How long to wait for Redis: to connect at start, and for each command once connected. */
export interface ConnectionTimeouts {
  readonly connectMs: number;
  readonly commandMs: number;
}

/** The client's options: fail fast while Redis is away, and reconnect for as long as the mock runs. */
function clientOptions(timeouts: ConnectionTimeouts, isConnected: () => boolean) {
  return {
    lazyConnect: true,
    // While Redis is away a command fails at once (the request gets its 503) instead of waiting in a queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A Redis that keeps the connection open but does not respond (stopped, swapping, blocked by a
    // long script) fails each command after this long, so that no request waits for it unbounded. The
    // store's own deadline (`withDeadline`) comes first; this one, which counts the process's stalls, is its backstop.
    commandTimeout: longestWait(timeouts.commandMs),
    // At start a refused connection is final (the mock exits naming the URL); once connected,
    // reconnect for as long as the mock runs, so that it recovers by itself when Redis is back.
    retryStrategy: (times: number) => (isConnected() ? Math.min(times * 50, 500) : null),
    enableAutoPipelining: true,
    // Creates are batched by the store itself (create-batch.ts): each batch goes out at once.
    autoPipeliningIgnoredCommands: ['petstoreCreate'],
    // CLIENT LIST then says which mock process holds each connection.
    connectionName: `petstore-mock-${process.pid}`,
    connectTimeout: timeouts.connectMs,
  };
}

/**
 * A connected client, or a `StoreUnavailableError` naming the URL (without its password) and the cause.
 * `define` adds the scripts before the first command is sent.
 */
export async function connectClient(url: string, timeouts: ConnectionTimeouts, define: (redis: ScriptHost) => void): Promise<RedisClient> {
  const Client = await loadClient();
  let connected = false;
  const redis = new Client(
    url,
    clientOptions(timeouts, () => connected),
  );
  define(redis);
  let lastError = '';
  const onError = (error: Error) => {
    lastError = error.message;
  };
  redis.on('error', onError);
  try {
    await new Promise<void>((resolve, reject) => {
      // Cleared once settled: a timer left behind would keep a failed CLI waiting to exit.
      const timer = setTimeout(() => reject(new Error(`no answer within ${timeouts.connectMs} ms`)), timeouts.connectMs);
      redis
        .connect()
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  } catch (error) {
    // A refused connection has already ended the client; disconnecting it again would leave ioredis
    // a timer that keeps the process alive for seconds.
    if (redis.status !== 'end') redis.disconnect();
    throw new StoreUnavailableError(
      `cannot reach Redis at ${displayUrl(url)}: ${lastError || messageOf(error)}. Start Redis there, or pass the right --store URL.`,
      { cause: error },
    );
  }
  try {
    await selectDatabase(redis, url);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  connected = true;
  redis.off('error', onError);
  return redis;
}

/**
 * The server's `maxmemory-policy`: from CONFIG GET, or from INFO where CONFIG is disabled or renamed
 * (as managed Redis services do); `undefined` when neither says.
 */
async function evictionPolicy(redis: RedisClient): Promise<string | undefined> {
  try {
    const reply = await redis.config('GET', 'maxmemory-policy');
    const policy = Array.isArray(reply) ? reply[1] : undefined;
    if (typeof policy === 'string') return policy;
  } catch {
    // CONFIG is not allowed here: INFO says the same.
  }
  return /^maxmemory_policy:(\S+)/m.exec(await redis.info('memory'))?.[1];
}

/**
 * Why this Redis cannot keep the mock's state, or `undefined` when it can. Only `noeviction` is
 * safe: the `allkeys-*` policies drop any key when memory runs out (a pet vanishes, a counter starts
 * over and ids repeat), and the `volatile-*` ones drop keys with a time-out, which the seeding lock
 * has; queue libraries on Redis require `noeviction` for the same reason.
 */
export async function evictionProblem(redis: RedisClient, url: string): Promise<string | undefined> {
  const policy = await evictionPolicy(redis);
  if (policy === undefined || policy === 'noeviction') return undefined;
  return `Redis at ${displayUrl(url)} has maxmemory-policy ${policy}, which lets it evict the mock's keys when memory runs out (pets would vanish and ids repeat); run CONFIG SET maxmemory-policy noeviction there (and set it in redis.conf).`;
}

/** The error that stops a mock from starting on a Redis that may evict its keys: a setting to change (exit 2). */
export function evictionError(problem: string): StoreUnavailableError {
  return new StoreUnavailableError(problem, { exitCode: EXIT.usage });
}
