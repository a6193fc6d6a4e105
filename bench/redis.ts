/**
 * The Redis store's part of `npm run bench`: for each scenario, the in-memory mock, the mock on Redis
 * and two workers on Redis (`--workers 2`), measured in the same run, round by round, as ratios of the
 * in-memory one; all on a redis-server of the benchmark's own. Runs alone with `npm run bench -- --only redis`.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { startRedis } from '../test/support/redis.js';
import { answerOf } from './load.js';
import { withSection } from './report.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { type Server, startMock } from './servers.js';
import { answersAs, compare, type Figures, median, pairedRatio, type Runs } from './throughput.js';

/** The scenarios of the throughput table measured on every store. */
const MEASURED = ['list', 'sold', 'create', 'get'];

const CREATE = SCENARIOS.find(({ id }) => id === 'create') as Scenario;
const GET = SCENARIOS.find(({ id }) => id === 'get') as Scenario;

/** The id the first create of a fresh mock gets: the seed's count plus one. */
const CREATED_ID = (JSON.parse(CREATE.answer.body) as { id: number }).id;

/** getPet of a pet created in the session: the seed is not enough to answer it, so the Redis store asks Redis. */
const GET_CREATED: Scenario = {
  id: 'get-created',
  title: `GET /v1/pets/${CREATED_ID} (created)`,
  request: { ...GET.request, path: `/pets/${CREATED_ID}` },
  answer: { ...GET.answer, body: CREATE.answer.body },
  minRatio: GET.minRatio,
};

/** The named session (`X-Mock-Session`) of `GET_CREATED_NAMED`: opened in Redis by each of its requests. */
const SESSION = { 'x-mock-session': 'bench' };

/** `GET_CREATED` in a named session, whose created pets a replica keeps as it keeps the default session's (issue 36). */
const GET_CREATED_NAMED: Scenario = {
  ...GET_CREATED,
  id: 'get-created-named',
  title: `${GET_CREATED.title}, X-Mock-Session`,
  request: { ...GET_CREATED.request, headers: { ...GET_CREATED.request.headers, ...SESSION } },
};

/** What the Redis store must reach, as a share of the in-memory mock's req/s (issue 23). */
const TARGETS: Readonly<Record<string, number>> = { list: 0.9, get: 0.9, create: 0.75 };

/** One scenario on the three deployments. */
interface RedisBenchRow {
  readonly scenario: Scenario;
  readonly memory: Figures;
  readonly redis: Figures;
  /** Two worker processes on Redis, sharing the port. */
  readonly workers: Figures;
  /** The resident memory (MB) of the in-memory mock and of the one process on Redis, at the end of each trial. */
  readonly rss: { readonly memory: readonly number[]; readonly redis: readonly number[] };
}

/** A process's resident memory in MB, from /proc; undefined where there is none to read. */
function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** `start`, whose server adds its resident memory to `into` as it is closed, after its last round. */
function keepingRss(start: () => Promise<Server>, into: number[]): () => Promise<Server> {
  return async () => {
    const server = await start();
    return {
      ...server,
      close: async () => {
        const mb = rssMb(server.pid);
        if (mb !== undefined) into.push(mb);
        await server.close();
      },
    };
  };
}

export interface RedisBenchReport {
  readonly cores: number;
  readonly stores: readonly RedisBenchRow[];
  readonly problems: readonly string[];
}

/** Checks a freshly started server; for `GET_CREATED` (in its session, for `GET_CREATED_NAMED`), creates the pet it then reads. */
function checkOf(scenario: Scenario): (server: Server) => Promise<string[]> {
  const check = answersAs(scenario);
  if (scenario !== GET_CREATED && scenario !== GET_CREATED_NAMED) return check;
  const create = scenario === GET_CREATED ? CREATE.request : { ...CREATE.request, headers: { ...CREATE.request.headers, ...SESSION } };
  return async (server) => {
    const created = await answerOf(server.base, create);
    return created.status === CREATE.answer.status ? check(server) : [`${server.name}: the create before answered ${created.status}`];
  };
}

