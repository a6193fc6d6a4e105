/**
 * Throughput scenarios: the mock and its baselines, measured in turn in the same run, alternating the
 * order every round so that neither always runs on the warmer (or the quieter) machine, and started
 * afresh for each trial, since one process of the same server can run a few per cent faster or slower
 * than the next for as long as it lives.
 */
import { cpuMicros, mainThreadCpuMicros } from './cpu.js';
import { answerOf, differences, type Load, type Measurement, measure } from './load.js';
import type { BenchRequest, Scenario } from './scenarios.js';
import type { Server } from './servers.js';

/** How long each measurement lasts, how many rounds of them each trial has, and how many trials there are. */
export interface Runs {
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly rounds: number;
  readonly connections: number;
  /** How many times the server is started, warmed up and measured `rounds` times. */
  readonly trials: number;
  /**
   * Requests per measurement (the warm-up's too) in place of the durations: the smoke tests', whose
   * measurements a busy machine may slow but cannot leave without an answer, as it may a short duration.
   */
  readonly amount?: number;
}

/** A server's figures in one comparison: the median of its rounds, those of every trial. */
export interface Figures {
  readonly name: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Microseconds of the server's CPU time per answer; `undefined` where it cannot be read. */
  readonly cpuPerRequest: number | undefined;
  readonly rounds: readonly Measurement[];
}

/** A server taking part in a comparison: how it is started, checked and measured, and the status it must answer. */
export interface Contender {
  readonly start: () => Promise<Server>;
  /** Problems with the first answers of the freshly started server; none when it answers right. */
  readonly check?: (server: Server) => Promise<string[]>;
  readonly runs: Runs;
  readonly status: number;
  /** What this contender is sent, in place of the comparison's requests (the same route over more URLs, say). */
  readonly requests?: readonly BenchRequest[];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * How many times `a`'s req/s `b`'s is: the median of the rounds' ratios. Each round measures both back
 * to back, so a slow moment of a shared machine weighs on both sides of a ratio, where it would move
 * only one of two medians.
 */
export function pairedRatio(a: Figures, b: Figures): number {
  const rounds = Math.min(a.rounds.length, b.rounds.length);
  return median(Array.from({ length: rounds }, (_, i) => (a.rounds[i]?.rps ?? 0) / (b.rounds[i]?.rps ?? 1)));
}

function figuresOf(name: string, rounds: readonly Measurement[]): Figures {
  const cpu = rounds.flatMap((round) => (round.cpuPerRequest === undefined ? [] : [round.cpuPerRequest]));
  return {
    name,
    rps: median(rounds.map((round) => round.rps)),
    p50: median(rounds.map((round) => round.p50)),
    p99: median(rounds.map((round) => round.p99)),
    cpuPerRequest: cpu.length > 0 ? median(cpu) : undefined,
    rounds,
  };
}

/** `measure`, and the server's CPU time per answer meanwhile. */
async function measureWithCpu(server: Server, requests: readonly BenchRequest[], load: Load): Promise<Measurement> {
  const { pid } = server;
  const before = pid === undefined ? undefined : cpuMicros(pid);
  const mainBefore = pid === undefined ? undefined : mainThreadCpuMicros(pid);
  const measurement = await measure(server.base, requests, load);
  const after = pid === undefined ? undefined : cpuMicros(pid);
  const mainAfter = pid === undefined ? undefined : mainThreadCpuMicros(pid);
  if (before === undefined || after === undefined || measurement.requests === 0) return measurement;
  const main = mainBefore === undefined || mainAfter === undefined ? {} : { mainCpuPerRequest: (mainAfter - mainBefore) / measurement.requests };
  return { ...measurement, cpuPerRequest: (after - before) / measurement.requests, ...main };
}

/** What went wrong in a measurement: connection errors, or answers of another status than `status`. */
function faults(server: string, measurement: Measurement, status: number): string[] {
  const found = Object.entries(measurement.statuses)
    .filter(([code, count]) => code !== String(status) && count > 0)
    .map(([code, count]) => `${server}: ${count} answers with status ${code} instead of ${status}`);
  if (measurement.errors > 0) found.push(`${server}: ${measurement.errors} connection errors or timeouts`);
  return found;
}

/** One trial: starts and checks the contenders, measures each of their rounds in alternating order after a warm-up, and stops them. */
async function trial(
  requests: readonly BenchRequest[],
  entries: readonly (readonly [string, Contender])[],
  number: number,
  rounds: readonly Measurement[][],
  problems: string[],
): Promise<void> {
  const servers: Server[] = [];
  try {
    for (const [, contender] of entries) servers.push(await contender.start());
    for (const [index, [, contender]] of entries.entries()) problems.push(...((await contender.check?.(servers[index] as Server)) ?? []));
    const rest = Math.max(...entries.map(([, contender]) => contender.runs.rounds));
    for (let round = -1; round < rest; round++) {
      // Round -1 is the warm-up: measured, never counted.
      const order = entries.map((_, index) => index);
      if ((round + number) % 2 === 1) order.reverse();
      for (const index of order) {
        const [name, contender] = entries[index] as [string, Contender];
        if (round >= contender.runs.rounds) continue;
        const { connections, durationMs, warmupMs, amount } = contender.runs;
        const load: Load = amount === undefined ? { connections, durationMs: round < 0 ? warmupMs : durationMs } : { connections, amount };
        const server = servers[index] as Server;
        const sent = contender.requests ?? requests;
        // A round of creates starts from the seed: a session full of a round before would answer 429s.
        if (sent.some((request) => request.method === 'POST')) await server.reset?.();
        const measurement = await measureWithCpu(server, sent, load);
        problems.push(...faults(name, measurement, contender.status));
        if (round >= 0) rounds[index]?.push(measurement);
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/**
 * Runs every contender's trials (a contender with fewer trials than another sits the later ones out)
 * and returns the medians of all their rounds and whatever was wrong (`problems` is empty when every
 * answer was right). Round i of one contender and round i of another ran back to back.
 */
export async function compare(
  requests: readonly BenchRequest[],
  contenders: Readonly<Record<string, Contender>>,
): Promise<{ figures: Figures[]; problems: string[] }> {
  const entries = Object.entries(contenders);
  const problems: string[] = [];
  const rounds: Measurement[][] = entries.map(() => []);
  const trials = Math.max(...entries.map(([, contender]) => contender.runs.trials));
  for (let number = 0; number < trials; number++) {
    const taking = entries.flatMap((entry, index) => (number < entry[1].runs.trials ? [index] : []));
    const taken = taking.map((index) => rounds[index] as Measurement[]);
    await trial(
      requests,
      taking.map((index) => entries[index] as [string, Contender]),
      number,
      taken,
      problems,
    );
  }
  return { figures: entries.map(([name], index) => figuresOf(name, rounds[index] ?? [])), problems: [...new Set(problems)] };
}

/** A check that the server answers the scenario's request with exactly the scenario's answer. */
export function answersAs(scenario: Scenario): (server: Server) => Promise<string[]> {
  return async (server) => differences(scenario.answer, await answerOf(server.base, scenario.request)).map((difference) => `${server.name}: ${difference}`);
}
