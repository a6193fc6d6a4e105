/**
 * Nothing acknowledged is lost (issue 23): `petstore-mock --store redis://… --workers 2` over a real
 * redis-server with `appendonly yes` and `appendfsync always`, while several clients create pets
 * without pause. During the run one worker is killed (-9) and the primary replaces it, Redis is killed
 * (-9) and started again on the same port and directory, and the primary is killed (-9) and the mock
 * started again. Then every pet a 201 acknowledged is read: none may be lost, none changed. Answers
 * other than 201 are allowed (a 503 while Redis is away, a refused connection while the mock is
 * down), and counted; a request that hangs is not allowed.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const KEY = 'durability-key-Rb7Kq2';
const CLIENTS = 6;
/**
 * Longer than any answer may take: the store's own timeout is 3 s, so an answer comes within it or is
 * a 503; a request still waiting after five of them hangs, which is a finding. Five, for a busy machine.
 */
const HANG_MS = 15_000;

/** What the clients saw: every pet a 201 acknowledged, by id, and how many of each other outcome. */
interface Tally {
  readonly acknowledged: Map<string, unknown>;
  /** Ids two 201s gave to two different pets. */
  readonly forked: string[];
  readonly statuses: Map<number, number>;
  connectionErrors: number;
  hangs: number;
}

/** A client that creates pets at `url()` one after another until `running()` is false. */
async function client(url: () => string, running: () => boolean, tally: Tally, name: string): Promise<void> {
  for (let n = 0; running(); n++) {
    try {
      const response = await fetch(`${url()}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `${name}-${n}`, categoryId: (n % 5) + 1 }),
        signal: AbortSignal.timeout(HANG_MS),
      });
      const text = await response.text();
      tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
      if (response.status !== 201) {
        // A 503 says Redis is away; the client waits as its Retry-After says, a little.
        await setTimeout(50);
        continue;
      }
      const pet = JSON.parse(text) as { id: number | string };
      const id = String(pet.id);
      // The first pet acknowledged with an id is the one that must be read back.
      if (tally.acknowledged.has(id)) tally.forked.push(id);
      else tally.acknowledged.set(id, pet);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError') tally.hangs++;
      else tally.connectionErrors++;
      await setTimeout(50);
    }
  }
}

/** Resolves once `count()` has grown by `more` since the call, or rejects after `withinMs` (a hang's bound, not a speed's). */
async function growth(count: () => number, more: number, what: string, withinMs = 30_000): Promise<void> {
  const target = count() + more;
  const until = Date.now() + withinMs;
  while (count() < target) {
    if (Date.now() > until) throw new Error(`no ${more} more acknowledged creates within ${withinMs} ms ${what}`);
    await setTimeout(25);
  }
}

/** The pids of the processes `pid` started: the workers of a primary. */
async function childrenOf(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return text.trim().split(/\s+/).filter(Boolean).map(Number);
}

/** Resolves once none of `pids` runs any more (a zombie runs nothing): the port they shared is free. */
async function gone(pids: readonly number[]): Promise<void> {
  const runs = async (pid: number) => !/^\d+ \(.*\) [ZX] /s.test(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => `${pid} () X `));
  while ((await Promise.all(pids.map(runs))).some(Boolean)) await setTimeout(25);
}

let redis: TestRedis | undefined;
let mock: RunningMock | undefined;
afterAll(async () => {
  await mock?.stop('SIGKILL');
  await redis?.stop();
});

describe('acknowledged creates over kill -9 of a worker, of Redis and of the primary', () => {
  it('loses none and changes none', async () => {
    redis = await startRedis({ appendonly: true });
    const flags = ['--store', redis.url, '--namespace', 'durability', '--workers', '2', '--api-key', KEY, '--quiet'];
    mock = await startMockCli([...flags, '--port', '0']);
    const port = new URL(mock.url).port;
    let url = mock.url;
    let running = true;
    const tally: Tally = { acknowledged: new Map(), forked: [], statuses: new Map(), connectionErrors: 0, hangs: 0 };
    const acknowledged = () => tally.acknowledged.size;
    const clients = Array.from({ length: CLIENTS }, (_, index) =>
      client(
        () => url,
        () => running,
        tally,
        `durable-${index}`,
      ),
    );
    try {
      await growth(acknowledged, 50, 'at first');

      const [worker] = await childrenOf(Number(mock.child.pid));
      process.kill(Number(worker), 'SIGKILL');
      await growth(acknowledged, 50, 'after a worker was killed');

      await redis.kill();
      await setTimeout(500);
      await redis.restart();
      await growth(acknowledged, 50, 'after Redis was killed and started again');

      // Its workers leave once they find it gone; the mock starts again on the port once they have.
      const workers = await childrenOf(Number(mock.child.pid));
      mock.child.kill('SIGKILL');
      await gone(workers);
      mock = await startMockCli([...flags, '--port', port]);
      url = mock.url;
      await growth(acknowledged, 50, 'after the primary was killed and the mock started again');
    } finally {
      running = false;
      await Promise.all(clients);
    }

    let lost = 0;
    let changed = 0;
    for (const [id, pet] of tally.acknowledged) {
      const read = await fetch(`${url}/pets/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
      const body: unknown = await read.json();
      if (read.status !== 200) lost++;
      else if (JSON.stringify(body) !== JSON.stringify(pet)) changed++;
    }
    // The figures of the run, for docs/redis.md and the report.
    console.info(
      `durability: ${tally.acknowledged.size} acknowledged creates, ${lost} lost, ${changed} changed, ${tally.forked.length} ids given twice; ` +
        `other answers ${JSON.stringify(Object.fromEntries(tally.statuses))}, ${tally.connectionErrors} connection errors, ${tally.hangs} hangs over ${HANG_MS} ms`,
    );
    expect({ lost, changed, forked: tally.forked, hangs: tally.hangs }).toEqual({ lost: 0, changed: 0, forked: [], hangs: 0 });
  });
});
