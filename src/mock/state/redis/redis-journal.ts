/**
 * The request journal of a cluster (`--store redis://`, `--workers`). A replica keeps the requests it
 * answers in its own rings, as a lone mock does, and answering a request costs Redis nothing. A read
 * asks every replica through the journal bus (journal-bus.ts): each numbers its new entries from the
 * namespace's one counter (one command, when it has new ones) and answers with those that match. So a
 * replica that stops takes its entries with it, and entries are numbered when they are first read.
 */

import { memoize } from '../../core/memo.js';
import type { FormatRecord, JournalEntry, JournalFilter, JournalKeeper, JournalPage, JournalRecord } from '../journal.js';
import { entryFilter, newestFormatted, newestWithin } from '../journal.js';
import { JournalRings, type RingBounds } from '../journal-ring.js';
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
  /**
   * The digest of each session name this replica has seen lately: questions name sessions by it. The
   * bus hashes (node:crypto), so that this module, which every host imports, stays free of Node's modules.
   */
  readonly #digest: (name: string) => string;

  constructor(store: RedisStore, bus: JournalBus, options: RingBounds & { readonly format: FormatRecord }) {
    this.#store = store;
    this.#bus = bus;
    this.#digest = memoize((name) => bus.digest(name));
    this.#rings = new JournalRings(options);
    this.#size = options.size;
    this.#format = options.format;
    bus.answerWith((question) => this.#answer(question));
  }

  record(record: JournalRecord): void {
    // Numbered when first read (0 until then): a request answered costs Redis nothing.
    this.#rings.push(record, 0);
  }

  async list(filter: JournalFilter): Promise<JournalPage> {
    const session = filter.session ?? 'default';
    // The question goes through Redis: it carries the session's digest and `since`, never a name or the text
    // of a filter (`path`, `method`...), which may hold a key; this replica applies those to the answers.
    const digest = this.#digest(session);
    const question: JournalQuestion =
      typeof filter.since === 'number' ? { kind: 'list', session: digest, since: filter.since } : { kind: 'list', session: digest };
    const { entries, last } = await this.#bus.ask(question);
    // Each replica keeps `size` of the session's entries; the cluster's journal shows the newest `size` of them all, within a page's bytes.
    const newest = entries.filter(entryFilter(filter)).sort(byId).slice(-this.#size).reverse();
    return { session, ...newestWithin(newest), last };
  }

  async clear(session?: string): Promise<void> {
    await this.#bus.ask(session === undefined ? { kind: 'clear' } : { kind: 'clear', session: this.#digest(session) });
  }

  /** The name of the session this replica keeps a ring for whose digest is `digest`, if it keeps one. */
  #sessionOf(digest: string): string | undefined {
    for (const name of this.#rings.names()) if (this.#digest(name) === digest) return name;
    return undefined;
  }

  /** This replica's part of a read: its matching entries, its new ones numbered first; or its entries forgotten. */
  async #answer(question: JournalQuestion): Promise<readonly JournalEntry[]> {
    const name = question.session === undefined ? undefined : this.#sessionOf(question.session);
    if (question.kind === 'clear') {
      if (question.session === undefined) this.#rings.clear();
      else if (name !== undefined) this.#rings.clear(name);
      return [];
    }
    const ring = name === undefined ? undefined : this.#rings.get(name);
    if (ring === undefined) return [];
    const count = ring.unnumbered();
    if (count > 0) {
      const top = await this.#store.run(() => this.#store.redis.incrby(this.#bus.counterKey, count));
      ring.number(top - count + 1, count);
    }
    // A replica's part is within a page too: the reader keeps no more of it.
    return newestWithin(newestFormatted(ring, question.since === undefined ? {} : { since: question.since }, this.#format)).entries;
  }
}
