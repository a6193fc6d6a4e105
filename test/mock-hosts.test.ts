import { createMockApi } from '../src/mock/handler.js';
import { startMockServer } from '../src/mock/server.js';
import { runHttpFacts, urlFor } from './support/http-facts.js';

runHttpFacts('the handler in process', async (options) => {
  const mock = createMockApi(options);
  const baseUrl = 'http://mock.test/v1';
  return {
    baseUrl,
    request: (path, init) => mock.fetch(new Request(urlFor(baseUrl, path), init)),
    reset: async () => mock.reset(),
    close: async () => {},
  };
});

runHttpFacts('the Node server on a free port', async (options) => {
  const server = await startMockServer({ ...options, port: 0 });
  return {
    baseUrl: server.url,
    request: (path, init) => fetch(urlFor(server.url, path), init),
    reset: async () => server.mock.reset(),
    close: () => server.close(),
  };
});
