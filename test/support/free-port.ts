import { once } from 'node:events';
import { createServer } from 'node:net';

/** A loopback port no one listened on a moment ago, for a process that must be given one (Redis, Prism, a mock on a given port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP address for a free port');
  return address.port;
}
