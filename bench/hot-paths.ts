/**
 * The hot paths of issue 36, each beside its baseline in the same trials, round by round: getPet over
 * many distinct URLs against the same route over few, the request log on against off (for a read and for
 * a create, whose line is made once its answer is written, as a read's is), a put of pets
 * over a large seed against a small one, and a create against the bare server's. Runs in `npm run bench`, or alone with `npm run bench -- --only hot`,
 * which replaces only its section of bench/RESULTS.md.
 */

import { DEFAULT_COUNT } from '../src/fixtures/seeding.js';
import { withSection } from './report.js';
import { BASE_PATH, type BenchRequest, bareConfig, DISTINCT_IDS, FEW_IDS, getPetsRequest, SCENARIOS, type Scenario } from './scenarios.js';
import { type Server, startBare, startMock } from './servers.js';
import { answersAs, compare, type Figures, median, type Runs } from './throughput.js';

const CREATE = SCENARIOS.find(({ id }) => id === 'create') as Scenario;
const GET = SCENARIOS.find(({ id }) => id === 'get') as Scenario;
/** The seed a put is measured over, beside the default one (issue 36: 79-183 ms a put with 100k pets, before). */
const MANY_PETS = 100_000;

/** One hot path against its baseline. */
interface HotComparison {
  readonly title: string;
  readonly measured: Figures;
  readonly baseline: Figures;
  /** The least share of the baseline's req/s the hot path must reach. */
  readonly target: number;
}

export interface HotPathsReport {
  readonly comparisons: readonly HotComparison[];
  readonly problems: readonly string[];
}

/** Runs the five comparisons with `runs` (the throughput table's). */
export async function runHotPaths(runs: Runs): Promise<HotPathsReport> {
  const problems: string[] = [];
  const comparisons: HotComparison[] = [];
  const run = async (title: string, target: number, contenders: Parameters<typeof compare>[1], requests = [GET.request]) => {
    const { figures, problems: found } = await compare(requests, contenders);
    problems.push(...found.map((problem) => `${title}: ${problem}`));
    const [measured, baseline] = figures as [Figures, Figures];
    comparisons.push({ title, measured, baseline, target });
  };
  // Every id of both sets is a seeded pet, so every answer is a 200.
  const count = ['--count', String(DISTINCT_IDS)];
  await run(`GET ${BASE_PATH}/pets/{id}: ${DISTINCT_IDS.toLocaleString('en-US')} distinct ids ÷ ${FEW_IDS}`, 0.9, {
    [`${DISTINCT_IDS} ids`]: { start: () => startMock(count, `mock, ${DISTINCT_IDS} ids`), runs, status: 200, requests: [getPetsRequest(DISTINCT_IDS)] },
    [`${FEW_IDS} ids`]: { start: () => startMock(count, `mock, ${FEW_IDS} ids`), runs, status: 200, requests: [getPetsRequest(FEW_IDS)] },
  });
  const check = answersAs(GET);
  await run(`${GET.title}: request log on ÷ off (\`--quiet\`)`, 0.95, {
    'log on': { start: () => startMock([], 'mock, log on', { log: true }), check, runs, status: 200 },
    'log off': { start: () => startMock([], 'mock, log off'), check, runs, status: 200 },
  });
  const created = answersAs(CREATE);
  await run(
    `${CREATE.title}: request log on ÷ off (\`--quiet\`)`,
    0.95,
    {
      'log on': { start: () => startMock([], 'mock, log on', { log: true }), check: created, runs, status: 201 },
      'log off': { start: () => startMock([], 'mock, log off'), check: created, runs, status: 201 },
    },
    [CREATE.request],
  );
  // `POST /__mock/pets` of one pet over a seed of 100,000 beside the same over the default 50: a put
  // finds its place by a binary search (O(log n)), where it once sorted and indexed every pet again.
  const put: BenchRequest = {
    method: 'POST',
    path: '/__mock/pets',
    headers: { ...CREATE.request.headers },
    body: JSON.stringify({ id: 7, name: 'Rex', categoryId: 3, status: 'sold' }),
  };
  // The admin endpoints hang at the server's root, beside the API's base path.
  const atRoot = async (server: Promise<Server>) => {
    const started = await server;
    return { ...started, base: new URL(started.base).origin };
  };
  await run(
    `POST /__mock/pets (one pet): over ${MANY_PETS.toLocaleString('en-US')} pets ÷ over ${DEFAULT_COUNT}`,
    0.9,
    {
      [`${MANY_PETS} pets`]: { start: () => atRoot(startMock(['--count', String(MANY_PETS)], `mock, ${MANY_PETS} pets`)), runs, status: 200 },
      [`${DEFAULT_COUNT} pets`]: { start: () => atRoot(startMock([], `mock, ${DEFAULT_COUNT} pets`)), runs, status: 200 },
    },
    [put],
  );
  await run(
    `${CREATE.title}: mock ÷ bare node:http`,
    0.8,
    {
      mock: { start: () => startMock(), check: created, runs, status: 201 },
      bare: { start: () => startBare(bareConfig(), BASE_PATH), check: created, runs, status: 201 },
    },
    [CREATE.request],
  );
  return { comparisons, problems: [...new Set(problems)] };
}

