/**
 * How a read of the cluster's journal reaches every replica (`--store redis://`, `--workers`). Each
 * replica keeps the requests it answers in its own memory, so that answering a request costs Redis
 * nothing; a read asks them all instead. The reader publishes the question on the namespace's journal
 * channel (Redis tells it how many replicas listen), and each replica publishes its answer on the
 * reader's own channel. Reads are one at a time across the cluster (a lock in Redis): a replica numbers
 * its new entries when it answers, from the namespace's one counter, so that a poller's `since` never
 * passes over an entry another replica numbered meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { StoreUnavailableError } from '../../../errors.js';
import type { JournalEntry, JournalFilter } from '../journal.js';
import type { SubscriberClient } from './client.js';
import { openSubscriber } from './connection.js';
import type { RedisStore } from './redis-store.js';

/** How long a read waits for the replicas' answers; if one has not answered by then, the read is a 503 (`unanswered`). */
const ANSWER_MS = 1_000;
/** How long a read holds the cluster's journal at most: a reader that dies holding it frees it by then. */
const LOCK_MS = 3_000;
/** How often a read waiting for another one tries again. */
const LOCK_RETRY_MS = 3;
/**
 * The largest answer sent in its message, in characters. Redis closes a subscriber whose unread
 * messages pass its `client-output-buffer-limit` (32 MB for pub/sub by default), and with it every
 * answer of that read: a larger answer is left in a key of its own, which the reader takes.
 */
const INLINE_ANSWER_CHARS = 1_000_000;

/** What a read asks of every replica: its entries of a session that match a filter, or to forget a session's (or every one). */
export type JournalQuestion = { readonly kind: 'list'; readonly filter: JournalFilter } | { readonly kind: 'clear'; readonly session?: string };

/** What a replica answers: its entries for a list, none for a clear. */
export type JournalAnswerer = (question: JournalQuestion) => Promise<readonly JournalEntry[]>;

interface Envelope {
  readonly nonce: string;
  readonly replyTo: string;
  readonly question: JournalQuestion;
}

interface Waiting {
  readonly entries: JournalEntry[];
  answers: number;
  needed: number;
  done: () => void;
}

/** Reads a key and deletes it, in one command (GETDEL is Redis 6.2's). */
const TAKE = `local value = redis.call('GET', KEYS[1]) redis.call('DEL', KEYS[1]) return value`;

/** Frees the lock only if this read still holds it (it may have run out and been taken by another). */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One replica's end of the journal's channel: it answers the questions of every reader, and asks them of every replica.
 * @example
 * const bus = await JournalBus.open(store);
 * bus.answerWith(async (question) => (question.kind === 'list' ? myEntries(question.filter) : []));
 * const { entries, last } = await bus.ask({ kind: 'list', filter: { session: 'default' } });
 */
export class JournalBus {
  readonly #store: RedisStore;
  readonly #subscriber: SubscriberClient;
  readonly #asks: string;
  readonly #replies: string;
  readonly #waiting = new Map<string, Waiting>();
  #answerer: JournalAnswerer = () => Promise.resolve([]);
  /** The questions this replica answers, one after another, in the order Redis delivered them. */
  #answering: Promise<void> = Promise.resolve();

