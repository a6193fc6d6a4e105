// A file of its own: MSW patches this worker's global fetch while a target is open.
import { setupServer } from 'msw/node';
import { createHandlers } from '../src/mock/msw.js';
import { runHttpFacts, urlFor } from './support/http-facts.js';

runHttpFacts('MSW handlers in setupServer', async (options) => {
  const baseUrl = 'https://api.example.test/v1';
  const api = createHandlers({ ...options, baseUrl });
  const server = setupServer(...api);
  server.listen({ onUnhandledRequest: 'error' });
  return {
    baseUrl,
    request: (path, init) => fetch(urlFor(baseUrl, path), init),
    reset: async () => api.reset(),
    close: async () => server.close(),
  };
});
