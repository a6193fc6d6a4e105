/**
 * A Stryker test runner whose "tests" are the trials of scripts/mutation-run.ts: petstore-verify
 * against the mock built from Stryker's sandbox, started by its command in each documented configuration. It runs in Stryker's worker process and switches
 * mutants at run time, as Stryker's own runners do, so a mutant costs one verifier run instead of a
 * new Node process (~4x faster on this project). Code that runs only while modules load (a "static"
 * mutant) cannot be switched so; Stryker then starts a fresh worker, and the mutant is switched on
 * before the mock's modules are imported.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MutantCoverage } from '@stryker-mutator/api/core';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import {
  type DryRunResult,
  DryRunStatus,
  determineHitLimitReached,
  type MutantRunOptions,
  type MutantRunResult,
  type TestResult,
  type TestRunner,
  type TestRunnerCapabilities,
  TestStatus,
  toMutantRunResult,
} from '@stryker-mutator/api/test-runner';
import { type RunMockCli, runTrial, TRIALS } from './mutation-run.js';

/** The state Stryker's instrumented code reads and writes on `globalThis.__stryker__`. */
interface InstrumenterContext {
  activeMutant?: string | undefined;
  currentTestId?: string | undefined;
  mutantCoverage?: MutantCoverage | undefined;
  hitCount?: number | undefined;
  hitLimit?: number | undefined;
}

declare global {
  var __stryker__: InstrumenterContext | undefined;
}

function instrumenter(): InstrumenterContext {
  globalThis.__stryker__ ??= {};
  return globalThis.__stryker__;
}

/** The mutated mock's command, as bin/petstore-mock.js runs it: imported from the sandbox (the working directory), once per worker. */
let mockUnderTest: Promise<RunMockCli> | undefined;
function startMock(): Promise<RunMockCli> {
  mockUnderTest ??= import(pathToFileURL(join(process.cwd(), 'src/mock/hosts/mock-cli.ts')).href).then(
    (module: typeof import('../src/mock/hosts/mock-cli.js')) => module.runMockCli,
  );
  return mockUnderTest;
}

/** Runs the trials named by `filter` (all when none), in order, stopping at the first that fails. */
async function runTrials(filter: readonly string[] | undefined, context: InstrumenterContext): Promise<TestResult[]> {
  const trials = TRIALS.filter((candidate) => filter === undefined || filter.includes(candidate.name));
  let start: RunMockCli;
  try {
    start = await startMock();
  } catch (error) {
    // A static mutant that breaks the mock's modules: no deployment of it would start. Stryker
    // starts a new worker after a static mutant, so this one's broken modules are not reused.
    const name = trials[0]?.name ?? 'loading the mock';
    return [{ id: name, name, timeSpentMs: 0, status: TestStatus.Failed, failureMessage: `the mock's modules did not load: ${String(error)}` }];
  }
  const results: TestResult[] = [];
  for (const trial of trials) {
    const began = performance.now();
    context.currentTestId = trial.name;
    const found = await runTrial(start, trial);
    context.currentTestId = undefined;
    const base = { id: trial.name, name: trial.name, timeSpentMs: Math.round(performance.now() - began) };
    if (found.length === 0) {
      results.push({ ...base, status: TestStatus.Success });
      continue;
    }
    results.push({ ...base, status: TestStatus.Failed, failureMessage: found.join('; ') });
    break;
  }
  return results;
}

export class PetstoreVerifyRunner implements TestRunner {
  static readonly inject = [] as const;

  capabilities(): TestRunnerCapabilities {
    // The mock's modules stay loaded between mutants: a static mutant needs a new worker.
    return { reloadEnvironment: false };
  }

  async dryRun(): Promise<DryRunResult> {
    const context = instrumenter();
    // Imported before the first trial, so that what runs at load is counted as static coverage.
    await startMock();
    const tests = await runTrials(undefined, context);
    return { status: DryRunStatus.Complete, tests, mutantCoverage: context.mutantCoverage ?? { static: {}, perTest: {} } };
  }

  async mutantRun(options: MutantRunOptions): Promise<MutantRunResult> {
    const context = instrumenter();
    context.activeMutant = options.activeMutant.id;
    context.hitLimit = options.hitLimit;
    context.hitCount = options.hitLimit === undefined ? undefined : 0;
    try {
      const tests = await runTrials(options.testFilter, context);
      return toMutantRunResult(determineHitLimitReached(context.hitCount, context.hitLimit) ?? { status: DryRunStatus.Complete, tests });
    } finally {
      context.activeMutant = undefined;
    }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'petstore-verify', PetstoreVerifyRunner)];