  private constructor(store: RedisStore, subscriber: SubscriberClient, replies: string) {
    this.#store = store;
    this.#subscriber = subscriber;
    this.#asks = `${store.prefix}journal:ask`;
    this.#replies = replies;
    subscriber.on('message', (channel, message) => {
      if (channel === this.#asks) this.#answer(message);
      else if (channel === this.#replies) this.#collect(message);
    });
  }

  /** Subscribes, on a connection of its own, to the questions of the namespace under `store` and to the answers to this replica's. */
  static async open(store: RedisStore): Promise<JournalBus> {
    const replies = `${store.prefix}journal:to:${process.pid}-${randomUUID()}`;
    // A question sent while the subscription is broken is not counted as one this replica hears.
    return new JournalBus(store, await openSubscriber(store.redis, 'journal', [`${store.prefix}journal:ask`, replies]), replies);
  }

  /** How this replica answers; until it is given, it answers with no entries (its journal is off). */
  answerWith(answerer: JournalAnswerer): void {
    this.#answerer = answerer;
  }

  /** @internal The key of the namespace's journal counter, from which each replica numbers its entries. */
  get counterKey(): string {
    return `${this.#store.prefix}journal:seq`;
  }

  /** Every replica's answers to `question`, and the counter once they all answered: no entry numbered up to it is missing. */
  async ask(question: JournalQuestion): Promise<{ readonly entries: JournalEntry[]; readonly last: number }> {
    const { redis } = this.#store;
    const lock = `${this.#store.prefix}journal:lock`;
    const token = randomUUID();
    try {
      await this.#lock(lock, token);
    } catch (error) {
      // A SET that timed out reaches Redis once it is back, and would hold the lock LOCK_MS for no read:
      // the unlock, sent after it on the same connection, frees it then. Not awaited: Redis may still be away.
      this.#store.run(() => redis.eval(UNLOCK, 1, lock, token)).catch(() => undefined);
      throw error;
    }
    try {
      const nonce = randomUUID();
      const waiting: Waiting = { entries: [], answers: 0, needed: Number.POSITIVE_INFINITY, done: () => {} };
      const answered = new Promise<void>((resolve) => {
        waiting.done = resolve;
      });
      this.#waiting.set(nonce, waiting);
      const timer = setTimeout(() => waiting.done(), ANSWER_MS);
      try {
        const envelope: Envelope = { nonce, replyTo: this.#replies, question };
        waiting.needed = await this.#store.run(() => redis.publish(this.#asks, JSON.stringify(envelope)));
        if (waiting.answers >= waiting.needed) waiting.done();
        await answered;
      } finally {
        clearTimeout(timer);
        this.#waiting.delete(nonce);
      }
      // A replica that did not answer may have numbered entries this read cannot list: a `last` past them would make a
      // poller skip them for good, and one short of them would list the others twice. No page is better than either.
      if (waiting.answers < waiting.needed) throw unanswered(waiting);
      const last = Number((await this.#store.run(() => redis.get(this.counterKey))) ?? 0);
      return { entries: waiting.entries, last };
    } finally {
      await this.#store.run(() => redis.eval(UNLOCK, 1, lock, token)).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }

  async #lock(lock: string, token: string): Promise<void> {
    const { redis } = this.#store;
    const giveUp = performance.now() + LOCK_MS + ANSWER_MS;
    while ((await this.#store.run(() => redis.set(lock, token, 'PX', LOCK_MS, 'NX'))) === null) {
      if (performance.now() > giveUp)
        throw new StoreUnavailableError(
          `The request journal could not be read: other reads have held it for over ${(LOCK_MS + ANSWER_MS) / 1000} s (a replica stopped without closing its connection to Redis at ${this.#store.url}, or Redis overloaded, makes each read wait). Try again.`,
        );
      await pause(LOCK_RETRY_MS);
    }
  }

  #answer(message: string): void {
    const envelope = parsed<Envelope>(message);
    if (envelope === undefined) return;
    const { redis } = this.#store;
    this.#answering = this.#answering
      .then(async () => {
        const entries = await this.#answerer(envelope.question).catch(() => []);
        const { nonce, replyTo } = envelope;
        let reply = JSON.stringify({ nonce, entries });
        if (reply.length > INLINE_ANSWER_CHARS) {
          const at = `${this.#store.prefix}journal:answer:${randomUUID()}`;
          await this.#store.run(() => redis.set(at, reply, 'PX', LOCK_MS));
          reply = JSON.stringify({ nonce, at });
        }
        await this.#store.run(() => redis.publish(replyTo, reply));
      })
      .catch(() => undefined);
  }

  #collect(message: string): void {
    const answer = parsed<{ nonce: string; entries?: JournalEntry[]; at?: string }>(message);
    const waiting = answer === undefined ? undefined : this.#waiting.get(answer.nonce);
    if (answer === undefined || waiting === undefined) return;
    const { at } = answer;
    if (at === undefined) {
      this.#counted(waiting, answer.entries ?? []);
      return;
    }
    void this.#store
      .run(() => this.#store.redis.eval(TAKE, 1, at))
      .then((left) => {
        const entries = typeof left === 'string' ? parsed<{ entries: JournalEntry[] }>(left)?.entries : undefined;
        // Taken after the read gave up (it is no longer waiting): nothing to add. Not found (Redis away): no answer.
        if (entries !== undefined && this.#waiting.get(answer.nonce) === waiting) this.#counted(waiting, entries);
      })
      .catch(() => undefined);
  }

  #counted(waiting: Waiting, entries: readonly JournalEntry[]): void {
    // Not push(...entries): a journal of a million entries would pass the engine's limit on arguments.
    for (const entry of entries) waiting.entries.push(entry);
    waiting.answers++;
    if (waiting.answers >= waiting.needed) waiting.done();
  }
}

/** Why a read lists nothing: not every replica that heard the question answered it in time. */
function unanswered(waiting: Waiting): StoreUnavailableError {
  return new StoreUnavailableError(
    `The request journal could not be read whole: ${waiting.answers} of the ${waiting.needed} replicas answered within ${ANSWER_MS / 1000} s (one may be stopped or overloaded, its connection to Redis still open). Try again; once it answers or its connection closes, reads work again.`,
  );
}

/** A message of the journal's channels, or `undefined` for anything else published there. */
function parsed<T>(message: string): T | undefined {
  try {
    return JSON.parse(message) as T;
  } catch {
    return undefined;
  }
}
