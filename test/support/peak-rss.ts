/**
 * Runs a CLI as a child process and measures its peak memory, with that of every process it starts
 * (the Pact Verifier runs in one), by polling /proc: VmHWM is each process's own high-water mark.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawn } from './children.js';
import type { CliResult } from './cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface MeasuredRun extends CliResult {
  /** The largest VmHWM seen of any one process of the run, in bytes. */
  readonly peakRssBytes: number;
  readonly ms: number;
  /**
   * The CPU time of the run's processes, all told, as last seen (to within the 20 ms of a poll): what a
   * run spends past a deadline it ignores, which a busy machine does not stretch as it does the wall clock.
   */
  readonly cpuMs: number;
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function descendants(pid: number): number[] {
  const children = read(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children.flatMap(descendants)];
}

/** A memory field of `/proc/<pid>/status` (`VmHWM`, `VmRSS`), in bytes; 0 for a process gone. */
function statusBytes(field: string, pid: number): number {
  const kib = new RegExp(`${field}:\\s+(\\d+) kB`).exec(read(`/proc/${pid}/status`))?.[1];
  return kib === undefined ? 0 : Number(kib) * 1024;
}

/** The clock ticks a second of /proc's CPU times: 100 on Linux. */
const TICKS_PER_SECOND = 100;

/** The CPU time `pid` has used, user and system, in milliseconds; 0 for a process gone. */
export function cpuMsOf(pid: number): number {
  // The fields after the command's name, which may hold spaces and parentheses: utime and stime are its 12th and 13th.
  const fields = read(`/proc/${pid}/stat`).split(') ').at(-1)?.split(' ') ?? [];
  return ((Number(fields[11]) || 0) + (Number(fields[12]) || 0)) * (1000 / TICKS_PER_SECOND);
}

function highWaterMark(pid: number): number {
  return statusBytes('VmHWM', pid);
}

/**
 * The memory `pid` and each process it started hold now (`VmRSS`), in bytes, by process.
 * @example
 * const before = residentBytes(mock.child.pid);
 */
export function residentBytes(pid: number): Map<number, number> {
  return new Map(descendants(pid).map((each) => [each, statusBytes('VmRSS', each)]));
}

/** Runs `bin/<name>.js` with `args`, polling the memory of it and its children every 20 ms. */
export function runCliMeasured(name: string, args: readonly string[], env: Record<string, string> = {}): Promise<MeasuredRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const { PETSTORE_API_KEY: _key, PETSTORE_BASE_URL: _url, ...rest } = process.env;
    const child = spawn(process.execPath, [`bin/${name}.js`, ...args], { cwd: root, env: { ...rest, NO_COLOR: '1', PACT_DO_NOT_TRACK: 'true', ...env } });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    const cpu = new Map<number, number>();
    const poll = setInterval(() => {
      if (child.pid !== undefined)
        for (const pid of descendants(child.pid)) {
          peak = Math.max(peak, highWaterMark(pid));
          cpu.set(pid, Math.max(cpu.get(pid) ?? 0, cpuMsOf(pid)));
        }
    }, 20);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      const cpuMs = [...cpu.values()].reduce((sum, ms) => sum + ms, 0);
      resolve({ code, stdout, stderr, peakRssBytes: peak, ms: performance.now() - started, cpuMs });
    });
  });
}