/** Runs the comparisons; every mock on Redis gets a namespace of its own, so each starts seeded and empty. */
export async function runRedisBench(runs: Runs): Promise<RedisBenchReport> {
  const redis = await startRedis();
  let namespaces = 0;
  const onRedis =
    (...args: string[]) =>
    () =>
      startMock(['--store', redis.url, '--namespace', `bench${++namespaces}`, ...args], 'redis');
  const problems: string[] = [];
  try {
    const stores: RedisBenchRow[] = [];
    for (const scenario of [...SCENARIOS.filter(({ id }) => MEASURED.includes(id)), GET_CREATED, GET_CREATED_NAMED]) {
      const { status } = scenario.answer;
      const check = checkOf(scenario);
      const rss = { memory: [] as number[], redis: [] as number[] };
      const { figures, problems: found } = await compare([scenario.request], {
        memory: { start: keepingRss(() => startMock([], 'memory'), rss.memory), check, runs, status },
        redis: { start: keepingRss(onRedis(), rss.redis), check, runs, status },
        workers: { start: onRedis('--workers', '2'), check, runs, status },
      });
      problems.push(...found.map((problem) => `${scenario.title}: ${problem}`));
      const [memory, onStore, workers] = figures as [Figures, Figures, Figures];
      stores.push({ scenario, memory, redis: onStore, workers, rss });
    }
    return { cores: cpus().length, stores, problems };
  } finally {
    await redis.stop();
  }
}

const rps = (figures: Figures) => Math.round(figures.rps).toLocaleString('en-US');
const twoPlaces = (value: number) => (Math.floor(value * 100) / 100).toFixed(2);
const ratio = (value: number) => `${twoPlaces(value)} ×`;

/** The lowest and the highest of the rounds' ratios of `a` to `b` (round i of each ran back to back). */
function spreadOf(a: Figures, b: Figures): string {
  const rounds = Math.min(a.rounds.length, b.rounds.length);
  const ratios = Array.from({ length: rounds }, (_, i) => (a.rounds[i]?.rps ?? 0) / (b.rounds[i]?.rps ?? 1));
  return ratios.length === 0 ? '?' : `${twoPlaces(Math.min(...ratios))}–${twoPlaces(Math.max(...ratios))}`;
}

/** A ratio of paired rounds: the median, and the spread of the rounds. */
const paired = (a: Figures, b: Figures) => `${ratio(pairedRatio(a, b))} (${spreadOf(a, b)})`;

const mb = (values: readonly number[]) => (values.length === 0 ? '?' : String(Math.round(median(values))));

function rowOf({ scenario, memory, redis, workers, rss }: RedisBenchRow): string {
  const target = TARGETS[scenario.id];
  const ofMemory = pairedRatio(redis, memory);
  const met = target === undefined ? '' : ofMemory >= target ? 'yes' : '**no**';
  const figures = (f: Figures) => `${rps(f)} (${f.p50} / ${f.p99})`;
  const cpu = (f: Figures) => (f.cpuPerRequest === undefined ? '?' : Math.round(f.cpuPerRequest));
  return `| ${scenario.title} | ${figures(memory)} | ${figures(redis)} | ${figures(workers)} | ${paired(redis, memory)} | ${paired(workers, memory)} | ${paired(workers, redis)} | ${target === undefined ? 'reported' : `≥ ${target}`} | ${met} | ${cpu(memory)} / ${cpu(redis)} | ${mb(rss.memory)} / ${mb(rss.redis)} |`;
}

/** The section of bench/RESULTS.md, between markers so that `--only redis` can replace it alone. */
export function redisSection(report: RedisBenchReport, runs: Runs, date: string): string {
  const problems = report.problems.length > 0 ? `\nWrong answers:\n\n${report.problems.map((problem) => `- ${problem}`).join('\n')}\n` : '';
  return `${REDIS_START}
## The Redis store (\`--store redis://\`, \`--workers\`)

Measured ${date} UTC on ${report.cores} cores, with a redis-server of the benchmark's own on loopback
(no persistence) and the load generator on the same machine: ${runs.trials} trial(s) of ${runs.rounds} rounds of
${runs.durationMs / 1000} s over ${runs.connections} connections per comparison, the three deployments
measured back to back in each round. Figures are req/s (p50 / p99 ms); a ratio is the median of the
rounds' ratios (to the in-memory mock's, or the one process on Redis for 2 workers ÷ 1), with the
lowest and highest round in brackets: on a machine shared with other work, the spread is part of the
figure. Then the mock process's CPU time per answer (µs), in memory and on Redis, which a busy
machine moves less than req/s, and its resident memory (MB) at the end of each trial, median.

| scenario | memory | Redis | 2 workers on Redis | Redis ÷ memory | 2 workers ÷ memory | 2 workers ÷ 1 | target (Redis) | met | CPU µs per answer | RSS MB |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${report.stores.map(rowOf).join('\n')}

On ${report.cores} cores the two workers share them with Redis and the load generator, so their
column says little of a larger machine, where each worker has a core of its own.
${problems}${REDIS_END}`;
}

const REDIS_START = '<!-- redis:start -->';
const REDIS_END = '<!-- redis:end -->';

/** `results` with its Redis section replaced by `section`, or `section` appended when there is none. */
export function withRedisSection(results: string, section: string): string {
  return withSection(results, [REDIS_START, REDIS_END], section);
}
