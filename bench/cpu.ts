/** The CPU time a server process spends, read from outside it. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second, in which /proc counts CPU time (almost always 100). */
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/** The CPU time (user and system) in a /proc `stat` file, in microseconds; `undefined` where there is none. */
function statMicros(path: string): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  // The command name, in parentheses, may hold spaces: the fields are counted after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1e6) / clockTicks() : undefined;
}

/**
 * The CPU time (user and system) process `pid` has used so far, in microseconds, from
 * /proc/<pid>/stat; `undefined` where there is no /proc (macOS), or no such process.
 */
export function cpuMicros(pid: number): number | undefined {
  return statMicros(`/proc/${pid}/stat`);
}

/**
 * The part of `cpuMicros` its main thread used (the JavaScript's, Node's and the parts of V8's
 * collector that run there); the rest is V8's compiler and collector threads and libuv's, which a
 * fresh process keeps busy for its first seconds, compiling. Read from /proc/<pid>/task/<pid>/stat.
 */
export function mainThreadCpuMicros(pid: number): number | undefined {
  return statMicros(`/proc/${pid}/task/${pid}/stat`);
}
