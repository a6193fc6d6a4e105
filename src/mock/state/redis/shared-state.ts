/**
 * What a mock needs to keep its state in Redis, made in one call: the connection with its namespace
 * seeded, the sessions and the coverage over it. The Node server makes it for `--store`; the handler
 * takes its parts in place of the in-memory ones.
 */

import { JournalBus } from './journal-bus.js';
import { SharedCoverage } from './redis-coverage.js';
import { RedisSessions } from './redis-sessions.js';
import { connectRedisStore, type RedisStore, type RedisStoreOptions } from './redis-store.js';

/**
 * A mock's state in Redis.
 * @example
 * const state = await openSharedState({ url: 'redis://127.0.0.1:6379', seed: 1, count: 50, bigIds: false, sessionTtl: 1_800_000, maxSessions: 100, basePath: '/v1', now: Date.now });
 * createMockApi({ shared: state });
 */
export interface SharedState {
  readonly store: RedisStore;
  readonly sessions: RedisSessions;
  readonly coverage: SharedCoverage;
  /** How a read of the journal reaches every replica. */
  readonly journalBus: JournalBus;
  /** Adds the last coverage counts to Redis and closes the connection. */
  close(): Promise<void>;
}

/** Where the state lives and what a new namespace is seeded with, and the mock's base path and clock. */
export interface SharedStateOptions extends RedisStoreOptions {
  readonly basePath: string;
  readonly now: () => number;
}

/** Connects to Redis and seeds the namespace if no replica has; rejects with a `StoreUnavailableError` when Redis does not answer. */
export async function openSharedState(options: SharedStateOptions): Promise<SharedState> {
  const store = await connectRedisStore(options);
  const journalBus = await JournalBus.open(store).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const coverage = new SharedCoverage(options.basePath, store);
  return {
    store,
    sessions: new RedisSessions(store, options.now, { ttl: options.sessionTtl, max: options.maxSessions }),
    coverage,
    journalBus,
    close: async () => {
      await coverage.close();
      await journalBus.close();
      await store.close();
    },
  };
}
