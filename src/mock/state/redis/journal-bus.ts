/**
 * How a read of the cluster's journal reaches every replica (`--store redis://`, `--workers`). Each
 * replica keeps the requests it answers in its own memory, so that answering a request costs Redis
 * nothing; a read asks them all instead. The reader publishes the question on the namespace's journal
 * channel (Redis tells it how many replicas listen to it), and each replica publishes its answer on the
 * reader's own channel. Reads are one at a time across the cluster (a lock in Redis): a replica numbers
 * its new entries when it answers, from the namespace's one counter, so that a poller's `since` never
 * passes over an entry another replica numbered meanwhile.
 */
import { createHash, randomUUID } from 'node:crypto';
import { StoreUnavailableError } from '../../../errors.js';
import { type LiveDeadline, liveDeadline } from '../../core/live-deadline.js';
import type { JournalEntry } from '../journal.js';
import { openSubscriber } from './connection.js';
import type { SubscriberClient } from './redis-client.js';
import type { RedisStore } from './redis-store.js';

/**
 * How long a read waits for every replica to hear its question, from the moment Redis delivered it: each
 * says so at once, before it makes its answer, as soon as its event loop is free. One stopped (SIGSTOP)
 * never does, and the read is a 503. One busy is free within the longest piece of work a replica does
 * without yielding: making one answer of the journal's bound (4 MiB, `ANSWER_BYTES`, its keys hidden),
 * measured at up to 4.2 s on a loaded 2-core machine (ten reads at once of a journal at its bound); 3 s
 * made half of such reads a 503 saying a replica had stopped, though none had.
 */
const HEARD_MS = 10_000;
/** How long a read then waits for the answers of the replicas that heard it: each makes its answer, after those queued before it. */
const WORK_MS = 20_000;
/** How long a read holds the cluster's journal at most, past its `HEARD_MS` (and past `WORK_MS` once all heard): a reader that dies holding it frees it by then. */
const LOCK_MS = 8_000;
/** The longest a read holds the journal, its lock run out included: a holder past it is Redis failing to expire it. */
const HELD_MS = HEARD_MS + WORK_MS + 2 * LOCK_MS;
/** How often a read waiting for another one tries again. */
const LOCK_RETRY_MS = 3;
/**
 * How long a read waits its turn while other reads take theirs. Reads waiting are not a replica
 * stopped: each read ahead ends within `LOCK_MS`, and a replica's identical reads wait as one (`ask`),
 * so this bound is met only by a cluster asked more than it can answer.
 */
const TURN_MS = 30_000;
/**
 * The largest answer sent in its message, in characters. Redis closes a subscriber whose unread
 * messages pass its `client-output-buffer-limit` (32 MB for pub/sub by default), and with it every
 * answer of that read: a larger answer is left in a key of its own, which the reader takes.
 */
const INLINE_ANSWER_CHARS = 1_000_000;

/**
 * What a read asks of every replica: its entries of a session newer than `since`, or to forget a
 * session's (or every one's). The session goes as its digest (`sessionDigest`), never its name: a name
 * may hold a key, and no key goes through Redis.
 */
export type JournalQuestion =
  | { readonly kind: 'list'; readonly session: string; readonly since?: number }
  | { readonly kind: 'clear'; readonly session?: string };

/**
 * What a question names a session by: a SHA-256 of its name, which every replica computes alike.
 * @example
 * bus.ask({ kind: 'clear', session: bus.digest('worker-1') });
 */
export function sessionDigest(name: string): string {
  return createHash('sha256').update(name).digest('base64url');
}

/** What a replica answers: its entries for a list, none for a clear. */
export type JournalAnswerer = (question: JournalQuestion) => Promise<readonly JournalEntry[]>;

interface Envelope {
  readonly nonce: string;
  readonly replyTo: string;
  readonly question: JournalQuestion;
}

interface Waiting {
  readonly entries: JournalEntry[];
  /** Replicas that said they heard the question, and that answered it. */
  heard: number;
  answers: number;
  needed: number;
  /** Called once every replica heard it. */
  allHeard: () => void;
  done: () => void;
}

/** Reads a key and deletes it, in one command (GETDEL is Redis 6.2's). */
const TAKE = `local value = redis.call('GET', KEYS[1]) redis.call('DEL', KEYS[1]) return value`;

