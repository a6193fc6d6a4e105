import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { spawn } from './children.js';
import { freePort } from './free-port.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const prismBin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

export interface RunningPrism {
  /** Prism's URL; the spec's paths hang directly below it (`/pets`). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts Stoplight Prism, the independent oracle, on spec/openapi.yaml: `mock` answers from the spec
 * alone (stateless), `proxy` forwards to `upstream` and reports every violation of the spec it sees
 * in an `sl-violations` header.
 */
export async function startPrism(mode: 'mock' | 'proxy', upstream?: string): Promise<RunningPrism> {
  const port = await freePort();
  const args = [prismBin, mode, 'spec/openapi.yaml', ...(upstream ? [upstream] : []), '--port', String(port), '--host', '127.0.0.1'];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
