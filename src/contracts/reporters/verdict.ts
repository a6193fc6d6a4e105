import type { CheckResult } from '../check.js';
import type { VerificationReport } from '../runner.js';

/** `n` and `word`, in the plural unless `n` is 1: `3 checks`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The run's totals in one line, as every reporter writes them: the failures are faults, the checks that only follow from them counted apart. */
export function countsText(report: VerificationReport): string {
  const { passed, failed, following, skipped, errors, warnings } = report.counts;
  const followers = following > 0 ? ` (and ${following} more from the same faults)` : '';
  return `${plural(passed, 'check')} passed, ${failed} failed${followers}, ${skipped} skipped, ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${(report.ms / 1000).toFixed(1)} s`;
}

/** The run's verdict in one sentence. */
export function verdictText(report: VerificationReport): string {
  if (report.fatal !== undefined) return `petstore-verify could not verify the deployment: ${report.fatal}`;
  if (report.exitCode === 0) return 'The deployment keeps the contract.';
  if (report.exitCode === 1) return `The deployment breaks the contract: ${plural(report.counts.failed, 'fault')} found.`;
  return 'Some checks could not verify the deployment.';
}

/** The checks that failed from a fault of their own, in the order they finished: one per fault. */
export function failuresOf(report: VerificationReport): CheckResult[] {
  return report.results.filter((result) => result.outcome === 'fail' && result.follows === undefined);
}

/** The checks that failed only from the fault `cause` reported. */
export function followersOf(report: VerificationReport, cause: CheckResult): CheckResult[] {
  return report.results.filter((other) => other.follows === cause.id);
}
