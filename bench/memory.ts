/** The memory a server process holds, sampled from outside it. */
import { promisify } from 'node:util';
import { execFile } from '../test/support/children.js';

/** The resident set size of a process, in MiB (`ps`, so it works on Linux and macOS alike). */
export async function rssMib(pid: number): Promise<number> {
  const { stdout } = await promisify(execFile)('ps', ['-o', 'rss=', '-p', String(pid)]);
  return Number(stdout.trim()) / 1024;
}

/** Samples a process's RSS every `intervalMs` until `stop()`, which resolves with every sample, the last taken then. */
export function watchRss(pid: number, intervalMs: number): { stop(): Promise<number[]> } {
  const samples: number[] = [];
  let pending = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(async () => {
      samples.push(await rssMib(pid));
    });
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      samples.push(await rssMib(pid));
      return samples;
    },
  };
}
