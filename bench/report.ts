/** The benchmark's figures against the issue's targets, as a console table and as bench/RESULTS.md. */
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import type { BenchOptions, BenchReport } from './bench.js';
import { type Figures, pairedRatio } from './throughput.js';

/** Where and when the figures were measured: they mean nothing without it. */
export interface Machine {
  readonly date: string;
  readonly cores: number;
  readonly cpu: string;
  readonly memoryGib: number;
  readonly node: string;
  readonly os: string;
  /** 1-minute load average when the run started and when it ended: the machine may be shared. */
  readonly load: readonly [number, number];
}

/** This machine, now; `startLoad` is the 1-minute load average taken when the run started. */
export function thisMachine(startLoad: number): Machine {
  const cores = cpus();
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    cores: cores.length,
    cpu: cores[0]?.model.trim() ?? 'unknown',
    memoryGib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${type()} ${release()}`,
    load: [startLoad, loadavg()[0] as number],
  };
}

/** One target of the issue: what it asks, what was measured, whether that meets it. */
export interface Verdict {
  readonly measure: string;
  readonly measured: string;
  readonly target: string;
  readonly met: boolean;
}

const rps = (figures: Figures) => Math.round(figures.rps).toLocaleString('en-US');
const ratio = (value: number) => `${value.toFixed(2)} ×`;
// A share that must reach a target is shown rounded down: 0.7995 reads 0.79, never a 0.80 that misses 0.8.
const share = (value: number) => ratio(Math.floor(value * 100) / 100);
const ms = (value: number) => `${Math.round(value)} ms`;

/** Every target with its verdict. */
export function verdicts(report: BenchReport): Verdict[] {
  const found: Verdict[] = [];
  for (const { scenario, mock, bare, prism } of report.throughput) {
    const ofBare = pairedRatio(mock, bare);
    found.push({
      measure: `${scenario.title}: mock ÷ bare node:http`,
      measured: share(ofBare),
      target: `≥ ${scenario.minRatio}`,
      met: ofBare >= scenario.minRatio,
    });
    if (prism && scenario.minPrismRatio !== undefined) {
      const multiple = pairedRatio(mock, prism);
      found.push({
        measure: `${scenario.title}: mock ÷ Prism`,
        measured: share(multiple),
        target: `≥ ${scenario.minPrismRatio}`,
        met: multiple >= scenario.minPrismRatio,
      });
    }
  }
  for (const { scenario, on, off } of report.journal) {
    const cost = pairedRatio(on, off);
    found.push({
      measure: `${scenario.title}: journal on ÷ off (\`--no-journal\`)`,
      measured: `${share(cost)} (${rps(on)} ÷ ${rps(off)} req/s)`,
      target: '≥ 0.95',
      met: cost >= 0.95,
    });
  }
  const { startup, scale, leak, verify, msw } = report;
  found.push({
    measure: 'spawn of `petstore-mock` to its first 200 (median)',
    measured: `${ms(startup.mockMs)} (bare node:http: ${ms(startup.bareMs)}${startup.prismMs === undefined ? '' : `; Prism: ${ms(startup.prismMs)}`})`,
    target: '≤ 250 ms',
    met: startup.mockMs <= 250,
  });
  found.push({ measure: `\`--count ${scale.count}\`: spawn to first 200`, measured: ms(scale.readyMs), target: '≤ 3000 ms', met: scale.readyMs <= 3000 });
  found.push({
    measure: `\`--count ${scale.count}\`: peak RSS`,
    measured: `${Math.round(scale.rssMib)} MiB`,
    target: '≤ 400 MB',
    met: scale.rssMib * 2 ** 20 <= 400e6,
  });
  found.push({
    measure: `\`--count ${scale.count}\`: p99 of ${scale.page} ÷ the 50-pet store's`,
    measured: `${ratio(scale.p99 / scale.smallP99)} (${scale.p99} ms ÷ ${scale.smallP99} ms)`,
    target: '≤ 2',
    met: scale.p99 <= 2 * scale.smallP99,
  });
  const growth = (leak.rssEndMib - leak.rssAfterWarmupMib) / leak.rssAfterWarmupMib;
  found.push({
    measure: `${leak.requests.toLocaleString('en-US')} requests in a row: RSS growth after warm-up`,
    measured: `${(growth * 100).toFixed(1)} % (${Math.round(leak.rssAfterWarmupMib)} → ${Math.round(leak.rssEndMib)} MiB, peak ${Math.round(leak.rssPeakMib)}; ${Math.round(leak.rssStartMib)} MiB before the warm-up)`,
    target: '< 10 %',
    met: growth < 0.1,
  });
  found.push({
    measure: '`petstore-verify` (suite all) against the local mock (median)',
    measured: `${ms(verify.ms)}, exit ${verify.exitCodes.join(', ')}`,
    target: '≤ 5000 ms',
    met: verify.ms <= 5000 && verify.exitCodes.every((code) => code === 0),
  });
  found.push({
    measure: 'MSW `setupServer` in Node, one request at a time',
    measured: `${Math.round(msw.msw)} req/s; \`mock.fetch(Request)\` ${Math.round(msw.fetch)}; \`mock.respond()\` ${Math.round(msw.handle)}`,
    target: 'reported',
    met: true,
  });
  return found;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A server's CPU time per answer, or a dash where it could not be read. */
