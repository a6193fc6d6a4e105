/**
 * The hot paths of `npm run bench` (issue 36), shrunk to seconds, so that it cannot rot: each hot
 * path beside its baseline, every answer checked (10,000 distinct ids all found, the log on and off
 * for a read and for a create, a put of pets over 100,000 and over 50, a create against the bare server). Timings are never asserted here. Needs `dist/`.
 */
import { describe, expect, it } from 'vitest';
import { hotPathsSection, runHotPaths, withHotPathsSection } from '../../bench/hot-paths.js';

describe('npm run bench -- --only hot (smoke: tiny durations)', () => {
  it('measures each hot path and its baseline in the same rounds, every answer right', async () => {
    // A count of requests, not a window of time: a busy machine may answer none in 200 ms.
    const runs = { warmupMs: 100, durationMs: 200, rounds: 1, connections: 4, trials: 1, amount: 40 };
    const report = await runHotPaths(runs);
    expect(report.problems).toEqual([]);
    expect(report.comparisons).toHaveLength(5);
    for (const { measured, baseline } of report.comparisons) {
      expect(measured.rounds[0]?.requests).toBeGreaterThan(0);
      expect(baseline.rounds[0]?.requests).toBeGreaterThan(0);
    }
    const section = hotPathsSection(report, runs, '2026-01-01 00:00', [1, 2]);
    expect(section).toMatch(/10,000 distinct ids ÷ 200 \| [\d,]+ \| [\d,]+ \| \d\.\d\d \(\d\.\d\d–\d\.\d\d\)/);
    expect(section).toMatch(/POST \/v1\/pets \(valid body\): request log on ÷ off \(`--quiet`\) \| [\d,]+ \| [\d,]+ \|/);
    expect(section).toMatch(/POST \/__mock\/pets \(one pet\): over 100,000 pets ÷ over 50 \| [\d,]+ \| [\d,]+ \|/);
    expect(section).toContain('load average was 1.00 at the start and 2.00 at the end');
    const page = withHotPathsSection('# Benchmark results\n\nother parts\n', section);
    expect(withHotPathsSection(page, section)).toBe(page);
    expect(page).toContain('other parts');
  });
});
