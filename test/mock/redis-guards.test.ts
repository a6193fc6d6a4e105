/**
 * The Node server's guards hold with the state in Redis as they do in memory: a Host it does not
 * serve, admin requests a page on another origin could send, no CORS on the admin's answers (its 503
 * while Redis is away too), and the public default key refused beyond loopback before any worker forks.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { runCli } from '../support/cli.js';
import { ADMIN, KEY } from '../support/http-facts.js';
import { keysRevealed } from '../support/key-echoes.js';
import { monitored, startRedis, type TestRedis } from '../support/redis.js';

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: { readonly message?: string } | undefined;
}

/** A request through node:http, which, unlike fetch, sends the Host and Origin it is given. */
function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ port, host: '127.0.0.1', method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) }));
    });
    request.on('error', reject);
    request.end();
  });
}

let redis: TestRedis;
let server: MockServer;
const host = () => `127.0.0.1:${server.port}`;

beforeAll(async () => {
  redis = await startRedis();
  server = await startMockServer({ port: 0, store: redis.url, namespace: 'guards' });
});
afterAll(async () => {
  await server.close();
  await redis.stop();
});

describe('a mock with its state in Redis', () => {
  it('refuses a Host it does not serve, on the API and on the admin', async () => {
    const api = await send(server.port, 'GET', '/v1/pets?limit=1', { host: 'attacker.example', authorization: `Bearer ${KEY}` });
    expect(api.status).toBe(403);
    expect(api.body?.message).toMatch(/does not serve the host/);
    expect((await send(server.port, 'POST', '/__mock/reset', { host: 'attacker.example', ...ADMIN })).status).toBe(403);
  });

  it('refuses admin requests a page on another origin could send, and answers its own without CORS', async () => {
    const forged = await send(server.port, 'POST', '/__mock/reset', { host: host(), origin: 'https://evil.example', ...ADMIN });
    expect(forged.status).toBe(403);
    expect(forged.headers['access-control-allow-origin']).toBeUndefined();
    // Issue 23, by design: without Origin, only a write Sec-Fetch-Site marks as another site's is a page's.
    const unmarked = await send(server.port, 'POST', '/__mock/reset', { host: host(), 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' });
    expect(unmarked.status).toBe(403);
    const script = await send(server.port, 'POST', '/__mock/reset', { host: host(), ...ADMIN });
    expect(script.status).toBe(200);
    expect(script.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers the admin 503 without CORS while Redis is away, and the API 503 with it', async () => {
    await redis.kill();
    try {
      const admin = await send(server.port, 'GET', '/__mock/health', { host: host() });
      expect(admin.status).toBe(503);
      expect(admin.body?.message).toMatch(/Redis/);
      expect(Object.keys(admin.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      const api = await send(server.port, 'GET', '/v1/pets?limit=1', { host: host(), authorization: `Bearer ${KEY}` });
      expect(api.status).toBe(503);
      expect(api.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await redis.restart();
    }
    await expect.poll(async () => (await send(server.port, 'GET', '/__mock/health', { host: host() })).status, { timeout: 10_000 }).toBe(200);
  });
});

describe('a session named after the key, with its state in Redis', () => {
  it('reaches Redis as a digest only: no key name, registry member, script argument or message holds any form of it (MONITOR)', async () => {
    const key = 'session-key-Zq8Wm3Rt6Yp1';
    const mock = await startMockServer({ port: 0, store: redis.url, namespace: 'named', apiKey: key });
    const names = [key, `s-${key}-1`, Buffer.from(`u:${key}`).toString('base64url'), Buffer.from(key).toString('hex')];
    const origin = `http://127.0.0.1:${mock.port}`;
    let listed = '';
    try {
      const commands = await monitored(redis, async () => {
        for (const name of names) {
          const headers = { authorization: `Bearer ${key}`, 'x-mock-session': name };
          await (await fetch(`${origin}/v1/pets?limit=1`, { headers })).text();
          await (
            await fetch(`${origin}/v1/pets`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: '{"name":"Rex","categoryId":1}',
            })
          ).text();
          await (
            await fetch(`${origin}/__mock/clock`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: '{"now":"2031-01-01T00:00:00Z"}',
            })
          ).text();
        }
        listed = await (await fetch(`${origin}/__mock/sessions`)).text();
        await (await fetch(`${origin}/__mock/sessions/${names[1]}/reset`, { method: 'POST' })).text();
        await (await fetch(`${origin}/__mock/sessions/${names[2]}`, { method: 'DELETE' })).text();
      });
      expect(commands.some((line) => line.includes('named:s:@'))).toBe(true);
      expect(keysRevealed(commands.join('\n'), [key])).toEqual([]);
      // The list still names each session, as the admin shows it: the key hidden.
      const shown = (JSON.parse(listed) as { sessions: { name: string; pets: number }[] }).sessions;
      expect(shown.map((session) => session.name).sort()).toEqual(['***', '***', 'dTp***', 's-***-1']);
      expect(shown.every((session) => session.pets === 51)).toBe(true);
    } finally {
      await mock.close();
    }
  });
});

describe('petstore-mock --store beyond loopback', () => {
  it('refuses the public default key with --workers before it forks a worker (exit 2)', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--host', '0.0.0.0', '--workers', '2', '--store', redis.url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--allow-default-key/);
    expect(result.stdout).toBe('');
  });
});

describe('petstore-mock --store names one database, exactly', () => {
  it.each([
    ['a database the server does not have', '/99999', /has no database 99999 \(ERR DB index is out of range\); pass a --store URL/],
    ['a database written with a sign', '/-0', /--store <url>.*plain digits such as \/2.*got "\/-0"/],
    ['a database in hex', '/0x1', /--store <url>.*got "\/0x1"/],
    ['a database with an exponent', '/1e1', /--store <url>.*got "\/1e1"/],
  ])('exits 2 for %s, before it listens or writes to database 0', async (_, path, message) => {
    const result = await runCli('petstore-mock', ['--port', '0', '--store', `${redis.url}${path}`]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('exits 2 for a URL without a host', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--store', 'redis://']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--store <url>.*must name the host .*such as redis:\/\/127\.0\.0\.1:6379/);
  });
});
