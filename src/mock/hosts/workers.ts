/**
 * `petstore-mock --workers <n>`: n processes of the same command on one port (node:cluster), so that a
 * load test can use every core. The primary process only forks and watches the workers; each worker
 * runs the mock on the shared store, which is what lets any of them respond to any request.
 */
import cluster, { type Worker } from 'node:cluster';

/** How long to wait before trying again: a worker for Redis at start, the primary before replacing a worker that never listened. */
const RETRY_MS = 1_000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The most MiB a worker's young generation has per semi-space: the 16 MB young generation a mock in
 * memory keeps. V8 grows it to its maximum (128 MB on a machine of 24 GiB) whenever objects survive its
 * collections, as each request waiting for Redis does, and a worker is always on Redis: a mock on Redis
 * held 218–250 MB under load, 126–153 MB with this, memory mode 102–120, for no CPU measurable per
 * answer (docs/performance.md, "The Redis store"). V8 reads it only as a process starts.
 */
const WORKER_SEMI_SPACE_MIB = 8;

/** The workers' Node flags: this process's own, and the semi-space's bound unless the command line or NODE_OPTIONS sets one. */
function workerExecArgv(): string[] {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flags) => /--max[-_]semi[-_]space[-_]size/.test(flags));
  return given ? process.execArgv : [...process.execArgv, `--max-semi-space-size=${WORKER_SEMI_SPACE_MIB}`];
}

/** Whether this process is one of the workers `forkWorkers` started. */
export function isWorkerProcess(): boolean {
  return cluster.isWorker;
}

/**
 * The seed of this process's fault draws (`--faults`): each worker draws its own sequence, so that the
 * workers do not fail the same requests in step.
 */
export function processFaultSeed(seed: number): number {
  return seed + (cluster.worker?.id ?? 0);
}

/**
 * Starts a worker's server, trying again every second while `start` rejects with an error
 * `retryable` accepts (Redis does not respond): a worker forked to replace a dead one while Redis is
 * down waits for Redis, as the running workers do, instead of leaving the cluster a worker short.
 * `onWait` hears of the first failure only.
 */
export async function startWorker<T>(start: () => Promise<T>, retryable: (error: unknown) => boolean, onWait: (error: unknown) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (!retryable(error)) throw error;
      if (attempt === 0) onWait(error);
      await wait(RETRY_MS);
    }
  }
}

/**
 * Lets a worker that failed to start exit: the channel to the primary would otherwise keep it alive,
 * a process that neither serves nor is replaced. Does nothing outside a worker.
 */
export function leaveCluster(): void {
  if (cluster.isWorker) cluster.worker?.disconnect();
}

/**
 * The workers as the primary sees them.
 * @example
 * const workers = await forkWorkers(4, (line) => process.stderr.write(line));
 * console.log(`listening on ${workers.port}`);
 * await workers.stop();
 */
export interface Workers {
  /** The port every worker listens on. */
  readonly port: number;
  /** The workers' process ids. */
  readonly pids: readonly number[];
  /** Stops every worker (SIGTERM: each finishes its requests in flight) and resolves once all have exited. */
  stop(): Promise<void>;
}

/**
 * Forks `count` workers running this process's own command line, and resolves once each listens
 * (cluster gives every worker the same port, even port 0). A worker that dies while the mock runs is
 * replaced, and `onEvent` hears of it. Rejects when a worker exits before it listens: what it wrote to
 * stderr says why.
 */
export function forkWorkers(count: number, onEvent: (line: string) => void): Promise<Workers> {
  let stopping = false;
  const live = new Set<Worker>();
  const ports = new Set<number>();

  cluster.setupPrimary({ execArgv: workerExecArgv() });
  function fork(): Worker {
    const worker = cluster.fork();
    let listened = false;
    live.add(worker);
    worker.once('listening', () => {
      listened = true;
    });
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      if (stopping || !ports.size) return;
      onEvent(`petstore-mock: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another.\n`);
      // One that could not start is replaced after a pause, not in a loop as fast as processes fork.
      if (listened) fork();
      else
        void wait(RETRY_MS).then(() => {
          if (!stopping) fork();
        });
    });
    return worker;
  }

  const stop = () =>
    new Promise<void>((resolve) => {
      stopping = true;
      if (live.size === 0) resolve();
      for (const worker of live) {
        worker.once('exit', () => {
          if (live.size === 0) resolve();
        });
        worker.process.kill('SIGTERM');
      }
    });

  return new Promise((resolve, reject) => {
    const started = Array.from({ length: count }, fork);
    let listening = 0;
    for (const worker of started) {
      const early = (code: number | null) => {
        void stop().then(() => reject(new Error(`a worker exited with ${code} before it listened; see its message above.`)));
      };
      worker.once('exit', early);
      worker.once('listening', (address) => {
        worker.off('exit', early);
        ports.add(address.port);
        if (++listening < count) return;
        resolve({ port: address.port, pids: started.flatMap((each) => (each.process.pid === undefined ? [] : [each.process.pid])), stop });
      });
    }
  });
}
