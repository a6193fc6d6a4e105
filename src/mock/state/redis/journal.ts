/**
 * The request journal of a cluster (`--store redis://`, `--workers`). A replica keeps the requests it
 * answers in its own rings, as a lone mock does, and answering a request costs Redis nothing. A read
 * asks every replica through the journal bus (journal-bus.ts): each numbers its new entries from the
 * namespace's one counter (one command, when it has new ones) and answers with those that match. So a
 * replica that stops takes its entries with it, and entries are numbered when they are first read.
 */
import type { FormatRecord, JournalEntry, JournalFilter, JournalKeeper, JournalPage, JournalRecord } from '../journal.js';
import { entryFilter, formatted } from '../journal.js';
import { JournalRings } from '../journal-ring.js';
import type { JournalBus, JournalQuestion } from './journal-bus.js';
import type { RedisStore } from './redis-store.js';

const byId = (a: JournalEntry, b: JournalEntry) => a.id - b.id;

/**
 * The journal shared by every replica on one Redis namespace.
 * @example
 * const journal = new ClusterJournal(state.store, state.journalBus, { size: 500, maxRings: 100, format });
 * journal.record(record); // in this replica's memory
 * (await journal.list({ method: 'POST' })).entries; // every replica's
 */
export class ClusterJournal implements JournalKeeper {
  readonly #store: RedisStore;
  readonly #bus: JournalBus;
  readonly #rings: JournalRings;
  readonly #size: number;
  readonly #format: FormatRecord;

  constructor(store: RedisStore, bus: JournalBus, options: { readonly size: number; readonly maxRings: number; readonly format: FormatRecord }) {
    this.#store = store;
    this.#bus = bus;
    this.#rings = new JournalRings(options.size, options.maxRings);
    this.#size = options.size;
    this.#format = options.format;
    bus.answerWith((question) => this.#answer(question));
  }

  record(record: JournalRecord): void {
    // Numbered when first read (0 until then): a request answered costs Redis nothing.
    this.#rings.ringOf(record.session).push(record, 0);
  }

  async list(filter: JournalFilter): Promise<JournalPage> {
    const session = filter.session ?? 'default';
    // The question goes through Redis: it carries the session (a name Redis holds anyway) and `since`, never
    // the text of a filter (`path`, `method`...), which may hold a key; this replica applies those to the answers.
    const asked: JournalFilter = typeof filter.since === 'number' ? { session, since: filter.since } : { session };
    const { entries, last } = await this.#bus.ask({ kind: 'list', filter: asked });
    // Each replica keeps `size` of the session's entries; the cluster's journal shows the newest `size` of them all.
    return { session, entries: entries.filter(entryFilter(filter)).sort(byId).slice(-this.#size), last };
  }

  async clear(session?: string): Promise<void> {
    await this.#bus.ask(session === undefined ? { kind: 'clear' } : { kind: 'clear', session });
  }

  /** This replica's part of a read: its matching entries, its new ones numbered first; or its entries forgotten. */
  async #answer(question: JournalQuestion): Promise<readonly JournalEntry[]> {
    if (question.kind === 'clear') {
      this.#rings.clear(question.session);
      return [];
    }
    const { filter } = question;
    const ring = this.#rings.get(filter.session ?? 'default');
    if (ring === undefined) return [];
    const count = ring.unnumbered();
    if (count > 0) {
      const top = await this.#store.run(() => this.#store.redis.incrby(this.#bus.counterKey, count));
      ring.number(top - count + 1, count);
    }
    return formatted(ring, filter, this.#format);
  }
}
