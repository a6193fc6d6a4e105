/**
 * What the proxy saw, for `GET /__mock/drift` and the log: every contract violation and every drift
 * counted, the last ones kept, each logged on one line as it happens.
 *
 * Bounded in bytes as well as in count, as the journal is: each text an entry keeps (the request line,
 * a value, a message) is an excerpt of at most `FIELD_CHARS` characters, and each list holds at most
 * `KEPT_BYTES`, the oldest entries leaving first (1,000 reads with a 16 KB query made the report 32 MB,
 * the proxy 450 MiB larger).
 */
import { Budget } from '../../bounds/budget.js';
import { excerpt } from '../../terminal/excerpt-text.js';
import type { Drift } from '../profile/drift.js';

/** At most this many violations and drifts are kept (the counts go on); a long session stays bounded. */
const KEPT = 1_000;

/** The most characters of one text an entry keeps: its start, then how long it was. */
const FIELD_CHARS = 1_000;

/** The most bytes each list (violations, drifts) keeps, counted at 2 a character and 64 an entry. */
const KEPT_BYTES = 2 * 1024 * 1024;

/** The entry with each of its texts an excerpt. */
function excerpted<T extends object>(entry: T): T {
  return Object.fromEntries(Object.entries(entry).map(([name, value]) => [name, typeof value === 'string' ? excerpt(value, FIELD_CHARS) : value])) as T;
}

/** What an entry counts against `KEPT_BYTES`. */
function bytesOf(entry: object): number {
  let bytes = 64;
  for (const value of Object.values(entry)) if (typeof value === 'string') bytes += 2 * value.length;
  return bytes;
}

/** One way a request or a response breaks the spec. */
export interface ContractViolation {
  readonly request: string;
  /** `request` or `response`. */
  readonly side: 'request' | 'response';
  readonly message: string;
}

/** A drift as the report keeps it: with the request it was seen on. */
type KeptDrift = Drift & { readonly request: string };

/** What the proxy saw: `GET /__mock/drift`. */
export interface DriftReport {
  readonly upstream: string;
  readonly requests: number;
  readonly violations: { readonly count: number; readonly kept: readonly ContractViolation[] };
  readonly drift: {
    readonly count: number;
    readonly byAspect: Readonly<Record<string, number>>;
    readonly kept: readonly KeptDrift[];
  };
}

/** The last entries of one kind, within `KEPT` and `KEPT_BYTES` (a `Budget` of one owner, src/bounds/budget.ts). */
class Kept<T extends object> {
  readonly #entries: { readonly entry: T; readonly bytes: number }[] = [];
  readonly #share = new Budget({ totalBytes: KEPT_BYTES, totalCount: KEPT }).share();

  /** Keeps an excerpt of `entry`, letting the oldest go past either bound; returns the excerpt. */
  add(entry: T): T {
    const kept = excerpted(entry);
    const bytes = bytesOf(kept);
    this.#entries.push({ entry: kept, bytes });
    this.#share.adjust(bytes, 1);
    while (this.#share.exceeded) this.#share.adjust(-(this.#entries.shift()?.bytes ?? 0), -1);
    return kept;
  }

  list(): T[] {
    return this.#entries.map(({ entry }) => entry);
  }
}

/** The running record behind the drift report. */
export class DriftLog {
  readonly #upstream: string;
  readonly #onProblem: (line: string) => void;
  readonly #violations = new Kept<ContractViolation>();
  readonly #drifts = new Kept<KeptDrift>();
  readonly #byAspect: Record<string, number> = {};
  #requests = 0;
  #violationCount = 0;
  #driftCount = 0;

  /** `upstream` is the deployment's base URL; `onProblem` gets one line per violation and per drift. */
  constructor(upstream: string, onProblem: (line: string) => void) {
    this.#upstream = upstream;
    this.#onProblem = onProblem;
  }

  countRequest(): void {
    this.#requests++;
  }

  addViolation(violation: ContractViolation): void {
    this.#violationCount++;
    const { side, request, message } = this.#violations.add(violation);
    this.#onProblem(`petstore-mock: contract violation (${side}): ${request}: ${message}`);
  }

  addDrift(drift: KeptDrift): void {
    this.#driftCount++;
    this.#byAspect[drift.aspect] = (this.#byAspect[drift.aspect] ?? 0) + 1;
    this.#onProblem(`petstore-mock: drift (${drift.aspect}): ${this.#drifts.add(drift).message}`);
  }

  /** A copy: what a caller holds does not change as requests go on. */
  report(): DriftReport {
    return {
      upstream: this.#upstream,
      requests: this.#requests,
      violations: { count: this.#violationCount, kept: this.#violations.list() },
      drift: { count: this.#driftCount, byAspect: { ...this.#byAspect }, kept: this.#drifts.list() },
    };
  }
}
