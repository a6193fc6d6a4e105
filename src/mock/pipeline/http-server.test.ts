import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostServer } from './http-server.js';

/** An answer far larger than what the kernel buffers of a loopback connection hold, so a slow reader takes long to read it. */
const ANSWER_BYTES = 32 * 1024 * 1024;

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('the Node server under every mode: every connection ends', () => {
  it('resets a connection whose client has not taken a whole answer within the send limit, however steadily it reads', async () => {
    // The drain limit (no byte taken at all) is out of reach here: this client takes bytes all the time.
    const server = createHostServer({ drainMs: 600_000, sendMs: 1_000 }, () => undefined, (_request, outgoing) => {
      outgoing.end(Buffer.alloc(ANSWER_BYTES, 'x'));
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.pause();
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    let received = 0;
    let ended = false;
    socket.on('close', () => (ended = true)).on('error', () => (ended = true));
    // 4 KiB every 20 ms, about 200 KiB/s: 32 MiB would take nearly three minutes.
    for (const until = Date.now() + 20_000; !ended && Date.now() < until; await setTimeout(20)) received += (socket.read(4096) as Buffer | null)?.length ?? 0;
    socket.destroy();
    expect(ended).toBe(true);
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(ANSWER_BYTES);
  });

  it('answers a request asking to upgrade, then closes, so that a request pipelined behind it is not left unanswered', async () => {
    const server = createHostServer({ keepAliveMs: 600_000 }, () => undefined, (_request, outgoing) => {
      outgoing.end('served');
    });
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
