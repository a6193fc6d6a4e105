/**
 * The whole benchmark as one function of its durations: `npm run bench` runs it at full length
 * (bench/run.ts), the smoke test with tiny durations. It returns figures and the problems found;
 * it never decides whether a figure is good enough (bench/report.ts compares them with the targets).
 */
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_API_KEY } from '../src/mock/core/defaults.js';
import { execFile } from '../test/support/children.js';
import { runCli } from '../test/support/cli.js';
import { measure } from './load.js';
import { rssMib, watchRss } from './memory.js';
import { BASE_PATH, type BenchRequest, bareConfig, SCENARIOS, type Scenario } from './scenarios.js';
import { type Server, startBare, startMock, startPrismMock } from './servers.js';
import { startTimed } from './startup.js';
import { answersAs, type Contender, compare, type Figures, median, type Runs } from './throughput.js';

/** How long and how often everything is measured. */
export interface BenchOptions {
  /** Every throughput comparison but Prism's. */
  readonly runs: Runs;
  /** Prism's side of the comparison (it answers a few hundred requests per second); none to skip Prism. */
  readonly prism?: Runs;
  /** Spawns of the mock timed to their first 200. */
  readonly startups: number;
  /** Spawns of Prism timed the same way. */
  readonly prismStartups: number;
  /** Pets of the large store. */
  readonly bigCount: number;
  /** Requests in a row against one mock for the leak check, and the requests that warm it up first. */
  readonly leak: { readonly requests: number; readonly warmup: number };
  /** Runs of petstore-verify against a fresh mock. */
  readonly verifyRuns: number;
  /** Requests per round and rounds of each way of calling the MSW handler. */
  readonly msw: { readonly requests: number; readonly rounds: number };
  /**
   * Runs the parts at once rather than one after another: for the smoke test, which checks every
   * answer and no timing. A measurement never sets it: each part would time the others' load.
   */
  readonly together?: boolean;
}

interface ScenarioFigures {
  readonly scenario: Scenario;
  readonly mock: Figures;
  readonly bare: Figures;
  readonly prism?: Figures;
}

/** One scenario with the journal on and off. */
interface JournalFigures {
  readonly scenario: Scenario;
  readonly on: Figures;
  readonly off: Figures;
}

export interface BenchReport {
  readonly throughput: readonly ScenarioFigures[];
  /** Medians of spawn to first 200: the mock, the bare baseline (Node's own start-up here), Prism. */
  readonly startup: { readonly mockMs: number; readonly bareMs: number; readonly prismMs?: number };
  readonly scale: {
    readonly count: number;
    readonly readyMs: number;
    readonly rssMib: number;
    readonly page: string;
    readonly p99: number;
    readonly smallP99: number;
  };
  readonly leak: {
    readonly requests: number;
    readonly rssStartMib: number;
    readonly rssAfterWarmupMib: number;
    readonly rssEndMib: number;
    readonly rssPeakMib: number;
  };
  readonly verify: { readonly ms: number; readonly exitCodes: readonly (number | null)[] };
  readonly msw: { readonly msw: number; readonly fetch: number; readonly handle: number };
  /** The mock with its request journal (the default) and without (`--no-journal`), measured in the same trials. */
  readonly journal: readonly JournalFigures[];
  /** Everything that was answered wrong: a benchmark of wrong answers measures nothing. */
  readonly problems: readonly string[];
}

const LIST = SCENARIOS[0] as Scenario;
const CREATE = SCENARIOS.find((scenario) => scenario.id === 'create') as Scenario;

/** What the journal costs: the same mock with it on (the default) and off, back to back, on GET list and POST. */
export async function journal(options: BenchOptions, problems: string[]): Promise<JournalFigures[]> {
  const results: JournalFigures[] = [];
  for (const scenario of [LIST, CREATE]) {
    const status = scenario.answer.status;
    const check = answersAs(scenario);
    const { figures, problems: found } = await compare([scenario.request], {
      'journal on': { start: () => startMock([], 'mock, journal on'), check, runs: options.runs, status },
      'journal off': { start: () => startMock(['--no-journal'], 'mock, journal off'), check, runs: options.runs, status },
    });
    problems.push(...found.map((problem) => `${scenario.title}, journal on and off: ${problem}`));
    const [on, off] = figures as [Figures, Figures];
    results.push({ scenario, on, off });
  }
  return results;
}

