/**
 * `spawn` and `execFile` as node:child_process has them, except that the process started dies with the
 * process that started it, however that one ends: at the end of its test file, after a test timed out,
 * or when vitest is stopped or killed (SIGINT, SIGTERM, even SIGKILL: vitest's workers exit when vitest
 * goes). Otherwise a killed run leaves its redis-server, its mock clusters and its Prism running.
 *
 * On Linux the command is started through util-linux's `setpriv --pdeathsig SIGKILL`, which asks the
 * kernel to kill it once its parent is gone and then becomes the command (same pid, so a signal a test
 * sends reaches the command itself). Its own children go with it where they watch their parent: a
 * mock's cluster workers leave when the primary's channel closes, the verifier's Pact worker likewise,
 * and Chromium when its pipe to Playwright closes. Where setpriv is missing the command starts as it is.
 * @example
 * import { spawn } from '../support/children.js';
 * const redis = spawn('/usr/bin/redis-server', ['--port', '0']);
 */
import * as childProcess from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const SETPRIV = '/usr/bin/setpriv';

let setprivWorks: boolean | undefined;
/** Whether setpriv here takes --pdeathsig (util-linux 2.33 and later); asked once per process. */
function canWatch(): boolean {
  setprivWorks ??= process.platform === 'linux' && childProcess.spawnSync(SETPRIV, ['--pdeathsig', 'SIGKILL', '--', 'true']).status === 0;
  return setprivWorks;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `command` can be run: a path (against `cwd`), or a name found on the PATH it will be run with. */
function runnable(command: string, options: { cwd?: string | URL | undefined; env?: NodeJS.ProcessEnv | undefined }): boolean {
  if (command.includes('/')) return executable(isAbsolute(command) ? command : resolve(String(options.cwd ?? '.'), command));
  const path = options.env?.PATH ?? process.env.PATH ?? '';
  return path.split(delimiter).some((dir) => dir !== '' && executable(join(dir, command)));
}

type Options = childProcess.SpawnOptions & childProcess.ExecFileOptions;

/**
 * The command line that runs `command` under the parent-death watch. A command that cannot be found is
 * left as it is, so that it fails as Node says (an `error` event, ENOENT) rather than as setpriv would.
 */
function watched(command: string, args: readonly string[], options: Options): [string, string[]] {
  if (options.shell || !canWatch() || !runnable(command, options)) return [command, [...args]];
  return [SETPRIV, ['--pdeathsig', 'SIGKILL', '--', command, ...args]];
}

/** Node's optional arguments, sorted out: the args, the options and the callback, whichever were given. */
function sorted(rest: unknown[]): { args: readonly string[]; options: Options; callback?: (...values: never[]) => void } {
  const args = Array.isArray(rest[0]) ? (rest.shift() as string[]) : [];
  const options = rest[0] !== null && typeof rest[0] === 'object' ? (rest.shift() as Options) : {};
  if (rest[0] === null || rest[0] === undefined) rest.shift();
  return { args, options, ...(typeof rest[0] === 'function' ? { callback: rest[0] as (...values: never[]) => void } : {}) };
}

/** node:child_process's `spawn`, the child dying with this process. */
export const spawn = ((command: string, ...rest: unknown[]) => {
  const { args, options } = sorted(rest);
  const [file, argv] = watched(command, args, options);
  return childProcess.spawn(file, argv, options);
}) as typeof childProcess.spawn;

/** node:child_process's `execFile`, the child dying with this process; `promisify(execFile)` resolves `{ stdout, stderr }` as Node's does. */
export const execFile = ((command: string, ...rest: unknown[]) => {
  const { args, options, callback } = sorted(rest);
  const [file, argv] = watched(command, args, options);
  return childProcess.execFile(file, argv, options, callback as Parameters<typeof childProcess.execFile>[3]);
}) as typeof childProcess.execFile;

Object.defineProperty(execFile, promisify.custom, {
  value: (command: string, ...rest: unknown[]) => {
    const { args, options } = sorted(rest);
    let child: childProcess.ChildProcess | undefined;
    const done = new Promise((resolve, reject) => {
      child = execFile(command, args, options, (error, stdout, stderr) =>
        error ? reject(Object.assign(error, { stdout, stderr })) : resolve({ stdout, stderr }),
      );
    });
    return Object.assign(done, { child });
  },
});
