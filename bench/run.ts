/**
 * `npm run bench`: the mock against bare node:http and Prism, its start-up, a store of a million pets,
 * a million requests in a row, petstore-verify, MSW, and the Redis store; prints the tables and writes
 * bench/RESULTS.md. `npm run bench -- --only redis` (or `--only hot`, the hot paths of issue 36) runs that
 * part alone and replaces only its section of bench/RESULTS.md. Exits 1 when a server answered wrong (its figures would mean nothing);
 * targets not met are reported, not failed: timings never decide an exit code.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type BenchOptions, journal, runBench } from './bench.js';
import { hotPathsSection, runHotPaths, withHotPathsSection } from './hot-paths.js';
import { redisSection, runRedisBench, withRedisSection } from './redis.js';
import { resultsMarkdown, thisMachine, throughputTable, verdictTable } from './report.js';
import { pairedRatio } from './throughput.js';

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

const { values } = parseArgs({ options: { only: { type: 'string' } } });
if (values.only !== undefined && values.only !== 'redis' && values.only !== 'journal' && values.only !== 'hot') {
  process.stderr.write(`bench: --only takes redis, hot or journal (the parts that run alone); got ${JSON.stringify(values.only)}.\n`);
  process.exit(2);
}
if (values.only === 'journal') {
  // The journal's cost alone, printed, not written: bench/RESULTS.md keeps the figures of whole runs.
  const problems: string[] = [];
  const figures = await journal(FULL, problems);
  for (const { scenario, on, off } of figures)
    process.stdout.write(
      `${scenario.title}: journal on ${Math.round(on.rps)} req/s, off ${Math.round(off.rps)} req/s, on ÷ off ${pairedRatio(on, off).toFixed(3)}; CPU µs per answer on ${on.cpuPerRequest?.toFixed(1)}, off ${off.cpuPerRequest?.toFixed(1)}\n`,
    );
  for (const problem of problems) process.stdout.write(`wrong answer: ${problem}\n`);
  process.exit(problems.length > 0 ? 1 : 0);
}

const startLoad = loadavg()[0] as number;
const started = performance.now();
const onPart = (part: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${part}\n`);
const results = new URL('./RESULTS.md', import.meta.url);
let wrong = 0;
let page = existsSync(results) ? readFileSync(results, 'utf8') : '# Benchmark results\n';
if (values.only === undefined) {
  const report = await runBench(FULL, onPart);
  const machine = thisMachine(startLoad);
  process.stdout.write(`\n${throughputTable(report)}\n\n${verdictTable(report)}\n`);
  for (const problem of report.problems) process.stdout.write(`wrong answer: ${problem}\n`);
  wrong += report.problems.length;
  page = resultsMarkdown(report, FULL, machine);
}
if (values.only === undefined || values.only === 'hot') {
  onPart('the hot paths');
  const hotStart = loadavg()[0] as number;
  const hot = await runHotPaths(FULL.runs);
  const hotMachine = thisMachine(hotStart);
  const section = hotPathsSection(hot, FULL.runs, hotMachine.date, hotMachine.load);
  process.stdout.write(`\n${section}\n`);
  wrong += hot.problems.length;
  page = withHotPathsSection(page, section);
}
if (values.only === undefined || values.only === 'redis') {
  onPart('the Redis store');
  const redis = await runRedisBench(FULL.runs);
  const section = redisSection(redis, FULL.runs, thisMachine(startLoad).date);
  process.stdout.write(`\n${section}\n`);
  wrong += redis.problems.length;
  page = withRedisSection(page, section);
}
writeFileSync(results, page);
const machine = thisMachine(startLoad);
process.stdout.write(`\nWritten to bench/RESULTS.md (${machine.cores} cores, Node ${machine.node}, load ${machine.load.join(' → ')}).\n`);
if (wrong > 0) process.exitCode = 1;