const micros = (figures: Figures): string => (figures.cpuPerRequest === undefined ? '–' : figures.cpuPerRequest.toFixed(1));

/** The throughput table: medians of the rounds, in req/s and ms, the median of the rounds' ratios, and CPU time per answer. */
export function throughputTable(report: BenchReport): string {
  const rows = report.throughput.flatMap(({ scenario, mock, bare, prism }) => {
    const row = (other: Figures, name: string) => [
      scenario.title,
      rps(mock),
      `${mock.p50} / ${mock.p99}`,
      `${name} ${rps(other)}`,
      `${other.p50} / ${other.p99}`,
      share(pairedRatio(mock, other)),
      `${micros(mock)} / ${micros(other)}`,
    ];
    return prism ? [row(bare, 'bare'), row(prism, 'Prism')] : [row(bare, 'bare')];
  });
  return table(
    ['scenario', 'mock req/s', 'mock p50 / p99 ms', 'baseline req/s', 'baseline p50 / p99 ms', 'mock ÷ baseline', 'CPU µs per answer: mock / baseline'],
    rows,
  );
}

/** The targets table. */
export function verdictTable(report: BenchReport): string {
  return table(
    ['measure', 'measured', 'target', 'met'],
    verdicts(report).map((verdict) => [verdict.measure, verdict.measured, verdict.target, verdict.met ? 'yes' : '**no**']),
  );
}

/** bench/RESULTS.md. */
export function resultsMarkdown(report: BenchReport, options: BenchOptions, machine: Machine): string {
  const { runs, prism } = options;
  const rounds = [
    ...report.throughput.map(({ scenario, mock, bare, prism: other }) => [scenario.title, [mock, bare, ...(other ? [other] : [])]] as const),
    ...report.journal.map(({ scenario, on, off }) => [scenario.title, [on, off]] as const),
  ].map(([title, all]) => all.map((figures) => `${title}, ${figures.name}: ${figures.rounds.map((round) => Math.round(round.rps)).join(', ')}`).join('\n'));
  return `# Benchmark results

Written by \`npm run bench\` on ${machine.date} UTC: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGib} GiB, Node ${machine.node}, ${machine.os}.
The machine's 1-minute load average was ${machine.load[0].toFixed(2)} at the start and ${machine.load[1].toFixed(2)} at the end.

Every server runs in a child process of its own, on loopback; the load generator (autocannon) runs in
the benchmark's process. Each comparison has ${runs.trials} trials: each starts the servers afresh, warms them up (${runs.warmupMs / 1000} s),
then measures them in turn, ${runs.rounds} rounds of ${runs.durationMs / 1000} s over ${runs.connections} keep-alive connections, alternating the order
each round${prism ? ` (Prism: ${prism.trials} trial, ${prism.rounds} rounds of ${prism.durationMs / 1000} s over ${prism.connections} connections)` : ''}; the figures are the medians of every round. Fresh
processes, because one process of a server can run a few per cent faster or slower than the next for as
long as it lives. Every ratio is the median of the rounds' ratios: a round measures the mock and its baseline
back to back, so a slow moment of the machine weighs on both sides of a ratio. The CPU time per answer is
the server process's own (user and system, from /proc, median of the rounds): it says how much work an
answer costs, where req/s also holds the load generator and the machine. The bare baseline is plain
\`node:http\` that checks the key and writes the same bytes (a POST: parses, stores and serializes the pet): bench/baselines/bare.js.

## Throughput

${throughputTable(report)}

## Targets

${verdictTable(report)}
${report.problems.length > 0 ? `\n## Wrong answers\n\n${report.problems.map((problem) => `- ${problem}`).join('\n')}\n` : ''}
## Every round (req/s)

\`\`\`
${rounds.join('\n')}
\`\`\`
`;
}

/** `results` with the section between `start` and `end` (HTML comments) replaced by `section`, or `section` appended when there is none. */
export function withSection(results: string, [start, end]: readonly [string, string], section: string): string {
  const from = results.indexOf(start);
  const to = results.indexOf(end);
  if (from === -1 || to === -1) return `${results.trimEnd()}\n\n${section}\n`;
  return results.slice(0, from) + section + results.slice(to + end.length);
}