/** The rounds' ratios of `a` to `b` (round i of each ran back to back). */
function roundRatios(a: Figures, b: Figures): number[] {
  return Array.from({ length: Math.min(a.rounds.length, b.rounds.length) }, (_, i) => (a.rounds[i]?.rps ?? 0) / (b.rounds[i]?.rps ?? 1));
}

/** A median with the spread it came from: `0.93 (0.88–0.97)`. */
function spread(values: readonly number[], digits: number): string {
  if (values.length === 0) return '–';
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

const cpuOf = (figures: Figures, part: 'cpuPerRequest' | 'mainCpuPerRequest' = 'cpuPerRequest') =>
  spread(
    figures.rounds.flatMap((round) => (round[part] === undefined ? [] : [round[part]])),
    1,
  );

/** The console table and the section's table. */
function hotPathsTable(report: HotPathsReport): string {
  const rows = report.comparisons.map(({ title, measured, baseline, target }) => {
    const ratios = roundRatios(measured, baseline);
    const met = median(ratios) >= target;
    return `| ${title} | ${Math.round(measured.rps).toLocaleString('en-US')} | ${Math.round(baseline.rps).toLocaleString('en-US')} | ${spread(ratios, 2)} | ≥ ${target} | ${met ? 'yes' : '**no**'} | ${cpuOf(measured)} / ${cpuOf(baseline)} | ${cpuOf(measured, 'mainCpuPerRequest')} / ${cpuOf(baseline, 'mainCpuPerRequest')} |`;
  });
  return [
    '| hot path ÷ its baseline | req/s | baseline req/s | ratio: median (min–max of the rounds) | target | met | CPU µs per answer: median (min–max), hot / baseline | of which the main thread, hot / baseline |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

const HOT_START = '<!-- hot-paths:start -->';
const HOT_END = '<!-- hot-paths:end -->';

/** The section of bench/RESULTS.md: what was measured, how, on how loaded a machine. */
export function hotPathsSection(report: HotPathsReport, runs: Runs, date: string, load: readonly [number, number]): string {
  const problems = report.problems.length > 0 ? `\nWrong answers:\n\n${report.problems.map((problem) => `- ${problem}`).join('\n')}\n` : '';
  const rounds = report.comparisons
    .flatMap(({ title, measured, baseline }) =>
      [measured, baseline].map((f) => `${title}, ${f.name}: ${f.rounds.map((round) => Math.round(round.rps)).join(', ')}`),
    )
    .join('\n');
  return `${HOT_START}
## Hot paths (issue 36)

Measured ${date} UTC; the machine's 1-minute load average was ${load[0].toFixed(2)} at the start and ${load[1].toFixed(2)} at the end.
${runs.trials} trials of ${runs.rounds} rounds of ${runs.durationMs / 1000} s over ${runs.connections} connections per comparison, each hot path
and its baseline measured back to back in every round (order alternating). On a loaded machine req/s moves
with the load: the ratio of two back-to-back rounds and the server's own CPU time per answer move far less,
and the spread of the rounds says how much to trust either. CPU is the whole process's; of it, the main thread's
(the rest is V8's compiler and collector threads, busy compiling in a fresh process's first seconds). The mock runs with \`--quiet\` except on the log's rows;
the log's pipe is read and dropped by the benchmark.

${hotPathsTable(report)}

Every round (req/s):

\`\`\`
${rounds}
\`\`\`
${problems}${HOT_END}`;
}

/** `results` with its hot-paths section replaced by `section`, or `section` appended when there is none. */
export function withHotPathsSection(results: string, section: string): string {
  return withSection(results, [HOT_START, HOT_END], section);
}
