/**
 * The README's snippets are the files under examples/, shown whole; this suite checks that the
 * README shows each file exactly and runs the ones no other suite runs. examples/vitest,
 * examples/fixtures, examples/sessions and examples/big-ids are test files that vitest runs itself;
 * test/browser.test.ts runs examples/browser.
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { describe, expect, it } from 'vitest';
import devServerConfig from '../examples/dev-server/vite.config.js';
import globalSetup from '../examples/global-setup/global-setup.js';
import { pets } from '../src/fixtures/index.js';
import { AUTH } from './support/http-facts.js';

const root = new URL('../', import.meta.url);
const EXAMPLE = /<!-- example: (\S+) -->\n```\w*\n([\s\S]*?)```/g;

describe('README', () => {
  it('shows every example file exactly as it is, so that the snippets are the code the tests run', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8');
    const shown = [...readme.matchAll(EXAMPLE)].map(([, path, code]) => [path as string, code as string] as const);
    expect(shown.map(([path]) => path).sort()).toEqual([
      'examples/big-ids/client.test.ts',
      'examples/browser/mocks.ts',
      'examples/dev-server/vite.config.ts',
      'examples/fixtures/fixtures.test.ts',
      'examples/global-setup/global-setup.ts',
      'examples/sessions/workers.test.ts',
      'examples/vitest/pets.test.ts',
    ]);
    for (const [path, code] of shown)
      expect(code, `README.md shows ${path} differently: copy the file into it`).toBe(await readFile(new URL(path, root), 'utf8'));
  });
});

describe('examples', () => {
  it('dev-server: vite serves the app and proxies /v1 to the mock, which stops with the dev server', async () => {
    const server = await createServer({
      ...devServerConfig,
      configFile: false,
      root: fileURLToPath(new URL('examples/dev-server/', root)),
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, watch: null },
    });
    await server.listen();
    const address = server.httpServer?.address() as AddressInfo | undefined;
    const response = await fetch(`http://127.0.0.1:${address?.port}/v1/pets`, { headers: AUTH });
    expect(await response.json()).toEqual(pets.slice(0, 20));
    const mockOrigin = server.config.server.proxy?.['/v1'] as string;
    await server.close();
    await expect(fetch(`${mockOrigin}/v1/pets`, { headers: AUTH })).rejects.toThrow();
  });

  it('global-setup: starts the mock for the run, publishes its URL, and stops it on teardown', async () => {
    const before = process.env.PETSTORE_URL;
    const teardown = await globalSetup();
    const url = process.env.PETSTORE_URL as string;
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(await (await fetch(`${url}/pets`, { headers: AUTH })).json()).toEqual(pets.slice(0, 20));
    } finally {
      await teardown();
      if (before === undefined) delete process.env.PETSTORE_URL;
      else process.env.PETSTORE_URL = before;
    }
    await expect(fetch(`${url}/pets`, { headers: AUTH })).rejects.toThrow();
  });
});
