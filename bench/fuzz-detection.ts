/**
 * What the fuzz suite adds: every faulty deployment of test/support/deployments.ts (FAULTS and
 * PROBE_FAULTS, each the mock with one fault), then those of test/verify/fuzz-faults.ts (the classes
 * issue 26 names, and faults of state), verified with `--suite spec`, with `--suite spec` and the fuzz
 * suite after it, and with the fuzz suite alone; how many each catches (exit 1) and the time it takes. Minutes, not seconds: `npm run bench:fuzz`, never in `npm test`.
 *
 *   npm run bench:fuzz -- [--runs 40] [--seed 1]
 */
import { parseArgs } from 'node:util';
import { type VerifyOptions, verify } from '../src/contracts/runner.js';
import { FAULTS, type Fault, faultyDeployment, PROBE_FAULTS } from '../test/support/deployments.js';
import { FUZZ_FAULTS } from '../test/verify/fuzz-faults.js';

const KEY = 'petstore-dev-key';
const { values } = parseArgs({ options: { runs: { type: 'string', default: '40' }, seed: { type: 'string', default: '1' } } });
const fuzz = { runs: Number(values.runs), seed: Number(values.seed) };

const MODES: Readonly<Record<string, Pick<VerifyOptions, 'suite' | 'fuzz'>>> = {
  spec: { suite: 'spec' },
  'spec + fuzz': { suite: 'spec', fuzz },
  'fuzz alone': { suite: 'fuzz', fuzz },
};

type Case = { readonly set: 'deployments.ts' | 'fuzz-faults.ts'; readonly name: string; readonly fault: () => Fault; readonly count?: number | undefined };
const faults: Case[] = [
  ...Object.entries(FAULTS).map(([name, fault]): Case => ({ set: 'deployments.ts', name, fault: () => fault })),
  ...Object.entries(PROBE_FAULTS).map(([name, probe]): Case => ({ set: 'deployments.ts', name, fault: () => probe.fault, count: probe.count })),
  ...Object.entries(FUZZ_FAULTS).map(([name, fault]): Case => ({ set: 'fuzz-faults.ts', name, fault })),
];

const totals = new Map<string, { caught: number; ms: number; of: number }>();
const missedBySpec: string[] = [];
for (const { set, name, fault, count } of faults) {
  const row: string[] = [];
  for (const [mode, options] of Object.entries(MODES)) {
    const deployment = await faultyDeployment(fault(), count);
    const started = performance.now();
    const report = await verify({ baseUrl: deployment.url, apiKey: KEY, ...options });
    const ms = performance.now() - started;
    await deployment.close();
    const total = totals.get(`${set} · ${mode}`) ?? { caught: 0, ms: 0, of: 0 };
    totals.set(`${set} · ${mode}`, total);
    total.of++;
    total.ms += ms;
    if (report.exitCode === 1) total.caught++;
    if (mode === 'spec' && report.exitCode !== 1) missedBySpec.push(name);
    row.push(`${mode}: ${report.exitCode === 1 ? 'caught' : `missed (${report.exitCode})`} ${Math.round(ms)} ms`);
  }
  process.stdout.write(`${name} · ${row.join(' · ')}\n`);
}
process.stdout.write(`\n${faults.length} faulty deployments, fuzz suite with ${fuzz.runs} sequences from seed ${fuzz.seed}\n`);
for (const [what, { caught, ms, of }] of totals)
  process.stdout.write(
    `${what.padEnd(30)} caught ${caught} of ${of} (${((100 * caught) / of).toFixed(1)}%) in ${(ms / 1000).toFixed(1)} s, ${(ms / of / 1000).toFixed(2)} s per deployment\n`,
  );
if (missedBySpec.length > 0) process.stdout.write(`missed by --suite spec: ${missedBySpec.join('; ')}\n`);
