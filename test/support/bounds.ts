/** What the bounds tests of petstore-verify share: the limits a run keeps, and its JSON report read by suite. */
import type { CheckResult } from '../../src/contracts/check.js';
import type { VerificationReport } from '../../src/contracts/runner.js';

/**
 * The most memory any one process of a run may reach. The runs it bounds reach 190 to 330 MB on a quiet
 * machine, up to 530 MB when a busy one delays the garbage collector; a verifier that kept the answers
 * it reads (5 MB each, hundreds of them) would pass gigabytes.
 */
export const MAX_RSS = 768 * 1024 * 1024;
/**
 * The time a run takes beyond its deadline at most, on the wall clock: the Pact worker's kill grace
 * (1 s), the report, the exit, on a busy machine (22 s seen beside two busy processes and the rest of
 * the suite). Wide: each run it bounds would otherwise last a request's 60 s --timeout, or minutes at
 * --rps 1. A run that overruns its deadline by working (parsing what it read) shows in its CPU time,
 * which the same slack bounds and which load does not stretch.
 */
export const DEADLINE_SLACK_MS = 30_000;

export function reportOf(stdout: string): VerificationReport {
  return JSON.parse(stdout) as VerificationReport;
}

export function bySuite(report: VerificationReport, suite: CheckResult['suite']): CheckResult[] {
  return report.results.filter((result) => result.suite === suite);
}
