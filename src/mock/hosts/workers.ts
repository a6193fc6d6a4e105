/**
 * `petstore-mock --workers <n>`: n processes of the same command on one port (node:cluster), so that a
 * load test can use every core. The primary process only forks and watches the workers; each worker
 * runs the mock on the shared store, which is what lets any of them respond to any request.
 */
import cluster, { type Worker } from 'node:cluster';

/** Whether this process is one of the workers `forkWorkers` started. */
export function isWorkerProcess(): boolean {
  return cluster.isWorker;
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

  function fork(): Worker {
    const worker = cluster.fork();
    live.add(worker);
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      if (stopping || !ports.size) return;
      onEvent(`petstore-mock: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another.\n`);
      fork();
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
