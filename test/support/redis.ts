/**
 * A real `redis-server` (Debian's) for tests: on a free port, in a temporary directory that nothing
 * else uses, stopped for good at the end. Fault tests kill it with SIGKILL and start it again on the
 * same port and directory, so that clients reconnect to the same address and, with `appendonly`,
 * find what Redis had acknowledged.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { spawn } from './children.js';
import { freePort } from './free-port.js';
import { type StartTarget, urlFor } from './http-facts.js';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** The redis-server flags under which a write Redis acknowledged survives a crash (docs/redis.md). */
export const DURABLE_REDIS_ARGS = ['--appendonly', 'yes', '--appendfsync', 'always'] as const;

export interface RedisServerOptions {
  /**
   * Log every write to an append-only file fsynced before each reply (`appendfsync always`), so that
   * a write Redis acknowledged survives a kill -9. Default: false, nothing on disk.
   */
  readonly appendonly?: boolean;
  /** More redis-server flags, such as `--requirepass secret`. */
  readonly args?: readonly string[];
}

/**
 * One redis-server process the test owns.
 * @example
 * const redis = await startRedis({ appendonly: true });
 * startMockServer({ store: redis.url });
 * await redis.kill(); await redis.restart();
 * await redis.stop();
 */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Kills the server at once (SIGKILL), as a crash would; the port and the directory stay. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and directory (after `kill`). */
  restart(): Promise<void>;
  /** Stops the server in its tracks (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** Starts redis-server and resolves once it accepts connections; rejects with its output if it exits first. */
async function launch(port: number, dir: string, options: RedisServerOptions): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no', '--loglevel', 'notice'];
  if (options.appendonly) args.push(...DURABLE_REDIS_ARGS);
  args.push(...(options.args ?? []));
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) =>
      reject(new Error(`cannot run ${REDIS_SERVER}: ${error.message}; install Debian's redis-server (apt-get install redis-server)`)),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`)));
  });
  // Keep reading its output, or a full pipe would block it.
  child.stdout?.resume();
  child.removeAllListeners('exit');
  return child;
}

async function end(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/**
 * Starts a redis-server of the test's own.
 * @example
 * const redis = await startRedis();
 * afterAll(() => redis.stop());
 */
export async function startRedis(options: RedisServerOptions = {}): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-redis-'));
  const port = await freePort();
  let child = await launch(port, dir, options);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => end(child, 'SIGKILL'),
    restart: async () => {
      child = await launch(port, dir, options);
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    stop: async () => {
      await end(child, 'SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Sends one command on a connection of its own, as inline text, and resolves on its reply. */
async function inline(port: number, line: string): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  try {
    socket.write(`${line}\r\n`);
    await once(socket, 'data');
  } finally {
    socket.destroy();
  }
}

/**
 * What Redis sends a connection of its own that sent `command` (`MONITOR`, `PSUBSCRIBE *`), from its
 * first reply (`ready`) until it shows `sentinel`, sent after `during` ended: all that `during` caused.
 */
async function listenedWhile(
  redis: TestRedis,
  command: string,
  ready: (text: string) => boolean,
  during: () => Promise<unknown>,
  sentinel: (mark: string) => { readonly send: string; readonly seen: (text: string) => boolean },
): Promise<string> {
  const socket = connect(redis.port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  try {
    socket.write(`${command}\r\n`);
    while (!ready(text)) await new Promise((resolve) => setTimeout(resolve, 5));
    await during();
    const end = sentinel(`end-of-${command.split(' ')[0]?.toLowerCase()}-${process.hrtime.bigint()}`);
    await inline(redis.port, end.send);
    // A hang's bound, not a speed's: Redis lists it in milliseconds.
    const deadline = Date.now() + 30_000;
    while (!end.seen(text)) {
      if (Date.now() > deadline) throw new Error(`${command} did not show the sentinel within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    socket.destroy();
  }
  return text;
}

/**
 * The commands Redis ran while `during` ran, one line each as MONITOR prints them (`+<time> [0
 * 127.0.0.1:5000] "publish" "ns:journal:ask" "..."`; those a Lua script ran say `[0 lua]`).
 * @example
 * const lines = await monitored(redis, () => fetch(url));
 */
export async function monitored(redis: TestRedis, during: () => Promise<unknown>): Promise<string[]> {
  // Once MONITOR lists this ECHO, sent after `during` ended, it has listed every command `during` cost.
  const text = await listenedWhile(
    redis,
    'MONITOR',
    (so) => so.startsWith('+OK\r\n'),
    during,
    (mark) => ({
      send: `ECHO ${mark}`,
      seen: (so) => so.toLowerCase().includes(`"echo" "${mark}"`),
    }),
  );
  return text.split('\r\n').slice(1);
}

/**
 * Every message published on `redis` while `during` ran (a pattern subscription to every channel), as
 * the raw replies Redis sent the subscriber: what a replica tells another travels in them.
 * @example
 * const messages = await published(redis, () => fetch(url));
 */
export function published(redis: TestRedis, during: () => Promise<unknown>): Promise<string> {
  // Once the subscriber has this message, published after `during` ended, it has every message before it.
  return listenedWhile(
    redis,
    'PSUBSCRIBE *',
    (so) => so.includes('psubscribe'),
    during,
    (mark) => ({
      send: `PUBLISH sentinel ${mark}`,
      seen: (so) => so.includes(mark),
    }),
  );
}

/** Namespaces given so far: every start of every suite gets a new one. */
let suiteNamespaces = 0;

/**
 * The Node server on a free port with its state in `redis`, as a host of the shared suites; each
 * start gets a namespace of its own, so that it starts seeded and alone.
 * @example
 * runHttpFacts('the Node server on Redis', redisHost(() => redis));
 */
export function redisHost(redis: () => TestRedis): StartTarget {
  return async (options) => {
    const server = await startMockServer({ ...options, port: 0, store: redis().url, namespace: `suite${++suiteNamespaces}` });
    return {
      baseUrl: server.url,
      mock: server.mock,
      request: (path, init) => fetch(urlFor(server.url, path), init),
      reset: async () => server.mock.reset(),
      close: () => server.close(),
    };
  };
}
