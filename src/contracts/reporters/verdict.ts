import type { CheckResult } from '../check.js';
import type { VerificationReport } from '../runner.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The run's totals in one line, as the console's summary writes them. */
export function countsText(report: VerificationReport): string {
  const { passed, failed, skipped, errors, warnings } = report.counts;
  return `${plural(passed, 'check')} passed, ${failed} failed, ${skipped} skipped, ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${(report.ms / 1000).toFixed(1)} s`;
}

/** The run's verdict in one sentence. */
export function verdictText(report: VerificationReport): string {
  if (report.fatal !== undefined) return `petstore-verify could not verify the deployment: ${report.fatal}`;
  if (report.exitCode === 0) return 'The deployment keeps the contract.';
  if (report.exitCode === 1) return `The deployment breaks the contract: ${plural(report.counts.failed, 'check')} failed.`;
  return 'Some checks could not verify the deployment.';
}

/** The checks that failed, in the order they finished. */
export function failuresOf(report: VerificationReport): CheckResult[] {
  return report.results.filter((result) => result.outcome === 'fail');
}
