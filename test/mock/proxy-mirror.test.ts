/**
 * The proxy's mirror of a deployment's pets (the shadow, src/mock/proxy/shadow.ts) is bounded in count
 * and bytes (issue 34): a deployment that lists a thousand pets never shown before on every read grew
 * the proxy without end. The real proxy in front of such a deployment, read over HTTP.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyServer, startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import { MAX_MIRRORED_BYTES, MAX_MIRRORED_PETS } from '../../src/mock/proxy/shadow.js';
import { type Deployment, json, serve } from '../support/deployments.js';
import { FULL_PAGE } from '../support/page-size.js';

/** Pets on each page the deployment lists, each new. */
const PAGE = 1_000;

let named = 'Rex';
let shown = 0;
let deployment: Deployment;
let proxy: ProxyServer;
beforeAll(async () => {
  deployment = await serve(async () =>
    json(
      200,
      Array.from({ length: PAGE }, () => ({ id: ++shown, name: named, categoryId: 1, status: 'available' })),
    ),
  );
  proxy = await startProxyServer({ upstream: deployment.url, port: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await deployment?.close();
});

/** Lists `pages` pages through the proxy, then the number of pets the shadow holds. */
async function mirroredAfter(pages: number): Promise<number> {
  const headers = { authorization: 'Bearer petstore-dev-key' };
  for (let page = 0; page < pages; page++) await (await fetch(`${proxy.url}/pets?${FULL_PAGE}`, { headers })).arrayBuffer();
  const health = (await (await fetch(`${new URL(proxy.url).origin}/__mock/health`)).json()) as { pets: number };
  return health.pets;
}

describe('the proxy mirrors a deployment’s pets within bounds', () => {
  it(`keeps at most the ${MAX_MIRRORED_PETS} pets shown most recently, however many it is shown`, async () => {
    expect(await mirroredAfter(5)).toBe(5 * PAGE);
    // Past the bound, the tenth shown least recently goes at once.
    const mirrored = await mirroredAfter(10);
    expect(mirrored).toBeLessThanOrEqual(MAX_MIRRORED_PETS);
    expect(mirrored).toBeGreaterThanOrEqual(MAX_MIRRORED_PETS * 0.9);
  });

  it(`holds at most ${MAX_MIRRORED_BYTES / 2 ** 20} MiB of them: pets of long names, fewer`, async () => {
    named = 'n'.repeat(2_000);
    const mirrored = await mirroredAfter(10);
    // Each counts 2 bytes a character of its name, ids and 100 more: some 4,100 bytes.
    expect(mirrored).toBeLessThanOrEqual(Math.floor(MAX_MIRRORED_BYTES / 4_100));
    expect(mirrored).toBeGreaterThan(1_000);
  });
});
