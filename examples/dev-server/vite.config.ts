import { type MockServer, startMockServer } from 'petstore-mock';
import { defineConfig, type Plugin } from 'vite';

/** In `vite` (dev), starts the pet store mock on a free port and proxies /v1 to it. */
function petstoreMock(): Plugin {
  let mock: MockServer | undefined;
  return {
    name: 'petstore-mock',
    apply: 'serve',
    async config() {
      mock = await startMockServer({ port: 0 });
      return { server: { proxy: { '/v1': new URL(mock.url).origin } } };
    },
    configureServer(server) {
      server.httpServer?.once('close', () => void mock?.close());
    },
  };
}

export default defineConfig({ plugins: [petstoreMock()] });
