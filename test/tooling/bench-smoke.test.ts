/**
 * `npm run bench`, shrunk to a few seconds, so that the benchmark cannot rot: every scenario runs
 * against every server and each answer is checked. Timings are never asserted here; they live only in
 * `npm run bench` (bench/RESULTS.md). Needs `dist/` (built by `npm test` before vitest runs).
 */
import { describe, expect, it } from 'vitest';
import { type BenchOptions, type BenchReport, runBench } from '../../bench/bench.js';
import { resultsMarkdown, thisMachine, verdicts } from '../../bench/report.js';
import { SCENARIOS } from '../../bench/scenarios.js';

const SMOKE: BenchOptions = {
  // By count, not by duration: a busy machine may let a 200 ms measurement pass without an answer.
  runs: { warmupMs: 100, durationMs: 200, rounds: 1, connections: 4, trials: 2, amount: 40 },
  startups: 1,
  prismStartups: 0,
  bigCount: 5_000,
  leak: { requests: 2_000, warmup: 500 },
  verifyRuns: 1,
  msw: { requests: 20, rounds: 1 },
  // Its parts at once: it checks answers, not timings.
  together: true,
};

describe('npm run bench (smoke: tiny durations, no Prism)', () => {
  let report: BenchReport;

  // The heaviest test of the suite (some 40 servers started, the parts at once, each part's one after
  // another): tens of seconds on a quiet 2-core machine, minutes when other work keeps both cores busy.
  // Five minutes: a hang's bound.
  it('runs every part, and every server answers every scenario exactly as it should', { timeout: 300_000 }, async () => {
    report = await runBench(SMOKE);
    expect(report.problems).toEqual([]);
  });

  it('measures the mock and the bare baseline in every scenario', () => {
    expect(report.throughput.map(({ scenario }) => scenario.id)).toEqual(SCENARIOS.map((scenario) => scenario.id));
    for (const { mock, bare } of report.throughput) {
      for (const figures of [mock, bare]) {
        expect(figures.rounds).toHaveLength(2);
        expect(figures.rounds[0]?.requests).toBeGreaterThan(0);
        // Linux has /proc: the server's CPU time per answer is read there.
        if (process.platform === 'linux') expect(figures.cpuPerRequest).toBeGreaterThan(0);
      }
    }
  });

  it('times start-up, the large store, the requests in a row, petstore-verify and MSW', () => {
    expect(report.startup.mockMs).toBeGreaterThan(0);
    expect(report.scale).toMatchObject({ count: SMOKE.bigCount });
    expect(report.scale.rssMib).toBeGreaterThan(0);
    expect(report.leak.rssEndMib).toBeGreaterThan(0);
    expect(report.verify.exitCodes).toEqual([0]);
    expect(report.msw.msw).toBeGreaterThan(0);
  });

  it('measures the journal on and off on GET list and POST, in the same trials', () => {
    expect(report.journal.map(({ scenario }) => scenario.id)).toEqual(['list', 'create']);
    for (const { on, off } of report.journal) for (const figures of [on, off]) expect(figures.rounds).toHaveLength(2);
  });

  it('reports a verdict for every target and writes the results page', () => {
    // The 2 more: the journal on ÷ off, for GET list and for POST.
    expect(verdicts(report).length).toBe(SCENARIOS.length + 7 + 2);
    const page = resultsMarkdown(report, SMOKE, thisMachine(0));
    for (const scenario of SCENARIOS) expect(page).toContain(scenario.title);
    expect(page).toContain(`Node ${process.version}`);
  });
});
