/**
 * A deployment that closes a kept-alive connection as the proxy reuses it (issue 34: the red team's
 * deployment made every other request a 503 "did not answer"): an idempotent request is sent once more
 * on a new connection (RFC 9110 9.2.2), a create is not. Raw sockets, the real proxy.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyServer, startProxyServer } from '../../src/mock/proxy/proxy-server.js';

const BODY = '[{"id":1,"name":"Rex","categoryId":1,"status":"available"}]';
let server: Server;
let proxy: ProxyServer;
const sockets = new Set<Socket>();
let received = 0;

beforeAll(async () => {
  // Answers the first request of each connection, keeping it open; a second request on it ends it unanswered.
  server = createServer((socket) => {
    sockets.add(socket);
    let answered = false;
    socket.on('data', () => {
      received++;
      if (answered) socket.destroy();
      else socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`);
      answered = true;
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  proxy = await startProxyServer({ upstream: `http://127.0.0.1:${port}/v1`, port: 0 });
});
afterAll(async () => {
  await proxy?.close();
  for (const socket of sockets) socket.destroy();
  server?.close();
});

describe('a deployment that closes a reused connection', () => {
  it('answers every read, each sent once more on a new connection when the one reused fails', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${proxy.url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(received).toBeGreaterThan(5);
  });
});
