/**
 * The mock's limits on slow clients where the Vite dev server proxies to it (issue 34, ninth red team
 * #12): a client that pipelined journal reads and took no byte kept its connection to the dev server
 * open for good, megabytes queued for it, where the mock's own server resets it. The mock here runs
 * on its own with limits of 10 minutes, the plugin points at it (`target`) with lowered ones, so that
 * only the dev server's seam can cut the client within the test's wait. The client is a
 * raw socket with a receive window of 4 KiB (SO_RCVBUF, set from Python: Node's sockets cannot), as
 * a client that reads nothing leaves the server's socket full.
 */
import { promisify } from 'node:util';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { type PetstoreMockPluginOptions, petstoreMock } from '../../src/mock/hosts/vite.js';
import { execFile } from '../support/children.js';
import { pipeline, rawRequest } from '../support/raw-http.js';

const KEY = 's3cretKEYvalue42';
/**
 * The dev server's limits, well under the mock's own, which would cut no client before 10 s; the idle
 * limit under the send deadline even with the second Node adds to it (`keepAliveTimeoutBuffer`).
 */
const LIMITS = { drainMs: 500, sendMs: 2_000, keepAliveMs: 200, headersMs: 1_000 };

/** A dev server with the plugin, on port 0, started as under `vite` (the plugin stays out of vitest otherwise). */
async function devServer(options: PetstoreMockPluginOptions): Promise<{ vite: ViteDevServer; port: number }> {
  vi.stubEnv('VITEST', '');
  try {
    const vite = await createServer({
      configFile: false,
      logLevel: 'silent',
      plugins: [petstoreMock(options)],
      server: { host: '127.0.0.1', port: 0, watch: null },
    });
    await vite.listen();
    return { vite, port: Number(new URL(vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1').port) };
  } finally {
    vi.unstubAllEnvs();
  }
}

/**
 * A raw client: it sends `payload` (with a receive window of `rcvbuf` bytes when given: SO_RCVBUF,
 * which Node's sockets cannot set), then one byte of `drip` every 200 ms, and looks at its socket,
 * never reading it (data queued hides an error from a read), for how the server ends the connection,
 * for up to `waitS`: `ECONNRESET` when it reset it (`SO_ERROR`), `end` for a close (the state
 * `CLOSE_WAIT`, the server's FIN come), `open` when neither came. Then it reads what came. A busy
 * machine only makes the answer come later, never another one.
 */
const WATCHING_CLIENT = `
import socket, sys, time, json, errno
port, rcvbuf, wait, payload, drip = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
CLOSE_WAIT = 8
s = socket.socket()
if rcvbuf > 0:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
s.connect(('127.0.0.1', port))
s.sendall(payload.encode('latin1'))
ended, until, at = 'open', time.time() + wait, 0
while ended == 'open' and time.time() < until:
    time.sleep(0.2)
    if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == errno.ECONNRESET:
        ended = 'ECONNRESET'
    elif s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] == CLOSE_WAIT:
        ended = 'end'
    elif at < len(drip):
        try:
            s.sendall(drip[at].encode('latin1')); at += 1
        except OSError:
            ended = 'ECONNRESET'
answer = b''
s.settimeout(1)
try:
    while True:
        d = s.recv(65536)
        if not d: break
        answer += d
except OSError:
    pass
print(json.dumps({'ended': ended, 'answer': answer.decode('latin1')}))
`;

async function watched(port: number, payload: string, { rcvbuf = 0, drip = '', waitS = 60 } = {}): Promise<{ ended: string; answer: string }> {
  const args = ['-c', WATCHING_CLIENT, String(port), String(rcvbuf), String(waitS), payload, drip];
  const { stdout } = await promisify(execFile)('python3', args, { timeout: (waitS + 10) * 1_000 });
  return JSON.parse(stdout) as { ended: string; answer: string };
}

/** How the server ends a connection that pipelined `request` `count` times and takes no byte, through a receive window of 4 KiB. */
async function smallWindow(port: number, request: string, count: number): Promise<string> {
  return (await watched(port, request.repeat(count), { rcvbuf: 4096 })).ended;
}

/** A journal of about 2 MB in `session`: 150 requests with a long query. */
async function fillJournal(port: number, session: string): Promise<void> {
  const filler = 'x'.repeat(14_000);
  let sent = 0;
  const connection = async () => {
    while (sent < 150)
      await (
        await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1&n=${sent++}&f=${filler}`, {
          headers: { authorization: `Bearer ${KEY}`, 'x-mock-session': session },
        })
      ).arrayBuffer();
  };
  await Promise.all(Array.from({ length: 8 }, connection));
}

const JOURNAL_READ = rawRequest('GET', '/__mock/requests', ['X-Mock-Session: unread']);

describe("the dev server cuts a client that does not read, with the mock server's rules", () => {
  let mock: MockServer;
  let dev: { vite: ViteDevServer; port: number };
  beforeAll(async () => {
    // The mock's own limits out of reach of the test's wait: only the dev server's seam can cut the client.
    mock = await startMockServer({ port: 0, apiKey: KEY, timeouts: { drainMs: 600_000, sendMs: 600_000 } });
    dev = await devServer({ target: mock.url, apiKey: KEY, timeouts: LIMITS });
    await fillJournal(dev.port, 'unread');
  }, 60_000);
  afterAll(async () => {
    await dev?.vite.close();
    await mock?.close();
  });

  it('three journal reads pipelined, none read: the connection is reset (drain or send deadline), not held with megabytes queued', async () => {
    expect(await smallWindow(dev.port, JOURNAL_READ, 3)).toBe('ECONNRESET');
  }, 90_000);

  it('one journal read, not read, then nothing: reset once the send deadline passes, where an idle close would leave the kernel sending', async () => {
    expect(await smallWindow(dev.port, JOURNAL_READ, 1)).toBe('ECONNRESET');
  }, 90_000);

  it('a small answer read, then the connection idle: ended at the keep-alive limit', async () => {
    const exchange = await pipeline(dev.port, [rawRequest('GET', '/v1/pets?limit=1', [`Authorization: Bearer ${KEY}`])], 30_000);
    expect(exchange.responses.map((response) => response.status)).toEqual([200]);
    expect(exchange.ended).toBe('end');
  }, 60_000);

  it('a request whose head never ends: cut once the head limit passes (checked every 30 s), where Vite waits 60 s and more', async () => {
    const trickled = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n`;
    expect((await pipeline(dev.port, [trickled], 50_000)).ended).not.toBe('open');
  }, 90_000);
});

describe('the dev server and a client too slow with its body', () => {
  it("a body trickled to /v1 is the mock's 408 Error, relayed, and the connection ends", async () => {
    // The mock's own limit for a whole request lowered; the dev server relays what the mock says of it.
    const mock = await startMockServer({ port: 0, apiKey: KEY, timeouts: { headersMs: 1_000, requestMs: 2_000 } });
    const dev = await devServer({ target: mock.url, apiKey: KEY });
    try {
      const head = [`Authorization: Bearer ${KEY}`, 'Content-Type: application/json', 'Content-Length: 40'];
      const exchange = await pipeline(dev.port, [`${rawRequest('POST', '/v1/pets', head).slice(0, -'\r\n\r\n'.length)}\r\n\r\n{"name":`], 30_000);
      expect(exchange.responses.map((response) => response.status)).toEqual([408]);
      expect(JSON.parse(exchange.responses[0]?.body.toString() ?? '{}')).toMatchObject({ code: 'request_timeout', status: 408 });
      expect(exchange.ended).not.toBe('open');
    } finally {
      await dev.vite.close();
      await mock.close();
    }
  }, 60_000);
});

/** A client that sends `head`, then one byte of `drip` every 200 ms, until the server ends the connection: `{ ended, answer }`. */
function trickle(port: number, head: string, drip: string): Promise<{ ended: string; answer: string }> {
  return watched(port, head, { drip });
}

/** The body of a raw answer, as JSON. */
const errorOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

describe('the dev server and a client that keeps trickling (tenth attack, #7)', () => {
  let mock: MockServer;
  let dev: { vite: ViteDevServer; port: number };
  beforeAll(async () => {
    // The mock times a whole request at 2 s; Node's own limit on the dev server's requests is 300 s, out of the test's wait.
    mock = await startMockServer({ port: 0, apiKey: KEY, timeouts: { headersMs: 1_000, requestMs: 2_000 } });
    // The dev server's own deadlines out of the test's wait, its head limit as the mock's: only the relay can end the connection.
    dev = await devServer({ target: mock.url, apiKey: KEY, timeouts: { drainMs: 600_000, sendMs: 600_000, headersMs: 1_000 } });
  }, 60_000);
  afterAll(async () => {
    await dev?.vite.close();
    await mock?.close();
  });

  it("a body still coming after the mock's 408: the 408 Error relayed, then the connection ends, where it was held until Node's 300 s", async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const { ended, answer } = await trickle(dev.port, head, 'a'.repeat(900));
    expect(ended).not.toBe('open');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(errorOf(answer)).toMatchObject({ code: 'request_timeout', status: 408 });
  }, 90_000);

  it("a head that never ends: the spec's 408 Error at the mock's head limit, where Vite wrote a bare 408 with no body", async () => {
    const { ended, answer } = await trickle(
      dev.port,
      `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n`,
      'X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    );
    expect(ended).not.toBe('open');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(errorOf(answer)).toMatchObject({ code: 'request_timeout', status: 408 });
  }, 90_000);
});
