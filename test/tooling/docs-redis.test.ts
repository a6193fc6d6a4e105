/**
 * docs/redis.md shows the files under examples/redis/ exactly, and the compose file's commands are
 * the ones the tests run: its mock command against a real Redis, its Redis flags those of the
 * durability tests. Needs `dist/` and Debian's redis-server.
 */
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startMockCli } from '../support/cli.js';
import { DURABLE_REDIS_ARGS, startRedis, type TestRedis } from '../support/redis.js';

const root = new URL('../../', import.meta.url);
const EXAMPLE = /<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)```/g;

interface Compose {
  services: Record<string, { command: string[] }>;
}

/** The status of a GET through node:http, which, unlike fetch, sends the Host it is given. */
function statusFor(base: string, path: string, headers: Record<string, string>): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end();
  });
}

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

describe('docs/redis.md', () => {
  it('shows every file of examples/redis exactly as it is', async () => {
    const page = await readFile(new URL('docs/redis.md', root), 'utf8');
    const shown = [...page.matchAll(EXAMPLE)].map(([, path, code]) => [path as string, code as string] as const);
    expect(shown.map(([path]) => path).sort()).toEqual(['examples/redis/docker-compose.yml', 'examples/redis/nginx.conf']);
    for (const [path, code] of shown)
      expect(code, `docs/redis.md shows ${path} differently: copy the file into it`).toBe(await readFile(new URL(path, root), 'utf8'));
  });

  it("has nginx pass on the client's Host, which the mock checks", async () => {
    expect(await readFile(new URL('examples/redis/nginx.conf', root), 'utf8')).toMatch(/^\s*proxy_set_header Host \$http_host;$/m);
  });

  it("runs the compose file's Redis with the durability flags the kill tests use", async () => {
    const compose = parse(await readFile(new URL('examples/redis/docker-compose.yml', root), 'utf8')) as Compose;
    expect(compose.services.redis?.command).toEqual(['redis-server', ...DURABLE_REDIS_ARGS]);
  });

  it("serves one state from two replicas started with the compose file's mock command", async () => {
    const compose = parse(await readFile(new URL('examples/redis/docker-compose.yml', root), 'utf8')) as Compose;
    const command = compose.services.mock?.command ?? [];
    // The same flags, on this machine: the test's Redis, a free port, loopback.
    const args = command
      .slice(command.indexOf('petstore-mock') + 1)
      .map((arg) => (arg === 'redis://redis:6379/0' ? redis.url : arg === '4010' ? '0' : arg === '0.0.0.0' ? '127.0.0.1' : arg));
    const [a, b] = await Promise.all([startMockCli([...args, '--quiet']), startMockCli([...args, '--quiet'])]);
    try {
      const headers = { authorization: 'Bearer ci-key', 'content-type': 'application/json' };
      const created = await fetch(`${a.url}/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      expect((await fetch(`${b.url}/pets/${id}`, { headers })).status).toBe(200);
      // What nginx passes on: the name clients reach it by, which the command allows; another name is refused.
      expect(args, 'the compose command allows the name clients use').toContain('--allowed-host');
      const name = args[args.indexOf('--allowed-host') + 1];
      expect(await statusFor(b.url, `/v1/pets/${id}`, { ...headers, host: `${name}:4010` })).toBe(200);
      expect(await statusFor(b.url, `/v1/pets/${id}`, { ...headers, host: 'mock' })).toBe(403);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
