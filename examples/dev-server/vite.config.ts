import { type MockServer, startMockServer } from 'petstore-mock';
import { defineConfig, type Plugin } from 'vite';

/** In `vite` (dev), starts the pet store mock on a free port and proxies the API (/v1) and its admin endpoints (/__mock) to it. */
function petstoreMock(): Plugin {
  let mock: MockServer | undefined;
  return {
    name: 'petstore-mock',
    apply: 'serve',
    async config() {
      mock = await startMockServer({ port: 0 });
      const origin = new URL(mock.url).origin;
      return { server: { proxy: { '/v1': origin, '/__mock': origin } } };
    },
    configureServer(server) {
      server.httpServer?.once('close', () => void mock?.close());
    },
  };
}

export default defineConfig({ plugins: [petstoreMock()] });
