/** What the bounds tests of petstore-verify share: the limits a run keeps, and its JSON report read by suite. */
import type { CheckResult } from '../../src/contracts/check.js';
import type { VerificationReport } from '../../src/contracts/runner.js';

/** The most memory any one process of a run may reach. */
export const MAX_RSS = 500 * 1024 * 1024;
/**
 * The time a run takes beyond its deadline at most: the Pact worker's kill grace (1 s), the report,
 * the exit, on a busy machine (a few seconds when two other processes keep both cores busy). Wide:
 * each run it bounds would otherwise last a request's 60 s --timeout, or minutes at --rps 1.
 */
export const DEADLINE_SLACK_MS = 15_000;

export function reportOf(stdout: string): VerificationReport {
  return JSON.parse(stdout) as VerificationReport;
}

export function bySuite(report: VerificationReport, suite: CheckResult['suite']): CheckResult[] {
  return report.results.filter((result) => result.suite === suite);
}
