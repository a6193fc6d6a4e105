import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockRequest, MockResponse } from './exchange.js';
import { createMockApi, type MockApi, type MockOptions } from './handler.js';

/**
 * Options of `startMockServer`: those of the mock (`apiKey`, `seed`, `count`, `delay`...), and where to listen.
 * @example
 * const options: MockServerOptions = { port: 0, apiKey: 'test-key', seed: 7, count: 10 };
 */
export interface MockServerOptions extends MockOptions {
  /** TCP port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Interface to bind. Default `127.0.0.1`: only this machine can reach the mock. */
  readonly host?: string;
  /** Called once per answered request with a log line (method, path, status, ms); never holds a key. */
  readonly onRequest?: (line: string) => void;
}

/**
 * A running Node server hosting the mock's handler.
 * @example
 * const server: MockServer = await startMockServer();
 * server.mock.reset(); // back to the seeded pets
 * await server.close();
 */
export interface MockServer {
  /** The API's base URL, ending in `/v1`: `http://127.0.0.1:4010/v1`. */
  readonly url: string;
  readonly port: number;
  /** The mock behind the server: its store and `reset()`. */
  readonly mock: MockApi;
  /** Stops accepting connections, lets requests in flight finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** Reads the body up to `maxBytes`; past that it stops reading and reports the body as too large. */
function readBody(request: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.off('data', onData).off('end', onEnd);
        request.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size).toString('utf8'));
    request.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

function toMockRequest(request: IncomingMessage, state: { bodyLeftUnread: boolean }): MockRequest {
  const url = request.url ?? '/';
  const q = url.indexOf('?');
  return {
    method: request.method ?? 'GET',
    path: q === -1 ? url : url.slice(0, q),
    query: q === -1 ? '' : url.slice(q + 1),
    header: (name) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    text: async (maxBytes) => {
      const text = await readBody(request, maxBytes);
      if (text === undefined) state.bodyLeftUnread = true;
      return text;
    },
  };
}

function writeResponse(response: ServerResponse, answer: MockResponse, closeConnection: boolean): void {
  // A flat [name, value, ...] list: Node walks it much faster than an object made per answer.
  const headers: (string | number)[] = [];
  for (const name in answer.headers) headers.push(name, answer.headers[name] as string);
  headers.push('content-length', Buffer.byteLength(answer.body));
  // The rest of an oversized body was never read: the connection cannot carry another request.
  if (closeConnection) headers.push('connection', 'close');
  response.writeHead(answer.status, headers);
  response.end(answer.body);
}

function formatUrl(host: string, port: number, basePath: string): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}${basePath}`;
}

/**
 * Starts the mock on a real HTTP port, for a dev server or a test suite's global setup.
 * @example
 * // vitest globalSetup
 * const server = await startMockServer({ port: 0 });
 * process.env.API_URL = server.url; // http://127.0.0.1:<port>/v1
 * // ... later
 * await server.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const mock = createMockApi(options);
  const host = options.host ?? '127.0.0.1';
  const { onRequest } = options;
  const keys = mock.options.apiKeys;

  const server: Server = createServer((request, response) => {
    const started = onRequest ? performance.now() : 0;
    const state = { bodyLeftUnread: false };
    void mock.handle(toMockRequest(request, state)).then((answer) => {
      writeResponse(response, answer, state.bodyLeftUnread);
      if (onRequest) {
        let line = `${request.method} ${request.url} ${answer.status} ${(performance.now() - started).toFixed(1)}ms`;
        for (const key of keys) line = line.replaceAll(key, '***');
        onRequest(line);
      }
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: formatUrl(host, port, mock.options.basePath),
    port,
    mock,
    close: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