async function throughput(options: BenchOptions, problems: string[]): Promise<ScenarioFigures[]> {
  const results: ScenarioFigures[] = [];
  for (const scenario of SCENARIOS) {
    const status = scenario.answer.status;
    const check = answersAs(scenario);
    const contenders: Record<string, Contender> = {
      mock: { start: () => startMock(), check, runs: options.runs, status },
      bare: { start: () => startBare(bareConfig(), BASE_PATH), check, runs: options.runs, status },
    };
    // Prism's mock is stateless and answers its own example: only its status is checked.
    if (scenario.minPrismRatio !== undefined && options.prism) contenders.prism = { start: startPrismMock, runs: options.prism, status };
    const { figures, problems: found } = await compare([scenario.request], contenders);
    problems.push(...found.map((problem) => `${scenario.title}: ${problem}`));
    const [mock, bare, prism] = figures as [Figures, Figures, Figures | undefined];
    results.push({ scenario, mock, bare, ...(prism ? { prism } : {}) });
  }
  return results;
}

async function startup(options: BenchOptions): Promise<BenchReport['startup']> {
  const readyMs = async (start: () => Promise<Server>) => {
    const { server, readyMs } = await startTimed(start, LIST.request);
    await server.close();
    return readyMs;
  };
  const mock: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < options.startups; i++) {
    mock.push(await readyMs(() => startMock()));
    bare.push(await readyMs(() => startBare(bareConfig(), BASE_PATH)));
  }
  const prism: number[] = [];
  for (let i = 0; i < options.prismStartups; i++) prism.push(await readyMs(startPrismMock));
  return { mockMs: median(mock), bareMs: median(bare), ...(prism.length > 0 ? { prismMs: median(prism) } : {}) };
}

/** The same filtered page from the large store and from the default one: the first sold pets are the same in both. */
const FILTERED: BenchRequest = { ...LIST.request, path: '/pets?status=sold&limit=10' };

async function scale(options: BenchOptions, problems: string[]): Promise<BenchReport['scale']> {
  const { server: big, readyMs } = await startTimed(() => startMock(['--count', String(options.bigCount)], 'mock --count'), LIST.request);
  const rss = watchRss(big.pid as number, 1000);
  try {
    const { figures, problems: found } = await compare([FILTERED], {
      // The large store stays up until its memory is read; compare() closes only the small one.
      large: { start: async () => ({ ...big, close: async () => {} }), runs: options.runs, status: 200 },
      small: { start: () => startMock(), runs: options.runs, status: 200 },
    });
    problems.push(...found.map((problem) => `--count ${options.bigCount}: ${problem}`));
    const [large, small] = figures as [Figures, Figures];
    return {
      count: options.bigCount,
      readyMs,
      rssMib: Math.max(...(await rss.stop())),
      page: `GET ${BASE_PATH}${FILTERED.path}`,
      p99: large.p99,
      smallP99: small.p99,
    };
  } finally {
    await rss.stop();
    await big.close();
  }
}

/** Reads only: a POST adds a pet, which the mock must keep, and that is not a leak. */
const LEAK_MIX: readonly BenchRequest[] = SCENARIOS.filter((scenario) => scenario.request.method === 'GET').map((scenario) => scenario.request);

/**
 * V8 sizes its young generation to the load, in steps of several MiB of RSS up to tens of MiB; a bare
 * node:http server does the same (56 to 66 MiB over its first 1.25 million requests here), and that
 * is not a leak. The warm-up runs over this many connections, enough for V8 to reach the size it then
 * keeps, so that what the measured requests add is what they leave behind.
 */
const WARMUP_CONNECTIONS = 256;

