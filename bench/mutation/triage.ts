/**
 * The triage of every mutant that survives petstore-verify (scripts/mutation-report.ts applies it).
 * A rule covers the survivors of one file, optionally only inside one named declaration (`scope`),
 * only where the mutated code matches `code`, or only for some Stryker mutators. The first rule that
 * matches wins, so narrow rules come before broad ones.
 */

/** `equivalent`: no change a deployment shows to the verifier. `missed`: a contract-visible change it does not catch. */
export type Verdict = 'equivalent' | 'missed';

export interface TriageRule {
  readonly file: string;
  /** A declaration around the mutant: a function, a method (`Class.method`), a variable. */
  readonly scope?: string;
  /** Matches the original code of the mutated span. */
  readonly code?: RegExp;
  readonly mutators?: readonly string[];
  readonly verdict: Verdict;
  /** Why: for `equivalent`, why no answer changes; for `missed`, the check that would catch it. */
  readonly reason: string;
}

export const TRIAGE: readonly TriageRule[] = [];
