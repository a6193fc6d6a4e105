/**
 * The mock's Error answers quote what a client sent (a `Content-Type`, a session name, a path, a
 * `Host`, an `Origin`), and so may quote a key the client put there: each host (the Node server, its
 * workers sharing Redis, MSW, the proxy) is sent the key in several encodings in every input an Error
 * names, and each Error must still name the input (the field and the fix) with the key in no encoding
 * (src/mock/core/keyless-errors.ts). Real processes on free ports, raw sockets for what fetch cannot
 * send (an absolute-form target, a `Host`); needs `dist/` and `redis-server`.
 */
import { connect } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { jsonUnicodeEscaped, keyEncodings, keysRevealed, percentEveryByte } from '../support/key-echoes.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const KEY = 'echo-key-Vb7Qw2Nz5Lx9';
const UPSTREAM_KEY = 'UpStreamSecret-998877';
const base64 = (text: string) => Buffer.from(text).toString('base64');

/** The key as a client may send it: as it is, in Basic's base64, every byte percent-encoded, as JSON `\u` escapes. */
const FORMS: Readonly<Record<string, string>> = {
  plain: KEY,
  'base64 of "u:" + key': base64(`u:${KEY}`),
  'percent every byte': percentEveryByte(KEY),
  'json \\u escapes': jsonUnicodeEscaped(KEY),
  hex: keyEncodings(KEY).hex ?? '',
};

/** One request that an Error answers, and a word the Error must still hold: what it names, so the client knows what to fix. */
interface Probe {
  readonly method: string;
  /** The request-target, path and query (or an absolute URL). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly names: string | RegExp;
  /** Whether only a raw socket can send it (an absolute-form target, a `Host` of its own). */
  readonly raw?: boolean;
  /** Whether only the mock answers it with an Error: the proxy forwards `X-Mock-Session` to no one, and the deployment serves the request. */
  readonly mockOnly?: boolean;
}

const bearer = { authorization: `Bearer ${KEY}` };
const json = { ...bearer, 'content-type': 'application/json' };

/** Every input an Error names, holding `form`. */
function probes(form: string): Probe[] {
  const segment = encodeURIComponent(form);
  return [
    { method: 'POST', target: '/v1/pets', headers: { ...bearer, 'content-type': `application/${form}` }, body: '{}', names: 'Content-Type' },
    { method: 'POST', target: '/v1/pets', headers: { ...bearer, 'content-type': `text/${form}` }, body: '{}', names: 'Content-Type' },
    { method: 'POST', target: '/v1/pets', headers: { ...json, 'content-type': `application/json; charset=${form}` }, body: '{}', names: 'charset' },
    { method: 'GET', target: '/v1/pets', headers: { ...bearer, 'x-mock-session': `${form}!` }, names: 'X-Mock-Session', mockOnly: true },
    { method: 'GET', target: `/v1/${segment}`, headers: bearer, names: /No operation is served|The request path/ },
    { method: 'GET', target: `/v1/pets?limit=${segment}`, headers: bearer, names: 'limit' },
    { method: 'GET', target: `/v1/pets/${segment}`, headers: bearer, names: /petId|The request path/ },
    { method: 'GET', target: '/v1/pets', headers: { ...bearer, prefer: `code=${form}` }, names: 'Prefer' },
    { method: 'POST', target: '/v1/pets', headers: json, body: JSON.stringify({ name: 'a', categoryId: form }), names: 'categoryId' },
    { method: 'GET', target: `http://u:${segment}@localhost/v1/pets`, headers: bearer, names: /No operation is served|The proxy forwards only/, raw: true },
    { method: 'GET', target: '/v1/pets', headers: { ...bearer, host: form }, names: 'Host', raw: true },
    {
      method: 'POST',
      target: '/__mock/reset',
      headers: { origin: `http://${form}.example`, 'content-type': 'text/plain' },
      body: '{}',
      names: 'Origin',
      raw: true,
    },
  ];
}

/** What an answer shows a client: its status and body. */
interface Seen {
  readonly status: number;
  readonly body: string;
}

