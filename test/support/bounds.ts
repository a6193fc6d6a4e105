/** What the bounds tests of petstore-verify share: the limits a run keeps, and its JSON report read by suite. */
import type { CheckResult } from '../../src/contracts/check.js';
import type { VerificationReport } from '../../src/contracts/runner.js';

/** The most memory any one process of a run may reach. */
export const MAX_RSS = 500 * 1024 * 1024;
/** Node's start, the spec's compilation and the Pact Verifier's: the time a run takes beyond its deadline at most. */
export const STARTUP_SLACK_MS = 4_000;

export function reportOf(stdout: string): VerificationReport {
  return JSON.parse(stdout) as VerificationReport;
}

export function bySuite(report: VerificationReport, suite: CheckResult['suite']): CheckResult[] {
  return report.results.filter((result) => result.suite === suite);
}
