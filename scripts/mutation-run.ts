/**
 * The trials a mutant of the mock must pass to survive (`npm run mutation`, docs/mutation.md): each
 * starts the mock as its users do, through the `petstore-mock` command (`runMockCli`, what
 * bin/petstore-mock.js runs) with the flags of one documented configuration, on port 0, and runs
 * `petstore-verify` against it over real HTTP. A trial fails when the mock does not start, when it
 * crashes (an exception that would end the process), or when the verifier finds a failure or cannot
 * verify at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Suite, type VerificationReport, verify } from '../src/contracts/runner.js';

/** A documented configuration of the mock: a deployment the verifier must pass, and the suite run against it. */
export interface Trial {
  /** Also Stryker's test id, so each mutant is tried only in the configurations whose code it is in. */
  readonly name: string;
  /** The `petstore-mock` flags; `STATE_FILE` stands for a new file of the trial's own. */
  readonly argv: readonly string[];
  /** The key the verifier sends: one the flags accept. */
  readonly apiKey: string;
  readonly suite: Exclude<Suite, 'all'>;
}

/** `runMockCli` of the sources under test: Stryker's sandbox, not this checkout. */
export type RunMockCli = (argv: readonly string[]) => Promise<number | undefined>;

/** Stands, in a trial's flags, for a state file of its own, created empty for each run. */
export const STATE_FILE = '<state file>';

const configFile = (name: string) => fileURLToPath(new URL(`../bench/mutation/configs/${name}`, import.meta.url));

/**
 * The documented configurations (docs/mock.md, docs/profiles.md, docs/mock-data.md, docs/mock-auth.md,
 * docs/mock-clock.md): each is a deployment a user runs, so a change that only one of them shows is
 * still seen. Flags that go together share a trial, so that a surviving mutant costs four verifier runs, not six. Each is checked by the spec suite; the Pact suite is left out: it costs five times the
 * spec suite's CPU per mutant, and its consumers' expectations are a subset of what the spec suite
 * checks (docs/mutation.md).
 */
export const TRIALS: readonly Trial[] = [
  { name: 'default', argv: [], apiKey: 'petstore-dev-key', suite: 'spec' },
  // Your own pets, and a labelled key beside a plain one of a single character: the verifier sends the plain one.
  {
    name: '--data, --api-key label=key, --api-key k',
    argv: ['--data', configFile('pets.json'), '--api-key', 'ci=a-labelled-key', '--api-key', 'k'],
    apiKey: 'k',
    suite: 'spec',
  },
  { name: '--profile', argv: ['--profile', configFile('profile.json')], apiKey: 'petstore-dev-key', suite: 'spec' },
  // Ids beyond 2^53, a clock set before the sunset (after it getPet is 410, docs/mock-clock.md), and the pets kept in a file.
  {
    name: '--big-ids, --now, --state',
    argv: ['--big-ids', '--now', '2030-12-04T12:00:00Z', '--state', STATE_FILE],
    apiKey: 'petstore-dev-key',
    suite: 'spec',
  },
];

/** What a run found: nothing when the verifier passed, else the checks that did not. */
export function findings(report: VerificationReport): string[] {
  if (report.fatal !== undefined) return [`cannot verify: ${report.fatal}`];
  return report.results.filter((result) => result.outcome === 'fail' || result.outcome === 'error').map((result) => `${result.outcome}: ${result.id}`);
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The process's listeners of `event`, a signal or `exit`. */
const listenersOf = (event: string): unknown[] => (process as NodeJS.EventEmitter).listeners(event);

/** The listeners `event` gained since `before`: what the command added to the process. */
function added(event: 'SIGTERM' | 'SIGINT' | 'exit', before: ReadonlyMap<string, readonly unknown[]>): ((...args: unknown[]) => void)[] {
  const old = before.get(event) ?? [];
  return listenersOf(event).filter((listener) => !old.includes(listener)) as ((...args: unknown[]) => void)[];
}

/** The end of what the commands wrote to stderr: the request log and warnings, kept for a problem's message. */
let stderrTail = '';

/**
 * Keeps what the process writes to stderr from then on, never shown: the log of thousands of runs, written
 * up to 10 ms after a request (line-writer.ts), so it cannot be put back after each.
 */
function keepStderr(): void {
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderrTail = (stderrTail + String(chunk)).slice(-2000);
    return true;
  }) as typeof process.stderr.write;
}

/**
 * Runs the command as bin/petstore-mock.js does, in this process, capturing what it writes; resolves
 * to the mock's URL and a stop function (its SIGTERM handler, with `process.exit` caught), or to why
 * it did not start.
 */
async function startCli(runCli: RunMockCli, argv: readonly string[]): Promise<{ url: string; stop: () => Promise<void> } | { problem: string }> {
  const before = new Map((['SIGTERM', 'SIGINT', 'exit'] as const).map((event) => [event, listenersOf(event)]));
  let stdout = '';
  const { write: outWrite } = process.stdout;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  keepStderr();
  let code: number | undefined;
  try {
    code = await runCli([...argv, '--port', '0']);
  } catch (error) {
    return { problem: `the command threw: ${reason(error)}` };
  } finally {
    process.stdout.write = outWrite;
  }
  for (const listener of added('exit', before)) process.off('exit', listener);
  const [onStop] = added('SIGTERM', before);
  for (const listener of added('SIGINT', before)) process.off('SIGINT', listener);
  if (onStop) process.off('SIGTERM', onStop);
  const url = /listening on (\S+)/.exec(stdout)?.[1];
  if (code !== undefined || url === undefined || onStop === undefined) {
    return { problem: `exit code ${code}, stdout ${JSON.stringify(stdout.slice(0, 300))}, stderr ${JSON.stringify(stderrTail.slice(-300))}` };
  }
  const stop = async () => {
    const { exit } = process;
    const exited = new Promise<void>((resolve) => {
      process.exit = (() => resolve()) as typeof process.exit;
    });
    try {
      onStop('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    } finally {
      process.exit = exit;
    }
  };
  return { url, stop };
}

/**
 * Runs one trial; resolves to its findings, empty when the verifier passed. The mock runs in this
 * process: an exception that would take a deployment down ends the trial as a finding.
 */
export async function runTrial(runCli: RunMockCli, trial: Trial): Promise<string[]> {
  const directory = trial.argv.includes(STATE_FILE) ? mkdtempSync(join(tmpdir(), 'petstore-mutation-')) : undefined;
  const argv = trial.argv.map((arg) => (arg === STATE_FILE && directory ? join(directory, 'state.json') : arg));
  let crash: (error: unknown) => void = () => {};
  const crashed = new Promise<string[]>((resolve) => {
    crash = (error) => resolve([`the mock crashed: ${reason(error)}`]);
  });
  process.on('uncaughtException', crash).on('unhandledRejection', crash);
  try {
    const started = await Promise.race([startCli(runCli, argv), crashed.then((found) => ({ problem: found.join('') }))]);
    // A mock that cannot start is as visible to any user as a failed check.
    if ('problem' in started) return [`the mock did not start: ${started.problem}`];
    try {
      const verified = verify({ baseUrl: started.url, apiKey: trial.apiKey, suite: trial.suite, deadlineMs: 60_000 }).then(findings);
      return await Promise.race([verified, crashed]);
    } finally {
      await started.stop();
    }
  } finally {
    process.off('uncaughtException', crash).off('unhandledRejection', crash);
    if (directory) rmSync(directory, { recursive: true, force: true });
  }
}
