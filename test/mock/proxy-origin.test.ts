/**
 * What a deployment sends through `--proxy` is data, never a page of the mock's origin (issue 34),
 * attacked as a hostile deployment would: its answer names hop-by-hop headers, grants CORS of its
 * own, sets cookies, serves an HTML page with a script (a framework's 404 echoing the path), and
 * names a pet with terminal escape codes. Seen over raw sockets, in a real Chromium that opens a link
 * to the proxy, and on the terminal of the real CLI.
 */
import { createServer, type Server } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyServer, startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { startMockCli } from '../support/cli.js';
import { type Deployment, listenOnLoopback, serve } from '../support/deployments.js';
import { pipeline, rawRequest } from '../support/raw-http.js';

/** A page a deployment's framework might answer a 404 with: it runs a script wherever it is served. */
const PAGE = `<!doctype html><title>not found</title><script>document.title = 'ran on ' + location.origin; fetch('/__mock/reset', { method: 'POST', headers: { 'x-mock-admin': '1' } }); fetch('/__mock/requests');</script>`;

/** The head of the hostile answer: every field that belongs to a connection or acts on the origin that serves it. */
const HOSTILE_FIELDS = [
  'Content-Type: text/html; charset=utf-8',
  'Connection: close, X-Hop-Secret',
  'X-Hop-Secret: 1',
  'Keep-Alive: timeout=600',
  'Proxy-Authenticate: Basic realm="deployment"',
  'Proxy-Connection: keep-alive',
  'TE: trailers',
  'Trailer: X-Checksum',
  'Upgrade: h2c',
  'Access-Control-Allow-Origin: https://evil.example',
  'Access-Control-Allow-Credentials: true',
  'Access-Control-Expose-Headers: X-Hop-Secret',
  'Set-Cookie: session=deployment; Path=/',
  'Clear-Site-Data: "*"',
  "Content-Security-Policy: script-src 'unsafe-inline'",
  'X-Request-Id: kept-7',
];

/** A deployment written byte for byte (node:http would refuse some of these fields): every request gets the hostile 404 page. */
async function hostileDeployment(): Promise<Deployment> {
  const server: Server = createServer((socket) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.end(`HTTP/1.1 404 Not Found\r\n${[...HOSTILE_FIELDS, `Content-Length: ${Buffer.byteLength(PAGE)}`].join('\r\n')}\r\n\r\n${PAGE}`);
    });
    socket.on('error', () => {});
  });
  // net.Server closes as http.Server does, less closeAllConnections: the deployment ends every connection itself.
  return listenOnLoopback(Object.assign(server, { closeAllConnections: () => {} }) as never);
}

let deployment: Deployment;
let proxy: ProxyServer;
beforeAll(async () => {
  deployment = await hostileDeployment();
  proxy = await startProxyServer({ upstream: deployment.url, port: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await deployment?.close();
});

describe('the proxy relays a deployment’s answer as data', () => {
  it('drops the connection’s fields (RFC 9110 7.6.1), those Connection names, and the deployment’s CORS, cookies and Clear-Site-Data', async () => {
    const wire = await pipeline(proxy.port, [rawRequest('GET', '/v1/pets/7', ['Authorization: Bearer petstore-dev-key', 'Connection: close'])]);
    const [relayed] = wire.responses;
    expect(relayed?.status).toBe(404);
    const headers = relayed?.headers ?? {};
    for (const name of ['x-hop-secret', 'keep-alive', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer', 'upgrade', 'set-cookie', 'clear-site-data'])
      expect(headers, name).not.toHaveProperty(name);
    // The proxy's own connection header, for its own connection: the client asked to close it.
    expect(headers.connection).toBe('close');
    expect(headers['access-control-allow-credentials']).toBeUndefined();
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(headers['access-control-expose-headers']).not.toMatch(/X-Hop-Secret/i);
    expect(headers['x-request-id']).toBe('kept-7');
  });

  it('marks it data: X-Content-Type-Options: nosniff and Content-Security-Policy: sandbox, over the deployment’s own policy', async () => {
    const wire = await pipeline(proxy.port, [rawRequest('GET', '/v1/pets/7', ['Connection: close'])]);
    expect(wire.responses[0]?.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' });
    expect(wire.responses[0]?.body.toString()).toBe(PAGE);
  });
});

const TEST = 'test/mock/proxy-origin.test.ts';

describe.skipIf(skipWithoutChromium(TEST))('a link to the proxy, opened in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error(`CI=${process.env.CI}: ${chromiumMissing(TEST)}`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(() => browser?.close());

  it('shows the deployment’s HTML page without running its script: it neither resets the mock nor reads its journal', async () => {
    const page = await browser.newPage();
    const reached: string[] = [];
    page.on('request', (request) => reached.push(`${request.method()} ${new URL(request.url()).pathname}`));
    const opened = await page.goto(`http://127.0.0.1:${proxy.port}/v1/pets/%3Cscript%3E`);
    await page.waitForLoadState('networkidle');
    expect(opened?.status()).toBe(404);
    expect(await page.title()).toBe('not found');
    expect(reached.filter((line) => line.includes('/__mock/'))).toEqual([]);
    await page.close();
  });
});

/** An ESC sequence that clears the screen, one that sets the window's title, and one that writes the clipboard (OSC 52). */
const ESCAPES = '\u001b[2J\u001b]0;owned\u0007\u001b]52;c;ZXZpbA==\u0007';

describe('a deployment’s text on the terminal of petstore-mock --proxy', () => {
  it('is shown with its control characters escaped: no ESC or BEL reaches the terminal', async () => {
    // A deployment that names every pet it creates with escape codes: the proxy's drift line quotes that name.
    const echoing = await serve(async (request) => {
      if (request.method === 'POST')
        return new Response(JSON.stringify({ id: 1, name: `Rex${ESCAPES}`, categoryId: 1, status: 'available' }), {
          status: 201,
          headers: { 'content-type': 'application/json', location: '/v1/pets/1' },
        });
      return new Response('[]', { headers: { 'content-type': 'application/json' } });
    });
    const cli = await startMockCli(['--proxy', echoing.url, '--port', '0']);
    try {
      const created = await fetch(`${cli.url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      await expect.poll(() => cli.stderr(), { timeout: 10_000 }).toMatch(/drift \(field\)/);
      const drift =
        cli
          .stderr()
          .split('\n')
          .find((line) => line.includes('drift (field)')) ?? '';
      expect(drift).toContain('Rex\\u001b[2J\\u001b]0;owned\\u0007');
      expect(['\u001b', '\u0007', '\u009b'].filter((code) => cli.stderr().includes(code))).toEqual([]);
    } finally {
      await cli.stop();
      await echoing.close();
    }
  });
});
