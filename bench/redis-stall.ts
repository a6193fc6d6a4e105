/**
 * What a client sees while Redis stalls: `petstore-mock --store` (the default `--store-timeout` and 500 ms)
 * and `--workers 2`, 20 clients reading `GET /v1/pets` in a loop, Redis stopped (SIGSTOP) for 5 s in the
 * middle of the run. Prints, for the requests the stall touched (in flight when it began, or started
 * before it ended), the p50, p99 and longest
 * latency and how they were answered; and how long after SIGCONT the first 200 came. Seconds, not
 * minutes; never in `npm test` (test/mock/redis-cache.test.ts holds the bound it asserts).
 *
 *   npm run bench:stall
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startMockCli } from '../test/support/cli.js';
import { startRedis } from '../test/support/redis.js';

const CLIENTS = 20;
const STALL_MS = 5_000;
const KEY = 'petstore-dev-key';

interface Sample {
  readonly started: number;
  readonly ms: number;
  readonly status: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function client(url: string, until: number, samples: Sample[]): Promise<void> {
  while (performance.now() < until) {
    const started = performance.now();
    const status = await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` }, signal: AbortSignal.timeout(30_000) }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    );
    samples.push({ started, ms: performance.now() - started, status });
  }
}

async function measure(name: string, flags: readonly string[]): Promise<void> {
  const redis = await startRedis();
  const mock = await startMockCli(['--store', redis.url, ...flags, '--port', '0', '--quiet']);
  const samples: Sample[] = [];
  const start = performance.now();
  const clients = Array.from({ length: CLIENTS }, () => client(mock.url, start + STALL_MS + 6_000, samples));
  await sleep(2_000);
  const stalledAt = performance.now();
  redis.pause();
  await sleep(STALL_MS);
  redis.resume();
  const resumedAt = performance.now();
  await Promise.all(clients);
  await mock.stop();
  await redis.stop();
  // Every request the stall touched: in flight when Redis stopped, or started before it went on.
  const during = samples.filter((sample) => sample.started < resumedAt && sample.started + sample.ms > stalledAt);
  const sorted = during.map((sample) => sample.ms).sort((a, b) => a - b);
  const statuses = new Map<number, number>();
  for (const sample of during) statuses.set(sample.status, (statuses.get(sample.status) ?? 0) + 1);
  const recovered = samples.filter((sample) => sample.started >= resumedAt && sample.status === 200).sort((a, b) => a.started - b.started)[0];
  const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;
  console.log(
    `${name.padEnd(34)} ${String(during.length).padStart(6)} requests the stall touched: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? Number.NaN)}; ${[...statuses].map(([status, n]) => `${n}×${status || 'no answer'}`).join(', ')}; first 200 ${recovered ? ms(recovered.started + recovered.ms - resumedAt) : 'never'} after SIGCONT`,
  );
}

await measure('--store (default --store-timeout)', []);
await measure('--store --store-timeout 500', ['--store-timeout', '500']);
await measure('--store --workers 2 --store-timeout 500', ['--workers', '2', '--store-timeout', '500']);