/** Takes the lock for this read (1), or names the read that holds it (its token; `''` if it was freed meanwhile). */
const LOCK = `if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end return redis.call('GET', KEYS[1]) or ''`;

/**
 * Publishes a question, and says how many replicas heard it: the clients subscribed to its channel. PUBLISH
 * alone counts pattern subscribers too (a `redis-cli psubscribe '*'` left open to watch), which never answer.
 */
const ASK = `local replicas = redis.call('pubsub', 'numsub', KEYS[1])[2] redis.call('publish', KEYS[1], ARGV[1]) return replicas`;

/** Holds the lock longer, only if this read still holds it. */
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/** Frees the lock only if this read still holds it (it may have run out and been taken by another). */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One replica's end of the journal's channel: it answers the questions of every reader, and asks them of every replica.
 * @example
 * const bus = await JournalBus.open(store);
 * bus.answerWith(async (question) => (question.kind === 'list' ? myEntries(question) : []));
 * const { entries, last } = await bus.ask({ kind: 'list', session: bus.digest('default') });
 */
export class JournalBus {
  /** What a question names a session by (`sessionDigest`). */
  readonly digest = sessionDigest;

  readonly #store: RedisStore;
  readonly #subscriber: SubscriberClient;
  readonly #asks: string;
  readonly #replies: string;
  readonly #waiting = new Map<string, Waiting>();
  /** The reads of this replica waiting their turn, by question: an identical read asked meanwhile waits with it. */
  readonly #queued = new Map<string, Promise<{ readonly entries: JournalEntry[]; readonly last: number }>>();
  #answerer: JournalAnswerer = () => Promise.resolve([]);
  /** The turn of the last read given its answer (`#inTurn`). */
  #turns: Promise<void> = Promise.resolve();
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

  /**
   * Every replica's answers to `question`, and the counter once they all answered: no entry numbered up
   * to it is missing. A read asked while an identical one of this replica waits its turn shares its
   * answer: its question is not sent yet, so it will list every request answered before either began.
   */
  ask(question: JournalQuestion): Promise<{ readonly entries: JournalEntry[]; readonly last: number }> {
    const key = JSON.stringify(question);
    const queued = this.#queued.get(key);
    if (queued !== undefined) return queued.then((answer) => this.#inTurn(answer));
    const asked = this.#askInTurn(question, () => {
      if (this.#queued.get(key) === asked) this.#queued.delete(key);
    });
    this.#queued.set(key, asked);
    return asked.then((answer) => this.#inTurn(answer));
  }

  /**
   * `value` once the reads given theirs before have gone on: one a turn of the event loop. What a read
   * does with its answer (a page of up to 4 MiB, its keys hidden once more) takes a second of CPU, and
   * ten reads sharing one answer did it one after another without the loop reading a socket between:
   * the replica then heard no question for 8 s, and the other's reads were a 503 saying it had stopped.
   */
  #inTurn<T>(value: T): Promise<T> {
    const turn = this.#turns.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.#turns = turn;
    return turn.then(() => value);
  }

