import { type MockServer, startMockServer } from 'petstore-mock';
import { defineConfig, type Plugin } from 'vite';

/**
 * In `vite` (dev), starts the pet store mock on a free port and proxies the API (/v1) and its admin
 * endpoints (/__mock) to it; the mock stops when the dev server closes. Vitest reads this file too:
 * under it (mode `test`) the plugin does nothing, so `vitest run` neither starts nor waits for a mock.
 */
export function petstoreMock(): Plugin {
  let mock: MockServer | undefined;
  const stop = async () => {
    const running = mock;
    mock = undefined;
    await running?.close();
  };
  return {
    name: 'petstore-mock',
    apply: (_config, env) => env.command === 'serve' && env.mode !== 'test' && !process.env.VITEST,
    async config() {
      mock = await startMockServer({ port: 0 });
      const origin = new URL(mock.url).origin;
      return { server: { proxy: { '/v1': origin, '/__mock': origin } } };
    },
    // The dev server's close() ends with closeBundle, with or without an HTTP server of its own (middleware mode).
    closeBundle: stop,
  };
}

export default defineConfig({ plugins: [petstoreMock()] });
