/**
 * What the proxy saw, for `GET /__mock/drift` and the log: every contract violation and every drift
 * counted, the last ones kept, each logged on one line as it happens.
 */
import type { Drift } from '../profile/drift.js';

/** At most this many violations and drifts are kept (the counts go on); a long session stays bounded. */
const KEPT = 1_000;

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

function keep<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > KEPT) list.shift();
}

/** The running record behind the drift report. */
export class DriftLog {
  readonly #upstream: string;
  readonly #onProblem: (line: string) => void;
  readonly #violations: ContractViolation[] = [];
  readonly #drifts: KeptDrift[] = [];
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
    keep(this.#violations, violation);
    this.#onProblem(`petstore-mock: contract violation (${violation.side}): ${violation.request}: ${violation.message}`);
  }

  addDrift(drift: KeptDrift): void {
    this.#driftCount++;
    this.#byAspect[drift.aspect] = (this.#byAspect[drift.aspect] ?? 0) + 1;
    keep(this.#drifts, drift);
    this.#onProblem(`petstore-mock: drift (${drift.aspect}): ${drift.message}`);
  }

  /** A copy: what a caller holds does not change as requests go on. */
  report(): DriftReport {
    return {
      upstream: this.#upstream,
      requests: this.#requests,
      violations: { count: this.#violationCount, kept: [...this.#violations] },
      drift: { count: this.#driftCount, byAspect: { ...this.#byAspect }, kept: [...this.#drifts] },
    };
  }
}
