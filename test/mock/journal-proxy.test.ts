/**
 * The request journal under `--proxy` (docs/mock-journal.md), over real HTTP in front of a real
 * deployment (a mock server that holds its own key): what the proxy forwarded is journalled with the
 * deployment's status, what it answered itself with its own rule; `GET /__mock/requests` filters and
 * clears as the mock's does; the ring is bounded; and neither the client's key nor the upstream key
 * appears in any entry, in any encoding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { type ProxyOptions, type ProxyServer, startProxyServer } from '../../src/mock/proxy/proxy-server.js';
import type { JournalEntry, JournalPage } from '../../src/mock/state/journal.js';
import { type RunningMock, startMockCli } from '../support/cli.js';

/** Keys with every character an encoding changes: `"` and `\` (JSON), `+`, `/`, `=` (percent, base64). */
const CLIENT_KEY = 'cl"ient\\k+y/=';
const UPSTREAM_KEY = 'up"str\\eam+k/y=9';
const CLIENT = { authorization: `Bearer ${CLIENT_KEY}` };
const JSON_CLIENT = { ...CLIENT, 'content-type': 'application/json' };

/** Every form a key could be written in that the request log hides: none may appear in the journal. */
function formsOf(key: string): string[] {
  const base64 = Buffer.from(key).toString('base64');
  return [
    key,
    encodeURIComponent(key),
    encodeURIComponent(encodeURIComponent(key)),
    base64,
    base64.replace(/=+$/, ''),
    base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
    JSON.stringify(key).slice(1, -1),
  ];
}

let deployment: MockServer;
beforeAll(async () => {
  // A deployment that takes a moment over each response: the journal's latency must count it.
  deployment = await startMockServer({ port: 0, apiKeys: [UPSTREAM_KEY], delay: 30, count: 5 });
});
afterAll(() => deployment?.close());

/** A proxy in front of the deployment, holding the upstream key, with the client's key labelled `ci`. */
async function withProxy(options: Partial<ProxyOptions>, body: (proxy: ProxyServer, origin: string) => Promise<void>): Promise<void> {
  const proxy = await startProxyServer({ upstream: deployment.url, upstreamKey: UPSTREAM_KEY, apiKeys: [{ label: 'ci', key: CLIENT_KEY }], ...options });
  try {
    await body(proxy, new URL(proxy.url).origin);
  } finally {
    await proxy.close();
  }
}

async function journal(origin: string, query = '', headers: Record<string, string> = {}): Promise<JournalPage> {
  const response = await fetch(`${origin}/__mock/requests${query}`, { headers });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as JournalPage;
}

const line = ({ method, path, status, operation, rule }: JournalEntry) => `${method} ${path} ${status} ${operation} ${rule}`;

