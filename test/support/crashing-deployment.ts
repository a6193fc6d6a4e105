/**
 * A deployment in a process of its own that crashes (the process exits) on a request it is told to:
 * the built mock behind node:http, as a framework's server would run it. What a client sees is what a
 * real crash shows: the connection of that request and of those in flight reset, then every new
 * connection refused.
 */

import { fileURLToPath } from 'node:url';
import { spawn } from './children.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface CrashingDeployment {
  /** Base URL ending in `/v1`. */
  readonly url: string;
  /** The exit code once the process has exited, e.g. after its crash. */
  readonly exited: Promise<number | null>;
  close(): Promise<void>;
}

/**
 * Starts the deployment; it exits with code 70 on the first request whose method and path `crashOn`
 * (a regular expression over `METHOD /path?query`) matches, before answering it.
 */
export async function crashingDeployment(crashOn: RegExp): Promise<CrashingDeployment> {
  const program = `
    import { createServer } from 'node:http';
    import { createMockApi } from './dist/index.js';
    const mock = createMockApi({ count: 30 });
    const crashOn = new RegExp(${JSON.stringify(crashOn.source)});
    const server = createServer(async (incoming, outgoing) => {
      if (crashOn.test(incoming.method + ' ' + incoming.url)) process.exit(70);
      const chunks = [];
      for await (const chunk of incoming) chunks.push(chunk);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
      const body = chunks.length > 0 && incoming.method !== 'GET' ? Buffer.concat(chunks) : undefined;
      const response = await mock.fetch(new Request('http://' + incoming.headers.host + incoming.url, { method: incoming.method, headers, body }));
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/v1'));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // The program prints its URL in one line as it starts listening, and nothing else.
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(String(chunk).trim()));
    void exited.then((code) => reject(new Error(`the crashing deployment exited with ${code} before listening`)));
  });
  return {
    url,
    exited,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}
