/**
 * What a deployment sends through `--proxy` is data, never a page of the mock's origin (issue 34),
 * attacked as a hostile deployment would: its answer names hop-by-hop headers, grants CORS of its
 * own, sets cookies, serves an HTML page with a script (a framework's 404 echoing the path), and
 * names a pet with terminal escape codes. Seen over raw sockets, in a real Chromium that opens a link
 * to the proxy, and on the terminal of the real CLI.
 */
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyServer, startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { startMockCli } from '../support/cli.js';
import type { Deployment } from '../support/deployments.js';
import { ACTING_CHARACTERS, DROPPED_FIELDS, HOSTILE_PAGE, hostileOriginDeployment, TERMINAL_ESCAPES } from '../support/hostile-origin.js';
import { pipeline, rawRequest } from '../support/raw-http.js';

let deployment: Deployment;
let proxy: ProxyServer;
beforeAll(async () => {
  deployment = await hostileOriginDeployment();
  proxy = await startProxyServer({ upstream: deployment.url, port: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await deployment?.close();
});

describe('the proxy relays a deployment’s answer as data', () => {
  it('relays only what the spec documents for the answer and what HTTP needs to read it: no connection field (RFC 9110 7.6.1), CORS, cookie, report, policy or Basic challenge of the deployment', async () => {
    const wire = await pipeline(proxy.port, [rawRequest('GET', '/v1/pets/7', ['Authorization: Bearer petstore-dev-key', 'Connection: close'])]);
    const [relayed] = wire.responses;
    expect(relayed?.status).toBe(404);
    const headers = relayed?.headers ?? {};
    for (const name of DROPPED_FIELDS) expect(headers, name).not.toHaveProperty(name);
    // The proxy's own connection header, for its own connection: the client asked to close it.
    expect(headers.connection).toBe('close');
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(headers['access-control-expose-headers']).not.toMatch(/X-Hop-Secret/i);
    // An allow-list: besides the proxy's own fields, only what HTTP needs to read the body (the spec documents none for a 404).
    expect(
      Object.keys(headers).filter(
        (name) => !/^(access-control-|x-content-type-options$|content-security-policy$|content-length$|date$|connection$|x-contract-violation$)/.test(name),
      ),
    ).toEqual(['content-type']);
  });

  it('relays a URI reference only when it names a resource of the API, as the proxy’s path: never a redirect elsewhere', async () => {
    const wire = await pipeline(proxy.port, [
      rawRequest(
        'POST',
        '/v1/pets',
        ['Authorization: Bearer petstore-dev-key', 'Content-Type: application/json', 'Connection: close'],
        '{"name":"Rex","categoryId":1}',
      ),
    ]);
    expect(wire.responses[0]?.status).toBe(201);
    expect(wire.responses[0]?.headers.location).toBe('/v1/pets/1');
    expect(wire.responses[0]?.headers).not.toHaveProperty('link');
  });

  it('marks it data: X-Content-Type-Options: nosniff and Content-Security-Policy: sandbox, over the deployment’s own policy', async () => {
    const wire = await pipeline(proxy.port, [rawRequest('GET', '/v1/pets/7', ['Connection: close'])]);
    expect(wire.responses[0]?.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' });
    expect(wire.responses[0]?.body.toString()).toBe(HOSTILE_PAGE);
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

describe('a deployment’s text on the terminal of petstore-mock --proxy', () => {
  it('is shown with its control characters escaped: no ESC or BEL reaches the terminal', async () => {
    // The deployment names every pet it creates with escape codes: the proxy's drift line quotes that name.
    const cli = await startMockCli(['--proxy', deployment.url, '--port', '0']);
    try {
      const created = await fetch(`${cli.url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ name: `Rex${TERMINAL_ESCAPES}` });
      await expect.poll(() => cli.stderr(), { timeout: 10_000 }).toMatch(/drift \(field\)/);
      const drift =
        cli
          .stderr()
          .split('\n')
          .find((line) => line.includes('drift (field)')) ?? '';
      expect(drift).toContain('Rex\\u001b[2J\\u001b]0;owned\\u0007');
      expect(ACTING_CHARACTERS.filter((code) => cli.stderr().includes(code))).toEqual([]);
    } finally {
      await cli.stop();
    }
  });
});
