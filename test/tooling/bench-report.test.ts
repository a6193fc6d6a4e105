import { describe, expect, it } from 'vitest';
import { cpuMicros, mainThreadCpuMicros } from '../../bench/cpu.js';
import type { Measurement } from '../../bench/load.js';
import { type Figures, pairedRatio } from '../../bench/throughput.js';

const figures = (name: string, rps: readonly number[]): Figures => ({
  name,
  rps: 0,
  p50: 0,
  p99: 0,
  cpuPerRequest: undefined,
  rounds: rps.map((value): Measurement => ({ rps: value, p50: 0, p99: 0, requests: value, statuses: {}, errors: 0 })),
});

describe('pairedRatio', () => {
  it("is the median of the rounds' ratios, so a slow round weighs on both sides of its own ratio", () => {
    // The medians alone would say 20 ÷ 10 = 2; round by round the ratios are 1, 2 and 0.5.
    expect(pairedRatio(figures('mock', [10, 20, 30]), figures('bare', [10, 10, 60]))).toBe(1);
  });

  it('pairs only the rounds both sides ran', () => {
    expect(pairedRatio(figures('mock', [30, 40, 1000]), figures('prism', [10, 10]))).toBe(3.5);
  });
});

describe.runIf(process.platform === 'linux')('cpuMicros', () => {
  it("reads a process's CPU time, which grows as it works", () => {
    const before = cpuMicros(process.pid) as number;
    const until = performance.now() + 50;
    while (performance.now() < until);
    expect(cpuMicros(process.pid)).toBeGreaterThan(before);
  });

  it('is undefined for a process that is not there', () => {
    expect(cpuMicros(2 ** 30)).toBeUndefined();
    expect(mainThreadCpuMicros(2 ** 30)).toBeUndefined();
  });

  it("reads the main thread's part, which grows as the JavaScript works and stays within the whole's", () => {
    const before = mainThreadCpuMicros(process.pid) as number;
    const until = performance.now() + 50;
    while (performance.now() < until);
    const main = mainThreadCpuMicros(process.pid) as number;
    expect(main).toBeGreaterThan(before);
    expect(main).toBeLessThanOrEqual(cpuMicros(process.pid) as number);
  });
});
