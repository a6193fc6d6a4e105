/**
 * The surfaces the guarantees suite does not read, each read from outside for every encoding of a key
 * (test/support/key-echoes.ts): the inspector page as Chromium renders it, and under `--proxy` the
 * answers it relays, its drift log and report, and its `--record` file, for the upstream key a
 * deployment echoes and for the client's own `Basic` credential. Real processes on free ports; needs
 * `dist/` and, for the inspector, Chromium.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, skipWithoutChromium } from '../support/chromium.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';
import { jsonUnicodeEscaped, keyEncodings, keysRevealed, sendKeyEverywhere } from '../support/key-echoes.js';

const TEST = 'test/mock/key-surfaces.test.ts';
const KEY = 'surface-key-Qm7Zt2Wb9Xc4';
const UPSTREAM_KEY = 'upstream-key-Hv5Lr8Np3Ks6';
const PASSWORD = 'basic-password-Tq4Jw9Ye2Ru7';

let folder: string;
const running: RunningMock[] = [];
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'petstore-key-surfaces-'));
});
afterAll(async () => {
  await Promise.all(running.map((mock) => mock.stop()));
  await rm(folder, { recursive: true, force: true });
});

describe.skipIf(skipWithoutChromium(TEST))('the inspector page, as Chromium renders it', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error(chromiumMissing(TEST));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(() => browser?.close());

  it('shows the sessions and requests that carried the key in every encoding, and the key in none', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--api-key', KEY]);
    running.push(mock);
    await sendKeyEverywhere(mock.url, KEY, KEY);
    const page = await browser.newPage();
    await page.goto(new URL('/__mock/', mock.url).href);
    // The sessions named after the key are listed, hidden; the default session's requests are shown.
    await page.getByText('s-***-1').first().waitFor({ state: 'attached', timeout: 10_000 });
    await page.getByText('/v1/pets').first().waitFor({ state: 'attached', timeout: 10_000 });
    const shown = `${await page.content()}\n${await page.locator('body').textContent()}`;
    expect(keysRevealed(shown, [KEY])).toEqual([]);
  });
});

/**
 * A deployment that echoes the key of each request it gets (the Bearer token, or a Basic password) in
 * every encoding: as the names of the pets it lists and reads, in a header, and in a body that is not
 * JSON (which the proxy reports, quoting its start).
 */
function echoingDeployment(): Promise<Deployment> {
  return serve(async (request) => {
    const credential = request.headers.get('authorization') ?? '';
    const basic = /^Basic (.+)$/.exec(credential)?.[1];
    const secret =
      basic === undefined
        ? credential.replace(/^Bearer /, '')
        : Buffer.from(basic, 'base64')
            .toString()
            .replace(/^[^:]*:/, '');
    const names = Object.entries(keyEncodings(secret)).map(([name, form]) => `${name}: ${form}`);
    const headers = { 'content-type': 'application/json', 'x-echo': names.join('; ').replace(/[^\x20-\x7e]/g, '') };
    const path = new URL(request.url).pathname;
    if (path === '/v1/pets') return new Response(JSON.stringify(names.map((name, i) => ({ id: i + 1, name, categoryId: 1 }))), { headers });
    if (path === '/v1/pets/1') return new Response(JSON.stringify({ id: 1, name: names.join(' '), categoryId: 1 }), { headers });
    // A body that is not JSON, the secret placed where a report's excerpt of it (120 characters) ends.
    if (path === '/v1/pets/3') return new Response(`${'x'.repeat(60)}${jsonUnicodeEscaped(secret)}`, { headers: { 'content-type': 'text/plain' } });
    if (path === '/v1/pets/4') return new Response(`${'x'.repeat(100)}${secret}`, { headers: { 'content-type': 'text/plain' } });
    return new Response(`not JSON; ${names.join('; ')}`, { headers });
  });
}

/**
 * Every run of 6 characters of `secret` that holds a digit (so not a word of a log line, `upstream`), as it
 * is and JSON-escaped: what an excerpt cut inside the secret would keep.
 */
function pieces(secret: string): string[] {
  const runs = Array.from({ length: secret.length - 5 }, (_, start) => secret.slice(start, start + 6)).filter((run) => /[0-9]/.test(run));
  return runs.flatMap((run) => [run, jsonUnicodeEscaped(run)]);
}

describe('--proxy: a deployment that echoes the key it gets', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await echoingDeployment();
  });
  afterAll(() => deployment?.close());

  /** What a client of the proxy at `url` sees of each path, answers and headers. */
  async function relayed(url: string, headers: Record<string, string>): Promise<string> {
    const seen: string[] = [];
    for (const path of ['/pets', '/pets/1', '/pets/2', '/pets/3', '/pets/4']) {
      const response = await fetch(`${url}${path}`, { headers });
      seen.push(`${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`);
    }
    return seen.join('\n');
  }

  it.each([
    ['the upstream key (--upstream-key)', UPSTREAM_KEY, ['--upstream-key', UPSTREAM_KEY], { authorization: `Bearer ${KEY}` }],
    ["the client's own Basic password", PASSWORD, [], { authorization: `Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}` }],
  ])('%s reaches no answer it relays, no line of its drift log or report, and no --record file', async (_, secret, flags, headers) => {
    const file = join(folder, `${secret.slice(0, 5)}.json`);
    const proxy = await startMockCli(['--port', '0', '--api-key', KEY, '--proxy', deployment.url, ...flags, '--record', file]);
    running.push(proxy);
    const answers = await relayed(proxy.url, headers);
    const report = await (await fetch(new URL('/__mock/drift', proxy.url))).text();
    const journal = await (await fetch(new URL('/__mock/requests', proxy.url))).text();
    const recorded = await readFile(file, 'utf8');
    // What the deployment echoed reached every surface, with the secret hidden.
    expect(answers).toContain('percent every byte: ***');
    expect(recorded).toContain('percent every byte: ***');
    expect(report).toContain('***');
    for (const [surface, text] of Object.entries({ answers, report, journal, recorded, log: proxy.stderr() + proxy.stdout() })) {
      expect(keysRevealed(text, [secret, KEY]), surface).toEqual([]);
      // Hidden before it is cut: no excerpt keeps a part of the key the redactor no longer knows.
      expect(
        pieces(secret).filter((piece) => text.includes(piece)),
        surface,
      ).toEqual([]);
    }
  });
});
