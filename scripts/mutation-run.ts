/**
 * The trials a mutant of the mock must pass to survive (`npm run mutation`, docs/mutation.md): each
 * starts the mock on port 0 in one deployment mode and runs `petstore-verify` against it over real
 * HTTP. A trial fails when the verifier finds a failure or cannot verify at all.
 */
import { type Suite, type VerificationReport, verify } from '../src/contracts/runner.js';
import type { MockServer, MockServerOptions } from '../src/mock/hosts/node-server.js';

/** A mock deployment the verifier must pass, and the suite run against it. */
export interface Trial {
  /** Also Stryker's test id, so each mutant is tried only in the modes whose code it is in. */
  readonly name: string;
  readonly options: MockServerOptions;
  readonly suite: Exclude<Suite, 'all'>;
}

/** `startMockServer` of the sources under test: Stryker's sandbox, not this checkout. */
export type StartMock = (options: MockServerOptions) => Promise<MockServer>;

const API_KEY = 'petstore-dev-key';

/**
 * The default mock and the one with ids beyond 2^53, each checked by the spec suite. The Pact suite
 * is left out: it costs five times the spec suite's CPU per mutant, and its consumers' expectations
 * are a subset of what the spec suite checks (docs/mutation.md).
 */
export const TRIALS: readonly Trial[] = [
  { name: 'default mock, spec suite', options: { apiKey: API_KEY }, suite: 'spec' },
  { name: '--big-ids mock, spec suite', options: { apiKey: API_KEY, bigIds: true }, suite: 'spec' },
];

/** What a run found: nothing when the verifier passed, else the checks that did not. */
export function findings(report: VerificationReport): string[] {
  if (report.fatal !== undefined) return [`cannot verify: ${report.fatal}`];
  return report.results.filter((result) => result.outcome === 'fail' || result.outcome === 'error').map((result) => `${result.outcome}: ${result.id}`);
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one trial; resolves to its findings, empty when the verifier passed. The mock runs in this
 * process: an exception that would take a deployment down ends the trial as a finding.
 */
export async function runTrial(start: StartMock, trial: Trial): Promise<string[]> {
  let mock: MockServer;
  try {
    mock = await start({ ...trial.options, port: 0 });
  } catch (error) {
    // A mock that cannot start is as visible to any verifier as a failed check.
    return [`the mock did not start: ${reason(error)}`];
  }
  let crash: (error: unknown) => void = () => {};
  const crashed = new Promise<string[]>((resolve) => {
    crash = (error) => resolve([`the mock crashed: ${reason(error)}`]);
  });
  process.on('uncaughtException', crash).on('unhandledRejection', crash);
  try {
    const verified = verify({ baseUrl: mock.url, apiKey: API_KEY, suite: trial.suite, deadlineMs: 60_000 }).then(findings);
    return await Promise.race([verified, crashed]);
  } finally {
    process.off('uncaughtException', crash).off('unhandledRejection', crash);
    await mock.close(0);
  }
}
