/**
 * A web page on another origin, in a real Chromium, tries every way a page has to drive the mock's
 * admin (and a rebound host name, to reach its API): the mock's state survives all of them.
 */

import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';

const TEST = 'test/mock/browser-admin.test.ts';
const REBOUND = 'rebound.test';

describe.skipIf(skipWithoutChromium(TEST))('a page on another origin against the admin, in Chromium', () => {
  let mock: MockServer;
  let site: Server;
  let siteUrl: string;
  let browser: Browser;
  let stateFile: string;
  const log: string[] = [];

  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error(`CI=${process.env.CI}: ${chromiumMissing(TEST)}`);
    stateFile = join(await mkdtemp(join(tmpdir(), 'petstore-browser-')), 'pets.json');
    mock = await startMockServer({ port: 0, stateFile, onRequest: (line) => log.push(line) });
    const created = await fetch(`${mock.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Keep me","categoryId":1}' });
    expect(created.status).toBe(201);
    // The attacker's site: an empty page on localhost, another origin than the mock's 127.0.0.1.
    site = createServer((_, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>evil</title><iframe name="sink"></iframe>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await mock?.close();
  });

  it('refuses every request a page can make, so the state survives', async () => {
    const page = await browser.newPage();
    await page.goto(siteUrl);
    const admin = new URL('/__mock/', mock.url).href;
    const outcomes = await page.evaluate(async (base) => {
      const attempt = async (what: string, run: () => Promise<unknown>) => {
        try {
          const response = await run();
          return `${what}: ${response instanceof Response ? `${response.type} ${response.status}` : String(response)}`;
        } catch (error) {
          return `${what}: ${(error as Error).name}`;
        }
      };
      const results = [
        await attempt('simple POST', () => fetch(`${base}reset`, { method: 'POST' })),
        await attempt('text/plain POST', () => fetch(`${base}reset`, { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } })),
        await attempt('no-cors POST', () => fetch(`${base}reset`, { method: 'POST', mode: 'no-cors', body: 'x' })),
        await attempt('no-cors clock', () => fetch(`${base}clock`, { method: 'POST', mode: 'no-cors', body: '{"now":"2031-01-01T00:00:00Z"}' })),
        await attempt('JSON POST', () => fetch(`${base}reset`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })),
        await attempt('X-Mock-Admin POST', () => fetch(`${base}reset`, { method: 'POST', headers: { 'x-mock-admin': '1' } })),
        await attempt('DELETE', () => fetch(`${base}coverage`, { method: 'DELETE' })),
        await attempt('beacon', async () => navigator.sendBeacon(`${base}reset`, 'x')),
      ];
      // A form, the oldest way: it navigates a frame, so it needs no CORS at all.
      const form = document.createElement('form');
      Object.assign(form, { method: 'POST', action: `${base}reset`, enctype: 'text/plain', target: 'sink' });
      document.body.append(form);
      form.submit();
      return results;
    }, admin);

    expect(outcomes).toEqual([
      'simple POST: TypeError',
      'text/plain POST: TypeError',
      'no-cors POST: opaque 0',
      'no-cors clock: opaque 0',
      'JSON POST: TypeError',
      'X-Mock-Admin POST: TypeError',
      'DELETE: TypeError',
      'beacon: true',
    ]);
    // The requests did reach the mock (the browser alone stops none of them), and it refused each.
    const adminLines = () => log.filter((line) => line.includes('/__mock/')).map((line) => line.replace(/ [\d.]+ms.*$/, ''));
    // The beacon and the form go without waiting for an answer: wait for all nine (a hang's bound, not a speed's).
    await expect.poll(() => adminLines().length, { timeout: 15_000 }).toBe(9);
    // Five POSTs (fetch three ways, the beacon, the form) and the clock reached it; the preflights of the other three were refused.
    expect(adminLines().sort()).toEqual([
      'OPTIONS /__mock/coverage 403',
      'OPTIONS /__mock/reset 403',
      'OPTIONS /__mock/reset 403',
      'POST /__mock/clock 403',
      ...Array.from({ length: 5 }, () => 'POST /__mock/reset 403'),
    ]);
    expect(mock.mock.store.size).toBe(51);
    expect((await fetch(`${mock.url}/pets/1`, { headers: AUTH })).status).toBe(200);
    expect(await readFile(stateFile, 'utf8')).toContain('"Keep me"');
  });

  it('refuses a host name rebound to 127.0.0.1, on the API and on the admin', async () => {
    const page = await browser.newPage();
    const rebound = `http://${REBOUND}:${mock.port}`;
    const landing = await page.goto(`${rebound}/v1/pets`);
    expect(landing?.status()).toBe(403);
    const statuses = await page.evaluate(async () => [
      (await fetch('/v1/pets', { headers: { authorization: 'Bearer petstore-dev-key' } })).status,
      (await fetch('/__mock/reset', { method: 'POST', headers: { 'x-mock-admin': '1' } })).status,
    ]);
    expect(statuses).toEqual([403, 403]);
    expect(mock.mock.store.size).toBe(51);
  });
});
