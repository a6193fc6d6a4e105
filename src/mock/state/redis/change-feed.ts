/**
 * How a replica knows that what it keeps of Redis in memory is still what Redis holds. Every write
 * that changes something replicas keep (a new generation of the namespace, the default session's
 * clock) publishes a message on the namespace's channel in the same step as the write, then waits
 * `LEASE_MS` before it answers. Each replica listens on a connection of its own and pings Redis on it
 * every `HEARTBEAT_MS`: Redis answers a ping after every message published before it, so a pong says
 * "you have heard every change up to the moment I read your ping". A replica trusts its memory for
 * `LEASE_MS` from the moment it sent the last ping answered, and only while its subscription has
 * lived without a break since it read that memory from Redis. The writer's wait outlasts every other
 * replica's trust in the old value: once it answers, each replica has either heard the change or stopped
 * trusting what it kept, and reads Redis again (and gets a 503 if Redis does not answer).
 */

import { openSubscriber } from './connection.js';
import type { RedisClient, RedisTransaction, SubscriberClient } from './redis-client.js';

/**
 * How often a replica pings Redis on its subscription: often enough that a pong renews the lease
 * before it runs out while pongs take under 150 ms, and no more. Each ping costs a busy replica more
 * than its own work (in five alternating wrk rounds on 2 cores, a replica pinging every 50 ms answered
 * a median 4 % fewer reads a second than one pinging every 100 ms).
 */
const HEARTBEAT_MS = 100;
/** How long a pong lets a replica trust what it keeps, from the moment it sent the ping; how long a writer waits after a change. */
const LEASE_MS = 250;

/** The channel of a namespace's changes is `<prefix>changes` (the Lua scripts publish on it too). */
export const CHANGES = 'changes';

function channelOf(prefix: string): string {
  return `${prefix}${CHANGES}`;
}

/** `transaction` with the message that tells every replica of a change, published in the same step. */
export function announceChange(transaction: RedisTransaction, prefix: string, what: string): RedisTransaction {
  return transaction.publish(channelOf(prefix), what);
}

/** The writer's wait after a change: until no replica can still trust what it kept from before. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, LEASE_MS));
}

/** The state of the feed when a replica started reading Redis: what it read may be kept while the feed says `trusts(mark)`. */
export interface FeedMark {
  readonly epoch: number;
  readonly changes: number;
}

/**
 * One replica's subscription to its namespace's changes.
 * @example
 * const feed = await ChangeFeed.open(redis, 'petstore:');
 * const mark = feed.mark(); // then read Redis
 * // ... read Redis, keep what was read if mark !== undefined && feed.unchanged(mark) ...
 * feed.trusts(mark); // later: true while what was read is still what Redis holds
 */
export class ChangeFeed {
  readonly #subscriber: SubscriberClient;
  readonly #timer: NodeJS.Timeout;
  /** Counts the subscription's connections: a break loses the messages published during it. */
  #epoch = 0;
  /** The epoch a pong has proven subscribed: a ping is sent after the subscription on its connection. */
  #confirmed = -1;
  #changes = 0;
  /** `performance.now()` until which the last pong lets the replica trust what it keeps. */
  #liveUntil = 0;

  private constructor(subscriber: SubscriberClient, channel: string) {
    this.#subscriber = subscriber;
    subscriber.on('message', (from: string) => {
      if (from === channel) this.#changes++;
    });
    subscriber.on('close', () => {
      this.#epoch++;
      this.#liveUntil = 0;
    });
    this.#timer = setInterval(() => this.#beat(), HEARTBEAT_MS).unref();
    this.#beat();
  }

  /** Subscribes on a connection of its own to the changes of the namespace under `prefix`. */
  static async open(redis: RedisClient, prefix: string): Promise<ChangeFeed> {
    // A broken subscription is the heartbeat's to notice.
    return new ChangeFeed(await openSubscriber(redis, 'changes', [channelOf(prefix)]), channelOf(prefix));
  }

  /** Taken before reading Redis; `undefined` while the subscription is not proven, when nothing read may be kept. */
  mark(): FeedMark | undefined {
    return this.#confirmed === this.#epoch ? { epoch: this.#epoch, changes: this.#changes } : undefined;
  }

  /** Whether no change was published, nor could have been missed, since `mark`. */
  unchanged(mark: FeedMark): boolean {
    return mark.changes === this.#changes && mark.epoch === this.#epoch;
  }

  /** Whether what was read from Redis after `mark` is still what Redis holds, now. */
  trusts(mark: FeedMark): boolean {
    return mark.changes === this.#changes && mark.epoch === this.#epoch && performance.now() < this.#liveUntil;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }

  #beat(): void {
    const epoch = this.#epoch;
    const sentAt = performance.now();
    this.#subscriber.ping().then(
      () => {
        if (epoch !== this.#epoch) return;
        this.#confirmed = epoch;
        this.#liveUntil = Math.max(this.#liveUntil, sentAt + LEASE_MS);
      },
      () => undefined,
    );
  }
}
