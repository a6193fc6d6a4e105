/**
 * The Redis part of `npm run bench`, shrunk to seconds, so that it cannot rot: every scenario on both
 * stores and both worker counts, each answer checked. Timings are never asserted here. Needs `dist/`
 * and Debian's redis-server.
 */
import { describe, expect, it } from 'vitest';
import { redisSection, runRedisBench, withRedisSection } from '../../bench/redis.js';

describe('npm run bench -- --only redis (smoke: tiny durations)', () => {
  it('measures memory, the Redis store and two workers on it in each scenario, every answer right', async () => {
    // By count, not by duration: a busy machine may let a 200 ms measurement pass without an answer.
    const runs = { warmupMs: 100, durationMs: 200, rounds: 1, connections: 4, trials: 1, amount: 40 };
    const report = await runRedisBench(runs);
    expect(report.problems).toEqual([]);
    expect(report.stores.map(({ scenario }) => scenario.id)).toEqual(['list', 'sold', 'create', 'get', 'get-created', 'get-created-named']);
    for (const { redis, memory, workers, rss } of report.stores) {
      expect(redis.rounds[0]?.requests).toBeGreaterThan(0);
      expect(memory.rounds[0]?.requests).toBeGreaterThan(0);
      expect(workers.rounds[0]?.requests).toBeGreaterThan(0);
      // The resident memory of the in-memory mock and of the one on Redis, read from /proc as each closed.
      expect(rss.memory.length).toBe(1);
      expect(rss.redis.length).toBe(1);
    }
    const section = redisSection(report, runs, '2026-01-01 00:00');
    expect(section).toMatch(/GET \/v1\/pets\?limit=20 \| [\d,]+ \(/);
    // Each ratio with the spread of its rounds, and the resident memory beside it.
    expect(section).toMatch(/\| GET \/v1\/pets\/7 \|.* × \(\d+\.\d\d–\d+\.\d\d\) \|.*\| \d+ \/ \d+ \|$/m);
    expect(section).toContain(`on ${report.cores} cores`);
    const page = withRedisSection('# Benchmark results\n\nother parts\n', section);
    expect(withRedisSection(page, section)).toBe(page);
    expect(page).toContain('other parts');
  });
});
