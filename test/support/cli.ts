import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawn } from './children.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment a CLI test runs in: no key from the developer's shell leaks in. */
function cleanEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { PETSTORE_API_KEY: _key, PETSTORE_BASE_URL: _url, ...rest } = process.env;
  return { ...rest, NO_COLOR: '1', PACT_DO_NOT_TRACK: 'true', ...env };
}

/** Runs one of the package's executables (`bin/<name>.js`) to completion. */
export function runCli(name: string, args: readonly string[], env?: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`bin/${name}.js`, ...args], { cwd: root, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningMock {
  readonly url: string;
  readonly child: ChildProcess;
  /** What the mock wrote to stdout so far (its banner). */
  stdout(): string;
  /** What the mock wrote to stderr so far. */
  stderr(): string;
  /** Sends `signal` and resolves with the exit code, once all it wrote has been read. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `petstore-mock` and resolves once it prints the URL it listens on. */
export function startMockCli(args: readonly string[], env?: Record<string, string>): Promise<RunningMock> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/petstore-mock.js', ...args], { cwd: root, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    // 'close', not 'exit': what it wrote last (the coverage on exit) is read by then.
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /(http:\/\/\S+\/v1)/.exec(stdout)?.[1];
      if (url)
        resolve({
          url,
          child,
          stdout: () => stdout,
          stderr: () => stderr,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
    });
    void exited.then((code) => reject(new Error(`petstore-mock exited with ${code} before listening: ${stderr}`)));
  });
}
