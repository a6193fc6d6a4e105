/**
 * The load generator (autocannon, in this process, which runs nothing else heavy) and the one-request
 * check that a server answers a scenario exactly as it should.
 */
import autocannon from 'autocannon';
import type { Answer, BenchRequest } from './scenarios.js';

/** How long, or how many requests, and over how many keep-alive connections. */
export type Load = { readonly connections: number } & ({ readonly durationMs: number } | { readonly amount: number });

/** What one measurement found. */
export interface Measurement {
  /** Answers per second over the whole measurement. */
  readonly rps: number;
  /** Latency percentiles in milliseconds (autocannon's resolution: 1 ms). */
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Answers by status code, and connection errors and timeouts. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly errors: number;
  /** Microseconds of the server's CPU time per answer, where it can be read (see bench/cpu.ts). */
  readonly cpuPerRequest?: number;
  /** The part of `cpuPerRequest` the server's main thread spent (`mainThreadCpuMicros`). */
  readonly mainCpuPerRequest?: number;
}

/**
 * autocannon's `setupRequest` that gives each request the next of `paths`: rebuilt per request, where
 * a request per path would have each connection build all of them before its first.
 */
function inTurn(paths: readonly string[]): (request: autocannon.Request) => autocannon.Request {
  let next = 0;
  return (request) => {
    request.path = paths[next] as string;
    next = (next + 1) % paths.length;
    return request;
  };
}

/** Sends `requests` (cycled through, per connection) to `base` as fast as the server answers. */
export async function measure(base: string, requests: readonly BenchRequest[], load: Load): Promise<Measurement> {
  const basePath = new URL(base).pathname.replace(/\/$/, '');
  const result = await autocannon({
    url: base,
    connections: load.connections,
    // autocannon stops only at the end of a sample: short measurements need short samples.
    sampleInt: 'durationMs' in load ? Math.min(1000, load.durationMs) : 1000,
    ...('durationMs' in load ? { duration: load.durationMs / 1000 } : { amount: load.amount }),
    requests: requests.map((request) => ({
      method: request.method,
      path: basePath + request.path,
      headers: { ...request.headers },
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.paths === undefined ? {} : { setupRequest: inTurn(request.paths.map((path) => basePath + path)) }),
    })),
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count ?? 0]));
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    statuses,
    errors: result.errors,
  };
}

// Headers of the connection rather than of the answer: they legitimately differ between servers.
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** Sends one request and returns the answer as the scenarios describe answers. */
export async function answerOf(base: string, request: BenchRequest): Promise<Answer> {
  const response = await fetch(base + request.path, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !CONNECTION_HEADERS.has(name)).sort(([a], [b]) => a.localeCompare(b)));
  return { status: response.status, headers, body: await response.text() };
}

/** How `actual` differs from `expected`, one line per difference; empty when they are the same. */
export function differences(expected: Answer, actual: Answer): string[] {
  const found: string[] = [];
  if (actual.status !== expected.status) found.push(`status ${actual.status}, expected ${expected.status}`);
  const names = new Set([...Object.keys(expected.headers), ...Object.keys(actual.headers)]);
  for (const name of names) {
    if (actual.headers[name] !== expected.headers[name]) found.push(`header ${name}: ${actual.headers[name]}, expected ${expected.headers[name]}`);
  }
  if (actual.body !== expected.body) found.push(`body ${actual.body.slice(0, 200)}, expected ${expected.body.slice(0, 200)}`);
  return found;
}