describe('petstore-mock --proxy: the request journal', () => {
  it("journals each forwarded request with the deployment's status, and what the proxy answered itself by its own rule", () =>
    withProxy({}, async (proxy, origin) => {
      deployment.mock.clearRequests();
      const pet = JSON.stringify({ name: 'Rex', categoryId: 1 });
      await fetch(`${proxy.url}/pets?limit=2`, { headers: { ...CLIENT, accept: 'application/json' } });
      await fetch(`${proxy.url}/pets/999999`, { headers: CLIENT });
      await fetch(`${proxy.url}/pets`, { method: 'POST', headers: JSON_CLIENT, body: pet });
      await fetch(`${proxy.url}/pets`, { headers: { ...CLIENT, prefer: 'code=503' } });
      await fetch(`${proxy.url}/pets`);
      await fetch(`${proxy.url}/pets`, { headers: { ...CLIENT, origin: 'https://evil.example' } });
      await fetch(`${origin}/elsewhere`, { headers: CLIENT });
      await fetch(`${origin}/__mock/health`);
      const { entries, last } = await journal(origin);
      expect(entries.map(line)).toEqual([
        'GET /v1/pets 200 listPets forwarded',
        'GET /v1/pets/999999 404 getPet forwarded',
        'POST /v1/pets 201 createPet forwarded',
        'GET /v1/pets 503 listPets prefer',
        'GET /v1/pets 401 listPets auth',
        'GET /v1/pets 403 listPets auth',
        'GET /elsewhere 404 null route',
      ]);
      const [list, , create] = entries as [JournalEntry, JournalEntry, JournalEntry];
      expect(list).toMatchObject({ session: 'default', query: 'limit=2', headers: { authorization: 'Bearer ***', accept: 'application/json' }, key: 'ci' });
      expect(list.body).toBeUndefined();
      expect(create).toMatchObject({ body: pet, headers: { 'content-type': 'application/json' } });
      // The deployment's 30 ms are the client's wait, and the journal's latency.
      expect(list.latencyMs).toBeGreaterThanOrEqual(30);
      expect(last).toBe(entries.at(-1)?.id);
      // What the proxy answered itself never reached the deployment.
      expect((await deployment.mock.requests()).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
        'GET /v1/pets 200',
        'GET /v1/pets/999999 404',
        'POST /v1/pets 201',
      ]);
    }));

  it('never shows the client key or the upstream key: not in the path, the query, the body, a header or the session, in any encoding', () =>
    withProxy({}, async (proxy, origin) => {
      const keys = [CLIENT_KEY, UPSTREAM_KEY];
      const forms = (key: string) => {
        const base64 = Buffer.from(key).toString('base64');
        // base64url without padding: a word an X-Mock-Session may be, and so a session the journal names.
        return { raw: key, percent: encodeURIComponent(key), base64, word: base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '') };
      };
      const [client, upstream] = [forms(CLIENT_KEY), forms(UPSTREAM_KEY)];
      await fetch(`${proxy.url}/pets?token=${client.percent}&up=${upstream.percent}&b=${client.base64}&c=${upstream.base64}`, { headers: CLIENT });
      await fetch(`${proxy.url}/pets/${encodeURIComponent(upstream.percent)}`, { headers: CLIENT });
      await fetch(`${proxy.url}/pets/${client.percent}`, { headers: CLIENT });
      const body = JSON.stringify({ name: CLIENT_KEY, categoryId: 1, note: UPSTREAM_KEY, b: upstream.base64 });
      await fetch(`${proxy.url}/pets`, { method: 'POST', headers: JSON_CLIENT, body });
      await fetch(`${proxy.url}/pets`, {
        method: 'POST',
        headers: { ...CLIENT, 'content-type': `application/json; k=${upstream.percent}`, prefer: `code=${upstream.percent}`, 'x-mock-session': upstream.word },
        body,
      });
      await fetch(`${proxy.url}/pets`, { headers: { authorization: `Bearer ${UPSTREAM_KEY}` } });
      await fetch(`${proxy.url}/pets`, { headers: { ...CLIENT, accept: `application/json; q=${client.base64}`, 'x-mock-session': client.word } });
      // The page names the session it was asked for; the entries are what the proxy kept.
      const sessions = [undefined, upstream.word, client.word];
      const pages = await Promise.all(sessions.map((session) => journal(origin, '', session === undefined ? {} : { 'x-mock-session': session })));
      const entries = pages.flatMap((page) => page.entries);
      expect(pages.map((page) => page.entries.length)).toEqual([5, 1, 1]);
      const text = JSON.stringify(entries);
      for (const key of keys) for (const form of formsOf(key)) expect(text, form).not.toContain(form);
      expect(text).toContain('***');
    }));

  it('filters by method, path pattern, status or class, operation and since, and clears on DELETE and on reset', () =>
    withProxy({}, async (proxy, origin) => {
      await fetch(`${proxy.url}/pets?limit=1`, { headers: CLIENT });
      await fetch(`${proxy.url}/pets/1`, { headers: CLIENT });
      await fetch(`${proxy.url}/pets/999999`, { headers: CLIENT });
      await fetch(`${proxy.url}/pets`, { method: 'POST', headers: JSON_CLIENT, body: '{"name":"Rex","categoryId":1}' });
      await fetch(`${proxy.url}/pets`, { headers: { ...CLIENT, 'x-mock-session': 'alice' } });
      const shown = async (query: string) => (await journal(origin, query)).entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
      expect(await shown('?method=post')).toEqual(['POST /v1/pets 201']);
      expect(await shown('?path=/v1/pets/*')).toEqual(['GET /v1/pets/1 200', 'GET /v1/pets/999999 404']);
      expect(await shown('?status=4xx')).toEqual(['GET /v1/pets/999999 404']);
      expect(await shown('?status=200&operation=getPet')).toEqual(['GET /v1/pets/1 200']);
      const all = (await journal(origin)).entries;
      expect((await journal(origin, `?since=${all[1]?.id}`)).entries).toEqual(all.slice(2));
      expect((await journal(origin, '', { 'x-mock-session': 'alice' })).entries.map((entry) => entry.session)).toEqual(['alice']);
      const bad = await fetch(`${origin}/__mock/requests?status=teapot`);
      expect([bad.status, await bad.text()]).toEqual([400, expect.stringMatching(/status must be a status such as 404/)]);

      const cleared = await fetch(`${origin}/__mock/requests`, { method: 'DELETE', headers: { 'x-mock-session': 'alice' } });
      expect(cleared.status).toBe(200);
      expect((await journal(origin, '', { 'x-mock-session': 'alice' })).entries).toEqual([]);
      expect((await journal(origin)).entries).toHaveLength(4);
      expect((await fetch(`${origin}/__mock/reset`, { method: 'POST' })).status).toBe(200);
      expect((await journal(origin)).entries).toEqual([]);
    }));

  it('keeps the last journalSize requests, cuts a body at journalBodyLimit, and is guarded as every admin endpoint', () =>
    withProxy({ journalSize: 3, journalBodyLimit: 12 }, async (proxy, origin) => {
      for (let limit = 1; limit <= 5; limit++) await fetch(`${proxy.url}/pets?limit=${limit}`, { headers: CLIENT });
      await fetch(`${proxy.url}/pets`, { method: 'POST', headers: JSON_CLIENT, body: `{"name":"${'R'.repeat(40)}","categoryId":1}` });
      const { entries, last } = await journal(origin);
      expect(entries.map((entry) => entry.query)).toEqual(['limit=4', 'limit=5', '']);
      expect(entries.map((entry) => entry.id)).toEqual([last - 2, last - 1, last]);
      expect(entries[2]).toMatchObject({ body: '{"name":"RRR', bodyTruncated: true });
      expect((await fetch(`${origin}/__mock/requests`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    }));

  it('keeps none with journalSize 0: GET /__mock/requests is the 404 that says so', () =>
    withProxy({ journalSize: 0 }, async (proxy, origin) => {
      await fetch(`${proxy.url}/pets`, { headers: CLIENT });
      const response = await fetch(`${origin}/__mock/requests`);
      expect([response.status, await response.text()]).toEqual([404, expect.stringMatching(/journal is off/)]);
    }));
});

describe('petstore-mock --proxy: the journal flags', () => {
  const running: RunningMock[] = [];
  afterAll(() => Promise.all(running.map((mock) => mock.stop())));

  it('--journal-size bounds the journal and --no-journal turns it off', async () => {
    const started = await Promise.all(
      [['--journal-size', '1'], ['--no-journal']].map((flags) =>
        startMockCli(['--proxy', deployment.url, '--upstream-key', UPSTREAM_KEY, '--api-key', CLIENT_KEY, ...flags, '--port', '0', '--quiet']),
      ),
    );
    running.push(...started);
    const [bounded, off] = started as [RunningMock, RunningMock];
    for (const mock of started) for (const path of ['/pets/1', '/pets/2']) await fetch(`${mock.url}${path}`, { headers: CLIENT });
    const admin = (mock: RunningMock) => fetch(`${new URL(mock.url).origin}/__mock/requests`, { headers: CLIENT });
    const page = (await (await admin(bounded)).json()) as JournalPage;
    expect(page.entries.map(line)).toEqual(['GET /v1/pets/2 200 getPet forwarded']);
    expect((await admin(off)).status).toBe(404);
  });
});