/** Sends a probe over a raw socket to `port` (its `Host` unless it names one) and reads the answer whole. */
function sendRaw(port: number, probe: Probe): Promise<Seen> {
  const headers = { host: `127.0.0.1:${port}`, ...probe.headers, connection: 'close' };
  const body = probe.body ?? '';
  const lines = [`${probe.method} ${probe.target} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (probe.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(text.split(' ')[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

/** Each probe of each form sent by `send`: what every answer showed, by form and probe. */
async function answers(send: (probe: Probe) => Promise<Seen>, host: 'node' | 'proxy' | 'msw'): Promise<{ what: string; seen: Seen; probe: Probe }[]> {
  const all: { what: string; seen: Seen; probe: Probe }[] = [];
  const sent = (probe: Probe) => (host !== 'msw' || probe.raw !== true) && (host !== 'proxy' || probe.mockOnly !== true);
  for (const [name, form] of Object.entries(FORMS))
    for (const probe of probes(form).filter(sent))
      all.push({ what: `${name}: ${probe.method} ${probe.target} ${JSON.stringify(probe.headers)}`, seen: await send(probe), probe });
  return all;
}

/** Every answer was an Error that names its input, with the key in no encoding. */
function expectKeyless(seen: { what: string; seen: Seen; probe: Probe }[]): void {
  expect(seen.length).toBeGreaterThan(0);
  for (const { what, seen: answer, probe } of seen) {
    expect(answer.status, what).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(answer.body).status, what).toBe(answer.status);
    expect(answer.body, what).toMatch(probe.names);
    expect(keysRevealed(answer.body, [KEY]), `${what}: ${answer.body}`).toEqual([]);
  }
}

const running: RunningMock[] = [];
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(running.map((mock) => mock.stop()));
  await redis?.stop();
});

async function started(args: readonly string[]): Promise<RunningMock> {
  const mock = await startMockCli(['--port', '0', '--quiet', ...args]);
  running.push(mock);
  return mock;
}

const portOf = (mock: RunningMock) => Number(new URL(mock.url).port);

describe('an Error answer never quotes the key a client sent', () => {
  it('on the Node server', async () => {
    const mock = await started(['--api-key', KEY]);
    expectKeyless(await answers((probe) => sendRaw(portOf(mock), probe), 'node'));
  });

  it('on --workers 2 with --store redis', async () => {
    const mock = await started(['--api-key', KEY, '--workers', '2', '--store', redis.url, '--namespace', 'echoes']);
    expectKeyless(await answers((probe) => sendRaw(portOf(mock), probe), 'node'));
  });

  it('on --proxy: its own Errors, and those of the deployment it relays', async () => {
    const deployment = await started(['--api-key', KEY]);
    const proxy = await started(['--api-key', KEY, '--proxy', deployment.url]);
    expectKeyless(await answers((probe) => sendRaw(portOf(proxy), probe), 'proxy'));
  });

  it('on MSW', async () => {
    const baseUrl = 'https://api.example.test/v1';
    const server = setupServer(...createHandlers({ baseUrl, apiKey: KEY }));
    server.listen({ onUnhandledFrame: 'bypass' });
    try {
      const send = async (probe: Probe): Promise<Seen> => {
        const response = await fetch(new URL(probe.target, baseUrl), { method: probe.method, headers: probe.headers, body: probe.body ?? null });
        return { status: response.status, body: await response.text() };
      };
      expectKeyless(await answers(send, 'msw'));
    } finally {
      server.close();
    }
  });
});

describe("--proxy without --upstream-key, which relays the client's own key to the deployment", () => {
  it('hides that key in its own Errors, its request log and its journal, as the keys it knows', async () => {
    const deploymentKey = 'DeploymentKey-Hq3Zp7Wc';
    const deployment = await started(['--api-key', deploymentKey]);
    const proxy = await startMockCli(['--port', '0', '--proxy', deployment.url]);
    running.push(proxy);
    const authorization = `Bearer ${deploymentKey}`;
    const seen: string[] = [];
    for (const form of [deploymentKey, base64(`u:${deploymentKey}`)])
      for (const probe of [
        { method: 'GET', target: `http://u:${encodeURIComponent(form)}@localhost/v1/pets`, headers: { authorization }, names: '' },
        { method: 'GET', target: `/${encodeURIComponent(form)}/v1/pets`, headers: { authorization }, names: '' },
        { method: 'GET', target: '/v1/pets', headers: { authorization, host: `[${form}]` }, names: '' },
      ]) {
        const answer = await sendRaw(portOf(proxy), probe);
        expect(answer.status, probe.target).toBeGreaterThanOrEqual(400);
        seen.push(answer.body);
      }
    // Forwarded, and journalled: the journal keeps the request without the key.
    await fetch(`${proxy.url}/pets?limit=1&k=${deploymentKey}`, { headers: { authorization } });
    const journal = await (await fetch(new URL('/__mock/requests', proxy.url))).text();
    expect(journal).toContain('k=***');
    for (const [surface, text] of Object.entries({ answers: seen.join('\n'), log: proxy.stderr() + proxy.stdout(), journal }))
      expect(keysRevealed(text, [deploymentKey]), `${surface}: ${text}`).toEqual([]);
    expect(proxy.stderr()).toContain('GET /***/v1/pets 404');
  });
});

describe("a key in --proxy's URL", () => {
  it.each([
    ['as a path segment', `/${UPSTREAM_KEY}/v1`],
    ['in base64, as a path segment', `/v1/${base64(`u:${UPSTREAM_KEY}`)}`],
  ])('%s is in no line it prints and no 503 it answers a client holding only the mock key', async (_, path) => {
    // Port 9 (discard) has no listener here: every request fails to reach it, and the proxy says where it forwards.
    const proxy = await started(['--proxy', `http://127.0.0.1:9${path}`, '--upstream-key', UPSTREAM_KEY]);
    const response = await fetch(`${proxy.url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    const body = await response.text();
    expect(response.status).toBe(503);
    expect(body).toContain('--proxy http://127.0.0.1:9');
    for (const [surface, text] of Object.entries({ body, stdout: proxy.stdout(), stderr: proxy.stderr() }))
      expect(keysRevealed(text, [UPSTREAM_KEY]), `${surface}: ${text}`).toEqual([]);
  });
});
