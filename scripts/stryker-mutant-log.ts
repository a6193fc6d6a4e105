/**
 * A Stryker reporter that appends each mutant's result to reports/mutation/mutants.jsonl as soon as
 * it is known, so that a long run can be triaged while it runs (`tsx scripts/mutation-report.ts
 * reports/mutation/mutants.jsonl`); the JSON report comes only at the end.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import type { MutantResult } from '@stryker-mutator/api/core';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import type { Reporter } from '@stryker-mutator/api/report';

export const MUTANT_LOG = 'reports/mutation/mutants.jsonl';

export class MutantLogReporter implements Reporter {
  static readonly inject = [] as const;

  constructor() {
    mkdirSync('reports/mutation', { recursive: true });
    writeFileSync(MUTANT_LOG, '');
  }

  onMutantTested(result: Readonly<MutantResult>): void {
    const { id, fileName, mutatorName, replacement, status, statusReason, location } = result;
    appendFileSync(MUTANT_LOG, `${JSON.stringify({ id, fileName, mutatorName, replacement, status, statusReason, location })}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'mutant-log', MutantLogReporter)];
