import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostServer, type ServerTimeouts } from './http-server.js';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server on port 0 that answers every request with `bytes` bytes, and its port. */
async function answering(bytes: number, timeouts: ServerTimeouts): Promise<number> {
  const server = createHostServer(
    timeouts,
    () => undefined,
    (_request, outgoing) => {
      outgoing.end(Buffer.alloc(bytes, 'x'));
    },
  );
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as { port: number }).port;
}

/** Asks `port` for an answer and reads 1 KiB of it every 50 ms (20 KiB/s) for at most 20 s: the bytes read, and whether the connection ended. */
async function slowRead(port: number): Promise<{ received: number; ended: boolean }> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.pause();
  socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  let received = 0;
  let ended = false;
  socket
    .on('close', () => (ended = true))
    .on('error', () => (ended = true))
    .on('end', () => (ended = true));
  for (const until = Date.now() + 20_000; !ended && Date.now() < until; await setTimeout(50)) received += (socket.read(1024) as Buffer | null)?.length ?? 0;
  socket.destroy();
  return { received, ended };
}

describe('the Node server under every mode: every connection ends', () => {
  // The drain limit (no byte taken at all) is out of reach here: this client takes bytes all the time.
  it('resets a connection whose client has not taken an answer larger than the kernel holds within the send limit, however steadily it reads', async () => {
    const bytes = 32 * 1024 * 1024;
    const { received, ended } = await slowRead(await answering(bytes, { drainMs: 600_000, sendMs: 1_000 }));
    expect(ended).toBe(true);
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(bytes);
  });

  it('resets a connection whose client has not taken an answer the kernel holds whole within the send limit, past the keep-alive limit', async () => {
    // Node hands all of it to the kernel at once (its finish), then frees the socket at the keep-alive
    // limit; the kernel went on sending it at the client's pace, 50 s here.
    const bytes = 1024 * 1024;
    const { received, ended } = await slowRead(await answering(bytes, { drainMs: 600_000, sendMs: 1_000, keepAliveMs: 300 }));
    expect(ended).toBe(true);
    expect(received).toBeLessThan(bytes);
  });

  it('answers a request asking to upgrade, then closes, so that a request pipelined behind it is not left unanswered', async () => {
    const server = createHostServer(
      { keepAliveMs: 600_000 },
      () => undefined,
      (_request, outgoing) => {
        outgoing.end('served');
      },
    );
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    const request = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n';
    socket.write(`${request}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n${request}\r\n`);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = once(socket, 'close').then(() => true);
    expect(await Promise.race([closed, setTimeout(20_000, false)])).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer.split('HTTP/1.1 ')).toHaveLength(2);
    socket.destroy();
  });
});
