/**
 * The Redis store's part of `npm run bench`: the Redis-backed mock against the in-memory one in the
 * same run (GET list, POST, GET one pet), and one worker against two (`--workers`), all on a
 * redis-server of the benchmark's own. Runs alone with `npm run bench -- --only redis`.
 */
import { cpus } from 'node:os';
import { startRedis } from '../test/support/redis.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { startMock } from './servers.js';
import { answersAs, compare, type Figures, pairedRatio, type Runs } from './throughput.js';

/** The scenarios measured on both stores. */
const MEASURED = ['list', 'sold', 'create', 'get'];

export interface RedisBenchReport {
  readonly cores: number;
  /** Per scenario: the mock on Redis, and in memory. */
  readonly stores: readonly { readonly scenario: Scenario; readonly redis: Figures; readonly memory: Figures }[];
  /** GET list on Redis with one worker process, and with two. */
  readonly workers: { readonly scenario: Scenario; readonly one: Figures; readonly two: Figures };
  readonly problems: readonly string[];
}

/** The GET-list ratio the issue asks of the Redis store with one replica. */
const MIN_REDIS_LIST_RATIO = 0.5;

/** Runs the Redis comparisons; every mock on Redis gets a namespace of its own, so each starts seeded and empty. */
export async function runRedisBench(runs: Runs): Promise<RedisBenchReport> {
  const redis = await startRedis();
  let namespaces = 0;
  const onRedis =
    (...args: string[]) =>
    () =>
      startMock(['--store', redis.url, '--namespace', `bench${++namespaces}`, ...args], 'redis');
  const problems: string[] = [];
  try {
    const stores: RedisBenchReport['stores'][number][] = [];
    for (const scenario of SCENARIOS.filter(({ id }) => MEASURED.includes(id))) {
      const { status } = scenario.answer;
      const check = answersAs(scenario);
      const { figures, problems: found } = await compare([scenario.request], {
        redis: { start: onRedis(), check, runs, status },
        memory: { start: () => startMock([], 'memory'), check, runs, status },
      });
      problems.push(...found.map((problem) => `${scenario.title}: ${problem}`));
      const [onStore, inMemory] = figures as [Figures, Figures];
      stores.push({ scenario, redis: onStore, memory: inMemory });
    }
    const list = SCENARIOS[0] as Scenario;
    const { status } = list.answer;
    const { figures, problems: found } = await compare([list.request], {
      one: { start: onRedis('--workers', '1'), check: answersAs(list), runs, status },
      two: { start: onRedis('--workers', '2'), check: answersAs(list), runs, status },
    });
    problems.push(...found.map((problem) => `--workers: ${problem}`));
    const [one, two] = figures as [Figures, Figures];
    return { cores: cpus().length, stores, workers: { scenario: list, one, two }, problems };
  } finally {
    await redis.stop();
  }
}

const rps = (figures: Figures) => Math.round(figures.rps).toLocaleString('en-US');
const ratio = (value: number) => `${(Math.floor(value * 100) / 100).toFixed(2)} ×`;

/** The section of bench/RESULTS.md, between markers so that `--only redis` can replace it alone. */
export function redisSection(report: RedisBenchReport, runs: Runs, date: string): string {
  const rows = report.stores.map(({ scenario, redis, memory }) => {
    const target = scenario.id === 'list' ? `≥ ${MIN_REDIS_LIST_RATIO}` : 'reported';
    const ofMemory = pairedRatio(redis, memory);
    const met = scenario.id === 'list' ? (ofMemory >= MIN_REDIS_LIST_RATIO ? 'yes' : '**no**') : '';
    return `| ${scenario.title} | ${rps(redis)} | ${redis.p50} / ${redis.p99} | ${rps(memory)} | ${memory.p50} / ${memory.p99} | ${ratio(ofMemory)} | ${target} | ${met} |`;
  });
  const { one, two, scenario } = report.workers;
  const problems = report.problems.length > 0 ? `\nWrong answers:\n\n${report.problems.map((problem) => `- ${problem}`).join('\n')}\n` : '';
  return `${REDIS_START}
## The Redis store (\`--store redis://\`, \`--workers\`)

Measured ${date} UTC on ${report.cores} cores, with a redis-server of the benchmark's own on loopback
(no persistence) and the load generator on the same machine: ${runs.trials} trial(s) of ${runs.rounds} rounds of
${runs.durationMs / 1000} s over ${runs.connections} connections per comparison, as above.

| scenario | Redis req/s | Redis p50 / p99 ms | memory req/s | memory p50 / p99 ms | Redis ÷ memory | target | met |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

${scenario.title} on Redis: one worker ${rps(one)} req/s, two workers ${rps(two)} req/s: ${ratio(pairedRatio(two, one))}.
On ${report.cores} cores the two workers share them with Redis and the load generator, so this says
little of a larger machine, where each worker has a core of its own and the figure grows with the
workers until Redis (one core) is the limit.
${problems}${REDIS_END}`;
}

const REDIS_START = '<!-- redis:start -->';
const REDIS_END = '<!-- redis:end -->';

/** `results` with its Redis section replaced by `section`, or `section` appended when there is none. */
export function withRedisSection(results: string, section: string): string {
  const start = results.indexOf(REDIS_START);
  const end = results.indexOf(REDIS_END);
  if (start === -1 || end === -1) return `${results.trimEnd()}\n\n${section}\n`;
  return results.slice(0, start) + section + results.slice(end + REDIS_END.length);
}
