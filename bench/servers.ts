/**
 * The servers the benchmark measures, each in a child process of its own so that no server shares an
 * event loop with the load generator: the mock through its real CLI, the bare node:http baseline,
 * and Stoplight Prism's mock of the same spec.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_KEY } from '../src/mock/core/defaults.js';
import { startMockCli } from '../test/support/cli.js';
import { startPrism } from '../test/support/prism.js';
import type { Answer } from './scenarios.js';

/** A server under measurement. */
export interface Server {
  readonly name: string;
  /** Where the API's paths hang: `http://127.0.0.1:<port>/v1` (Prism serves them at its root). */
  readonly base: string;
  readonly pid: number | undefined;
  /**
   * Puts back what creates added, where the server bounds it: the mock's default session holds at most
   * `SESSION_PETS_BYTES` of pets of its own (some 70,000 creates), fewer than a round of creates on a
   * quiet machine makes. Called before each measurement of creates, outside it.
   */
  reset?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `petstore-mock --port 0 --quiet`, plus `args`, from `bin/` (so `dist/` must be built). With `log`,
 * without `--quiet`: the request log goes to a pipe the benchmark drains and drops, as a terminal or
 * a log collector would read it.
 */
export async function startMock(args: readonly string[] = [], name = 'mock', { log = false } = {}): Promise<Server> {
  const running = await startMockCli(['--port', '0', ...(log ? [] : ['--quiet']), ...args]);
  if (log) {
    // startMockCli keeps stderr for a test to read; the log of a benchmark would fill the memory of its load generator.
    running.child.stderr?.removeAllListeners('data');
    running.child.stderr?.resume();
  }
  return {
    name,
    base: running.url,
    pid: running.child.pid,
    reset: async () => {
      const response = await fetch(new URL('/__mock/reset', running.url), { method: 'POST', headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } });
      if (!response.ok) throw new Error(`${name}: POST /__mock/reset answered ${response.status}`);
      await response.arrayBuffer();
    },
    close: async () => {
      await running.stop('SIGTERM');
    },
  };
}

/** What the bare baseline answers: see bench/baselines/bare.js. */
export interface BareConfig {
  readonly apiKey: string;
  readonly unauthorized: Answer;
  /** By `<METHOD> <path and query>`. */
  readonly answers: Readonly<Record<string, Answer>>;
  /** Where a POST creates a pet, the headers of its answer, and the first id it gives. */
  readonly create: { readonly path: string; readonly headers: Readonly<Record<string, string>>; readonly firstId: number };
}

const BARE = fileURLToPath(new URL('./baselines/bare.js', import.meta.url));

/** The bare node:http baseline, answering what `config` says. */
export function startBare(config: BareConfig, basePath: string): Promise<Server> {
  // No execArgv: the benchmark's own (tsx's loader) would slow the baseline's start.
  const child = fork(BARE, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bare baseline exited with ${code} before listening`)));
    child.once('message', (message: { port: number }) => {
      child.removeAllListeners('exit');
      resolve({
        name: 'bare',
        base: `http://127.0.0.1:${message.port}${basePath}`,
        pid: child.pid,
        close: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill();
          }),
      });
    });
    child.send(config);
  });
}

/** Prism's mock of spec/openapi.yaml (stateless; its paths hang at its root). */
export async function startPrismMock(): Promise<Server> {
  const prism = await startPrism('mock');
  return { name: 'prism', base: prism.url, pid: undefined, close: () => prism.close() };
}
