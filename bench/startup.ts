/** Start-up: the wall time from spawning a server to its first 200. */
import type { BenchRequest } from './scenarios.js';
import type { Server } from './servers.js';

/** A server that answered, and how long after its spawn it first answered 200. */
export interface Started {
  readonly server: Server;
  readonly readyMs: number;
}

/**
 * Spawns a server with `start` and sends `request` until it answers 200 (the server may print its
 * address before it can answer). The server is left running: close it.
 */
export async function startTimed(start: () => Promise<Server>, request: BenchRequest, timeoutMs = 60_000): Promise<Started> {
  const spawned = performance.now();
  const server = await start();
  for (;;) {
    const response = await fetch(server.base + request.path, { headers: request.headers }).catch(() => undefined);
    await response?.arrayBuffer();
    if (response?.status === 200) return { server, readyMs: performance.now() - spawned };
    if (performance.now() - spawned > timeoutMs) {
      await server.close();
      throw new Error(`${server.name} did not answer 200 within ${timeoutMs} ms of its spawn`);
    }
  }
}
