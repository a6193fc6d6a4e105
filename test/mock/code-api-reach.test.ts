/**
 * The code API's servers follow the CLI's rules of reach (src/mock/pipeline/server-reach.ts; red team 6, #1):
 * `startMockServer({ host: '0.0.0.0' })` once answered the network with the public key
 * `petstore-dev-key`, `startProxyServer` then handed its upstream key to anyone who sent it, and
 * `host: ''` bound every interface while `url` said 127.0.0.1; the CLI refused each with exit 2.
 * Each server is started as a user would, and reached over HTTP from this machine's network address.
 */
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, startProxyServer } from '../../src/index.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const DEFAULT_KEY = 'petstore-dev-key';
const UPSTREAM_KEY = 'UpstreamKey-1234567';

/** An IPv4 address of this machine other machines reach it by, when it has one (a container's eth0). */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;

let deployment: Deployment;
let upstreamAuthorizations: string[] = [];
beforeAll(async () => {
  deployment = await serve(async (request) => {
    upstreamAuthorizations.push(request.headers.get('authorization') ?? '');
    return Response.json([], { status: 200 });
  });
});
afterAll(() => deployment.close());

const FIX = 'give your own with apiKey (or apiKeys), or give allowDefaultKey: true if the default is meant.';
const PUBLIC_KEY_SENTENCE = `lets other machines reach the mock, and its default key ${DEFAULT_KEY} is public: ${FIX}`;

describe('the code API refuses what the CLI refuses, with the sentence naming the option', () => {
  it.each([
    ['0.0.0.0', `host 0.0.0.0 ${PUBLIC_KEY_SENTENCE}`],
    ['::', `host :: ${PUBLIC_KEY_SENTENCE}`],
    ['', 'host "": Expected an interface to bind: an IP address such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)'],
  ])('startMockServer and startProxyServer with host %j and no key of their own', async (host, sentence) => {
    await expect(startMockServer({ port: 0, host })).rejects.toThrow(sentence);
    await expect(startProxyServer({ port: 0, host, upstream: deployment.url, upstreamKey: UPSTREAM_KEY })).rejects.toThrow(sentence);
  });

  it('startMockServer and startProxyServer beyond loopback with the public default given as a key, named by its label only (ninth red team, #4)', async () => {
    const given = (which: string) =>
      `host 0.0.0.0 lets other machines reach the mock, and ${which} is the public default key, which anyone may read in the docs: ${FIX}`;
    await expect(startMockServer({ port: 0, host: '0.0.0.0', apiKeys: [{ label: 'ci', key: DEFAULT_KEY }] })).rejects.toThrow(given('the key labelled ci'));
    await expect(startMockServer({ port: 0, host: '0.0.0.0', apiKey: DEFAULT_KEY })).rejects.toThrow(given('a key it is given'));
    await expect(startMockServer({ port: 0, host: '0.0.0.0', apiKey: 'team-key-4711', apiKeys: [DEFAULT_KEY] })).rejects.toThrow(given('a key it is given'));
    await expect(
      startProxyServer({ port: 0, host: '0.0.0.0', upstream: deployment.url, upstreamKey: UPSTREAM_KEY, apiKeys: [{ label: 'lan', key: DEFAULT_KEY }] }),
    ).rejects.toThrow(given('the key labelled lan'));
    await expect(startMockServer({ port: 0, host: '0.0.0.0', allowDefaultKey: 'yes' as unknown as boolean })).rejects.toThrow(/allowDefaultKey/);
  });

  it.each([['-evil.com'], ['.'], ['evil.com/path']])('allowedHosts [%j], by the host rule of --allowed-host', async (name) => {
    const sentence = `allowedHosts ${JSON.stringify(name)}: Expected a host name such as mock.internal, without scheme, port or path.`;
    await expect(startMockServer({ port: 0, allowedHosts: [name] })).rejects.toThrow(sentence);
    await expect(startProxyServer({ port: 0, upstream: deployment.url, allowedHosts: [name] })).rejects.toThrow(sentence);
  });

  it('a key that is a label with nothing after it (ci: from ci:$CI_KEY unset), as --api-key refuses it', async () => {
    const sentence = 'apiKey, apiKeys: It is a label with no key after it: is the variable that should hold the key set? Give a key, as label:<key>.';
    await expect(startMockServer({ port: 0, apiKey: 'ci:' })).rejects.toThrow(sentence);
    await expect(startMockServer({ port: 0, apiKeys: ['ci:'] })).rejects.toThrow(sentence);
    await expect(startProxyServer({ port: 0, upstream: deployment.url, apiKeys: ['ci:'], upstreamKey: UPSTREAM_KEY })).rejects.toThrow(sentence);
    await expect(startProxyServer({ port: 0, upstream: deployment.url, upstreamKey: '' })).rejects.toThrow('upstreamKey: an API key cannot be empty');
  });

  it('the CLI says the same rule in its own words: --host "" and --host 0.0.0.0 without a key exit 2', async () => {
    const empty = await runCli('petstore-mock', ['--port', '0', '--host', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('Expected an interface to bind: an IP address such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)');
    const open = await runCli('petstore-mock', ['--port', '0', '--host', '0.0.0.0']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain(`--host 0.0.0.0 lets other machines reach the mock, and its default key ${DEFAULT_KEY} is public`);
  });
});

describe.runIf(lanAddress !== undefined)('beyond loopback with a key of its own, or the default one named', () => {
  it('the proxy on 0.0.0.0 answers the network only with its own key, and forwards the upstream key only then', async () => {
    const proxy = await startProxyServer({ port: 0, host: '0.0.0.0', upstream: deployment.url, upstreamKey: UPSTREAM_KEY, apiKeys: ['team-key-4711'] });
    try {
      upstreamAuthorizations = [];
      const url = `http://${lanAddress}:${proxy.port}/v1/pets`;
      expect((await fetch(url, { headers: { authorization: `Bearer ${DEFAULT_KEY}` } })).status).toBe(401);
      expect(upstreamAuthorizations).toEqual([]);
      expect((await fetch(url, { headers: { authorization: 'Bearer team-key-4711' } })).status).toBe(200);
      expect(upstreamAuthorizations).toEqual([`Bearer ${UPSTREAM_KEY}`]);
    } finally {
      await proxy.close();
    }
  });

  it('the mock on 0.0.0.0 with the default key said to be meant starts, as --allow-default-key does', async () => {
    const mock = await startMockServer({ port: 0, host: '0.0.0.0', apiKeys: [{ label: 'ci', key: DEFAULT_KEY }], allowDefaultKey: true });
    try {
      expect((await fetch(`http://${lanAddress}:${mock.port}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${DEFAULT_KEY}` } })).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