  /** Takes the cluster's turn, then asks every replica; `sent` once the question is about to go, when later reads must ask again. */
  async #askInTurn(question: JournalQuestion, sent: () => void): Promise<{ readonly entries: JournalEntry[]; readonly last: number }> {
    const { redis } = this.#store;
    const lock = `${this.#store.prefix}journal:lock`;
    const token = randomUUID();
    try {
      await this.#lock(lock, token);
    } catch (error) {
      sent();
      // A SET that timed out reaches Redis once it is back, and would hold the lock LOCK_MS for no read:
      // the unlock, sent after it on the same connection, frees it then. Not awaited: Redis may still be away.
      this.#store.run(() => redis.eval(UNLOCK, 1, lock, token)).catch(() => undefined);
      throw error;
    }
    sent();
    try {
      // Once every replica heard it, the read holds the journal while they make their answers.
      const extend = () => this.#store.run(() => redis.eval(EXTEND, 1, lock, token, WORK_MS + LOCK_MS)).catch(() => undefined);
      return await this.#askAll(question, extend);
    } finally {
      await this.#store.run(() => redis.eval(UNLOCK, 1, lock, token)).catch(() => undefined);
    }
  }

  /** Publishes `question` and waits for every replica that heard it to say so, at most `HEARD_MS` from then, and to answer, at most `WORK_MS` from that. */
  async #askAll(question: JournalQuestion, allHeard: () => void): Promise<{ readonly entries: JournalEntry[]; readonly last: number }> {
    const { redis } = this.#store;
    const nonce = randomUUID();
    const waiting: Waiting = { entries: [], heard: 0, answers: 0, needed: Number.POSITIVE_INFINITY, allHeard: () => {}, done: () => {} };
    const answered = new Promise<void>((resolve) => {
      waiting.done = resolve;
    });
    this.#waiting.set(nonce, waiting);
    let deadline: LiveDeadline | undefined;
    try {
      const envelope: Envelope = { nonce, replyTo: this.#replies, question };
      waiting.allHeard = () => {
        deadline?.clear();
        deadline = liveDeadline(WORK_MS, waiting.done);
        allHeard();
      };
      waiting.needed = Number(await this.#store.run(() => redis.eval(ASK, 1, this.#asks, JSON.stringify(envelope))));
      // Timed from the publish: a slow PUBLISH on a busy machine must not eat the replicas' time to hear it.
      deadline = liveDeadline(HEARD_MS, waiting.done);
      if (waiting.heard >= waiting.needed) waiting.allHeard();
      if (waiting.answers >= waiting.needed) waiting.done();
      await answered;
    } finally {
      deadline?.clear();
      this.#waiting.delete(nonce);
    }
    // A replica that did not answer may have numbered entries this read cannot list: a `last` past them would make a
    // poller skip them for good, and one short of them would list the others twice. No page is better than either.
    if (waiting.answers < waiting.needed) throw unanswered(waiting);
    const last = Number((await this.#store.run(() => redis.get(this.counterKey))) ?? 0);
    return { entries: waiting.entries, last };
  }

  async close(): Promise<void> {
    await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }

  /**
   * Waits for the cluster's turn. Other reads holding it one after another are reads, not a replica
   * stopped: the wait fails only when one read holds it past `HELD_MS` (Redis too slow
   * to expire it), or when the reads ahead have taken `TURN_MS` in all.
   */
  async #lock(lock: string, token: string): Promise<void> {
    const { redis } = this.#store;
    const started = performance.now();
    let holder: unknown;
    let heldSince = started;
    for (;;) {
      const got = await this.#store.run(() => redis.eval(LOCK, 1, lock, token, LOCK_MS));
      if (got === 1) return;
      const now = performance.now();
      if (got !== holder) {
        holder = got;
        heldSince = now;
      } else if (now - heldSince > HELD_MS)
        throw new StoreUnavailableError(
          `The request journal could not be read: one read has held it for over ${HELD_MS / 1000} s, which Redis at ${this.#store.url} should have ended by then (Redis overloaded?). Try again.`,
        );
      if (now - started > TURN_MS)
        throw new StoreUnavailableError(
          `The request journal is busy: other reads kept it for ${TURN_MS / 1000} s, one after another (every replica answered them; none stopped). Try again, or read it less often.`,
        );
      await pause(LOCK_RETRY_MS);
    }
  }

  #answer(message: string): void {
    const envelope = parsed<Envelope>(message);
    if (envelope === undefined) return;
    const { redis } = this.#store;
    // Heard at once, before the answers queued ahead of this one: the reader then knows this replica runs.
    const heard = JSON.stringify({ nonce: envelope.nonce, heard: true });
    this.#store.run(() => redis.publish(envelope.replyTo, heard)).catch(() => undefined);
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
    const answer = parsed<{ nonce: string; heard?: true; entries?: JournalEntry[]; at?: string }>(message);
    const waiting = answer === undefined ? undefined : this.#waiting.get(answer.nonce);
    if (answer === undefined || waiting === undefined) return;
    if (answer.heard) {
      if (++waiting.heard === waiting.needed) waiting.allHeard();
      return;
    }
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
  if (waiting.heard < waiting.needed)
    return new StoreUnavailableError(
      `The request journal could not be read whole: ${waiting.heard} of the ${waiting.needed} replicas heard the read within ${HEARD_MS / 1000} s (one may be stopped, its connection to Redis still open). Try again; once it runs again or its connection closes, reads work again.`,
    );
  return new StoreUnavailableError(
    `The request journal could not be read whole: ${waiting.answers} of the ${waiting.needed} replicas answered within ${WORK_MS / 1000} s of hearing the read (overloaded?). Try again, or read it less often.`,
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
