/**
 * A CLI run whose waits take no real time. The verifier times every wait (the pacer's, and those
 * for a Retry-After) through `waits.schedule` in src/contracts/pace.ts; a module preloaded with
 * NODE_OPTIONS into petstore-verify, and so into its Pact worker which inherits the environment,
 * swaps it for one that calls back at once and writes down how long it was asked to wait. A test
 * then checks the waits the verifier asked for instead of sitting through them.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

const pace = new URL('../../dist/contracts/pace.js', import.meta.url).href;

/** One wait the verifier asked for: the script that asked (`petstore-verify.js`, or `worker.js` for the Pact suite) and for how long. */
export interface Wait {
  readonly script: string;
  readonly ms: number;
}

/** The environment of a run whose waits end at once and are appended to `log`, one JSON line each. */
export function instantWaitsEnv(log: string): Record<string, string> {
  const preload = `
    import { appendFileSync } from 'node:fs';
    import { waits } from ${JSON.stringify(pace)};
    waits.schedule = (ms, done) => {
      appendFileSync(${JSON.stringify(log)}, JSON.stringify({ script: process.argv[1], ms }) + '\\n');
      const immediate = setImmediate(done);
      return () => clearImmediate(immediate);
    };
  `;
  return { NODE_OPTIONS: `--import=data:text/javascript;base64,${Buffer.from(preload).toString('base64')}` };
}

/** The waits written to `log`, in order; none when the run asked for none. */
export async function waitsIn(log: string): Promise<Wait[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { script, ms } = JSON.parse(line) as { script: string; ms: number };
      return { script: basename(script), ms };
    });
}
