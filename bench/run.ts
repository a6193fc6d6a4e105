/**
 * `npm run bench`: the mock against bare node:http and Prism, its start-up, a store of a million pets,
 * a million requests in a row, petstore-verify and MSW; prints the tables and writes bench/RESULTS.md.
 * Exits 1 when a server answered wrong (its figures would mean nothing); targets not met are reported,
 * not failed: timings never decide an exit code.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { type BenchOptions, runBench } from './bench.js';
import { resultsMarkdown, thisMachine, throughputTable, verdictTable } from './report.js';

const FULL: BenchOptions = {
  runs: { warmupMs: 1500, durationMs: 1000, rounds: 5, connections: 32, trials: 3 },
  prism: { warmupMs: 2000, durationMs: 2000, rounds: 3, connections: 32, trials: 1 },
  startups: 5,
  prismStartups: 2,
  bigCount: 1_000_000,
  leak: { requests: 1_000_000, warmup: 250_000 },
  verifyRuns: 3,
  msw: { requests: 2000, rounds: 3 },
};

const startLoad = loadavg()[0] as number;
const started = performance.now();
const report = await runBench(FULL, (part) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${part}\n`));
const machine = thisMachine(startLoad);
process.stdout.write(`\n${throughputTable(report)}\n\n${verdictTable(report)}\n`);
for (const problem of report.problems) process.stdout.write(`wrong answer: ${problem}\n`);
const results = new URL('./RESULTS.md', import.meta.url);
writeFileSync(results, resultsMarkdown(report, FULL, machine));
process.stdout.write(`\nWritten to bench/RESULTS.md (${machine.cores} cores, Node ${machine.node}, load ${machine.load.join(' → ')}).\n`);
if (report.problems.length > 0) process.exitCode = 1;
