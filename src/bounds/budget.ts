/**
 * One mechanism for every buffer the mock and the verifier keep: a bound stated once, in bytes and in
 * count, for each owner (a session, a run) and for all owners together. A bound kept per owner only is
 * multiplied by the owners (100 sessions of 16 MiB of pets each held 3.4 GB); one kept in bytes only is
 * multiplied by the count (a HAR of 31,432 small exchanges was 95 MB). So each seam that keeps what
 * clients or deployments send (a session's pets, the verifier's `--har` and its list of retries, the
 * proxy's `--record` and drift report) takes from a `Budget` through a `Share`: it asks before it
 * keeps, and what passes the bound is refused or left out, and said; or, keeping the newest, it lets
 * its oldest go while the share is `exceeded`.
 */

/** The most a budget lets its owners hold: each owner, and all of them together, in bytes and in count. */
export interface Bound {
  /** The most all owners hold together, in bytes. */
  readonly totalBytes: number;
  /** The most one owner holds, in bytes; default `totalBytes`. */
  readonly ownerBytes?: number;
  /** The most things (pets, entries) all owners hold together; default unbounded but by bytes. */
  readonly totalCount?: number;
  /** The most things one owner holds; default `totalCount`. */
  readonly ownerCount?: number;
}

/** Which part of a bound a take would pass. */
export type Overrun = 'owner bytes' | 'total bytes' | 'owner count' | 'total count';

/**
 * What all the shares of one bound hold together.
 * @example
 * const pets = new Budget({ ownerBytes: 16 << 20, totalBytes: 64 << 20 });
 * const session = pets.share();
 * session.take(1_000) ?? 'kept'; // 'total bytes' once all sessions hold 64 MiB
 */
export class Budget {
  #bytes = 0;
  #count = 0;
  readonly bound: Required<Bound>;

  constructor(bound: Bound) {
    const totalCount = bound.totalCount ?? Number.POSITIVE_INFINITY;
    this.bound = { totalBytes: bound.totalBytes, ownerBytes: bound.ownerBytes ?? bound.totalBytes, totalCount, ownerCount: bound.ownerCount ?? totalCount };
  }

  /** The bytes all shares hold. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The things all shares hold. */
  get count(): number {
    return this.#count;
  }

  /** A new owner's share, holding nothing yet. */
  share(): Share {
    return new Share(this, (bytes, count) => {
      this.#bytes += bytes;
      this.#count += count;
    });
  }
}

/**
 * One owner's part of a budget. Giving back (a negative take) always succeeds; taking more succeeds only
 * within the owner's bound and the total, and changes nothing when it would pass either.
 */
export class Share {
  #bytes = 0;
  #count = 0;
  #open = true;
  readonly #counted: (bytes: number, count: number) => void;

  constructor(
    readonly budget: Budget,
    counted: (bytes: number, count: number) => void,
  ) {
    this.#counted = counted;
  }

  /** The bytes this owner holds. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The things this owner holds. */
  get count(): number {
    return this.#count;
  }

  /** What taking `bytes` and `count` more would pass, or `undefined` when it fits (a share no longer open counts against its own bound only). */
  overrun(bytes: number, count = 0): Overrun | undefined {
    const { ownerBytes, totalBytes, ownerCount, totalCount } = this.budget.bound;
    if (bytes > 0 && this.#bytes + bytes > ownerBytes) return 'owner bytes';
    if (count > 0 && this.#count + count > ownerCount) return 'owner count';
    if (!this.#open) return undefined;
    if (bytes > 0 && this.budget.bytes + bytes > totalBytes) return 'total bytes';
    if (count > 0 && this.budget.count + count > totalCount) return 'total count';
    return undefined;
  }

  /** Takes `bytes` and `count` (negative: gives them back) unless that would pass the bound: then changes nothing and says which part. */
  take(bytes: number, count = 0): Overrun | undefined {
    const over = this.overrun(bytes, count);
    if (over === undefined) this.adjust(bytes, count);
    return over;
  }

  /** Counts `bytes` and `count` whatever the bound: for what is already held (a file read back at start) or given back. */
  adjust(bytes: number, count = 0): void {
    this.#bytes += bytes;
    this.#count += count;
    if (this.#open) this.#counted(bytes, count);
  }

  /** Whether this owner holds more than its bound, or all owners more than theirs: what keeps the newest lets its oldest go while it does. */
  get exceeded(): boolean {
    const { ownerBytes, totalBytes, ownerCount, totalCount } = this.budget.bound;
    if (this.#bytes > ownerBytes || this.#count > ownerCount) return true;
    return this.#open && (this.budget.bytes > totalBytes || this.budget.count > totalCount);
  }

  /** Gives back all this owner holds and closes the share: what it takes from now on counts against its own bound only (an owner dropped while a request still holds it). */
  release(): void {
    if (this.#open) this.#counted(-this.#bytes, -this.#count);
    this.#open = false;
  }
}

/**
 * The largest answer the mock queues for one connection, in bytes: one read of the journal, one page
 * of pets. A connection's answers go one at a time (docs/guarantees.md), so a client that reads
 * nothing pins at most this; a page of 50 pets of 1 MB names answered 24 MB, and 60 such clients
 * held 1.5 GB. Within what the package reads of an answer (`MAX_RESPONSE_BYTES`, 5 MiB).
 */
export const ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * The largest response body the verifier (both suites) and the mock's `--proxy` read from a
 * deployment, after decompression, and `expectRequests(url)` from a mock's journal: no page of at most
 * 100 pets, no Error and no journal of 500 entries comes near it, and a server streaming more cannot
 * exhaust their memory.
 */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
