/**
 * The Vite relay's side toward a `target`: a target that takes the request and never answers, one that
 * trickles its body, and one that sends without end are each ended, as `--proxy` ends a deployment's
 * (red team 13 #3: a stopped target held the app's request for good; an endless one relayed 4 GB).
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_RESPONSE_BYTES } from '../../src/bounds/budget.js';
import * as validators from '../../src/generated/validators.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { type PetstoreMockPluginOptions, petstoreMock } from '../../src/mock/hosts/vite.js';
import { RELAY_ANSWER_MS } from '../../src/mock/hosts/vite-relay.js';

const KEY = 'relay-answer-key';
const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function devServer(options: PetstoreMockPluginOptions): Promise<number> {
  vi.stubEnv('VITEST', '');
  let vite: ViteDevServer;
  try {
    vite = await createServer({ configFile: false, logLevel: 'silent', plugins: [petstoreMock(options)], server: { host: '127.0.0.1', port: 0, watch: null } });
  } finally {
    vi.unstubAllEnvs();
  }
  await vite.listen();
  stops.push(() => vite.close());
  return Number(new URL(vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1').port);
}

async function listening<T extends Server | TcpServer>(server: T): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  stops.push(async () => {
    if ('closeAllConnections' in server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}

/** A GET through the dev server on a socket of its own: every byte that came, until the connection ended. */
async function getRaw(port: number, target = '/v1/pets'): Promise<string> {
  const socket: Socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`);
  // The bound is the test's hang bound: each case ends on its own well before it.
  await once(socket, 'close');
  return Buffer.concat(chunks).toString('latin1');
}

describe('a target that does not answer whole, through the Vite relay', () => {
  it('waits by default for the longest answer a mock may make by its own rules', () => {
    expect(RELAY_ANSWER_MS).toBe(600_000 + 60_000 + 10_000);
    expect(() => petstoreMock({ target: 'http://127.0.0.1:4010', answerMs: 0 })).toThrow(
      new RangeError('petstoreMock: answerMs must be a whole number from 1 to 86400000; got 0'),
    );
  });

  it("is the spec's 503 Error once answerMs passed with no answer", async () => {
    const silent = createTcpServer((socket) => socket.resume());
    const target = await listening(silent);
    const port = await devServer({ target: `http://127.0.0.1:${target}`, apiKey: KEY, answerMs: 500 });
    const answer = await getRaw(port);
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    const body: unknown = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(validators.Error(body)).toBe(true);
    expect((body as { message: string }).message).toMatch(new RegExp(`^The mock at http://127\\.0\\.0\\.1:${target} did not answer \\(TimeoutError\\)`));
  });

  it("ends the app's connection when an answer begun is not whole within answerMs", async () => {
    const trickling = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': 100_000 });
      const timer = setInterval(() => response.write('x'), 50);
      response.on('close', () => clearInterval(timer));
    });
    const target = await listening(trickling);
    const port = await devServer({ target: `http://127.0.0.1:${target}`, apiKey: KEY, answerMs: 500 });
    const answer = await getRaw(port);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    // Ended short of the 100,000 bytes its head promised: the app sees a truncated answer, as from the mock.
    expect(answer.length - answer.indexOf('\r\n\r\n') - 4).toBeLessThan(100_000);
  });

  it('ends an answer past the most the package reads of one, however fast it comes', async () => {
    const piece = 'x'.repeat(64 * 1024);
    const endless = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const more = () => {
        while (!response.destroyed && response.write(piece));
      };
      response.on('drain', more);
      more();
    });
    const target = await listening(endless);
    const port = await devServer({ target: `http://127.0.0.1:${target}`, apiKey: KEY });
    const answer = await getRaw(port);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    // With chunked framing around each piece: a little more than what was read, never much more.
    expect(answer.length).toBeLessThan(MAX_RESPONSE_BYTES + 2 * piece.length);
  });

  it('serves a mock that answers, again after answerMs has passed since the first answer', async () => {
    const mock = await startMockServer({ port: 0, apiKey: KEY, count: 3 });
    stops.push(() => mock.close());
    const port = await devServer({ target: mock.url, apiKey: KEY, answerMs: 300 });
    expect(await getRaw(port)).toMatch(/^HTTP\/1\.1 200 /);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const again = await getRaw(port, '/v1/pets?limit=1');
    expect(again).toMatch(/^HTTP\/1\.1 200 /);
    expect(again).toMatch(/\r\n\r\n\[\{"id":1,/);
  });
});