async function leak(options: BenchOptions, problems: string[]): Promise<BenchReport['leak']> {
  const mock = await startMock();
  try {
    const expected = new Set(SCENARIOS.map((scenario) => String(scenario.answer.status)));
    const run = async (amount: number, connections: number) => {
      const measurement = await measure(mock.base, LEAK_MIX, { connections, amount });
      const wrong = Object.keys(measurement.statuses).filter((status) => !expected.has(status));
      if (wrong.length > 0 || measurement.errors > 0) problems.push(`leak: statuses ${wrong.join(', ')} and ${measurement.errors} errors`);
    };
    const rssStartMib = await rssMib(mock.pid as number);
    await run(options.leak.warmup, Math.min(WARMUP_CONNECTIONS, options.leak.warmup));
    const rssAfterWarmupMib = await rssMib(mock.pid as number);
    const rss = watchRss(mock.pid as number, 1000);
    await run(options.leak.requests, options.runs.connections);
    const samples = await rss.stop();
    return { requests: options.leak.requests, rssStartMib, rssAfterWarmupMib, rssEndMib: samples.at(-1) as number, rssPeakMib: Math.max(...samples) };
  } finally {
    await mock.close();
  }
}

async function verify(options: BenchOptions, problems: string[]): Promise<BenchReport['verify']> {
  const ms: number[] = [];
  const exitCodes: (number | null)[] = [];
  for (let i = 0; i < options.verifyRuns; i++) {
    const mock = await startMock();
    try {
      const started = performance.now();
      const result = await runCli('petstore-verify', ['--base-url', mock.base, '--api-key', DEFAULT_API_KEY]);
      ms.push(performance.now() - started);
      exitCodes.push(result.code);
      if (result.code !== 0) problems.push(`petstore-verify exited with ${result.code}: ${result.stdout.slice(-500)}${result.stderr}`);
    } finally {
      await mock.close();
    }
  }
  return { ms: median(ms), exitCodes };
}

const MSW_SCRIPT = fileURLToPath(new URL('./msw.js', import.meta.url));

async function msw(options: BenchOptions, problems: string[]): Promise<BenchReport['msw']> {
  const { stdout } = await promisify(execFile)(process.execPath, [MSW_SCRIPT, String(options.msw.requests), String(options.msw.rounds)]);
  const { answers, rps } = JSON.parse(stdout) as {
    answers: Record<string, { status: number; body: string }>;
    rps: Record<'msw' | 'fetch' | 'handle', number[]>;
  };
  for (const [way, answer] of Object.entries(answers)) {
    if (answer.status !== LIST.answer.status || answer.body !== LIST.answer.body)
      problems.push(`MSW in Node, ${way}: answered ${answer.status} ${answer.body.slice(0, 200)}`);
  }
  return { msw: median(rps.msw), fetch: median(rps.fetch), handle: median(rps.handle) };
}

/** Runs every part of the benchmark in turn; `onPart` hears which part starts. */
export async function runBench(options: BenchOptions, onPart: (part: string) => void = () => {}): Promise<BenchReport> {
  const problems: string[] = [];
  // Each part of the report, named as `onPart` hears it, in the order the parts run.
  const parts = {
    throughput: ['throughput', () => throughput(options, problems)],
    journal: ['the journal, on and off', () => journal(options, problems)],
    startup: ['start-up', () => startup(options)],
    scale: [`--count ${options.bigCount}`, () => scale(options, problems)],
    leak: [`${options.leak.requests} requests in a row`, () => leak(options, problems)],
    verify: ['petstore-verify', () => verify(options, problems)],
    msw: ['MSW in Node', () => msw(options, problems)],
  } as const;
  type Results = { -readonly [K in keyof typeof parts]: Awaited<ReturnType<(typeof parts)[K][1]>> };
  const results: Partial<Results> = {};
  const run = async <K extends keyof typeof parts>(key: K) => {
    const [name, measure] = parts[key];
    onPart(name);
    results[key] = (await measure()) as Results[K];
  };
  const keys = Object.keys(parts) as (keyof typeof parts)[];
  if (options.together) await Promise.all(keys.map(run));
  else for (const key of keys) await run(key);
  return { ...(results as Results), problems };
}
