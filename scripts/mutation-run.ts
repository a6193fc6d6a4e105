/**
 * One mutant's trial, run by Stryker's command runner in its sandbox (`npm run mutation`): the mock,
 * built from the (mutated) sources there, is started on port 0 in each deployment mode the verifier
 * must pass, and `petstore-verify` runs against it over real HTTP. Exit 0: the verifier passed, the
 * mutant survived. Exit 1: the verifier found a failure or could not verify, the mutant is killed.
 *
 * The verifier imports nothing from src/mock, so running both in one process lets it see only what
 * any deployment shows it: HTTP answers. One process saves a second start of Node per mutant.
 */
import { pathToFileURL } from 'node:url';
import { type Suite, type VerificationReport, verify } from '../src/contracts/runner.js';
import { type MockServerOptions, startMockServer } from '../src/mock/server.js';

/** A mock deployment the verifier must pass, and the suites run against it. */
export interface Trial {
  readonly name: string;
  readonly options: MockServerOptions;
  readonly suite: Exclude<Suite, 'all'>;
}

const API_KEY = 'petstore-dev-key';

/**
 * Cheapest first: the spec suite takes ~0.5 s, the Pact suite ~2.5 s, and most mutants fall to the
 * first trial, so later trials only run for the mutants that survive the earlier ones.
 */
export const TRIALS: readonly Trial[] = [
  { name: 'default mock, spec suite', options: { apiKey: API_KEY }, suite: 'spec' },
  { name: '--big-ids mock, spec suite', options: { apiKey: API_KEY, bigIds: true }, suite: 'spec' },
  { name: 'default mock, pact suite', options: { apiKey: API_KEY }, suite: 'pact' },
];

/** What one trial found: nothing when the verifier passed, else the checks that did not. */
export function findings(report: VerificationReport): string[] {
  if (report.fatal !== undefined) return [`cannot verify: ${report.fatal}`];
  return report.results.filter((result) => result.outcome === 'fail' || result.outcome === 'error').map((result) => `${result.outcome}: ${result.id}`);
}

async function runTrial(trial: Trial): Promise<VerificationReport> {
  const mock = await startMockServer({ ...trial.options, port: 0 });
  try {
    return await verify({ baseUrl: mock.url, apiKey: API_KEY, suite: trial.suite, deadlineMs: 60_000 });
  } finally {
    await mock.close(0);
  }
}

/** Runs the trials in order and resolves to the exit code: 0 when the verifier passed them all. */
export async function runTrials(trials: readonly Trial[], log: (line: string) => void): Promise<0 | 1> {
  for (const trial of trials) {
    let found: string[];
    try {
      found = findings(await runTrial(trial));
    } catch (error) {
      // A mock that cannot start or crashes is as visible to any verifier as a failed check.
      found = [`the mock failed: ${(error as Error).message}`];
    }
    if (found.length > 0) {
      log(`killed by ${trial.name}: ${found.join('; ')}`);
      return 1;
    }
  }
  log(`survived ${trials.length} trials`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.env.PACT_DO_NOT_TRACK = 'true';
  process.exitCode = await runTrials(TRIALS, (line) => process.stdout.write(`${line}\n`));
}
