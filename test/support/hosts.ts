/**
 * The hosts of the one handler as suite targets: in process, the Node server on a free port, and MSW's
 * `setupServer`. MSW patches the global fetch of its worker while a target is open, so a suite runs
 * `mswHost` in a file of its own.
 */
import { setupServer } from 'msw/node';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { type StartTarget, urlFor } from './http-facts.js';

export const inProcessHost: StartTarget = async (options) => {
  const mock = createMockApi(options);
  const baseUrl = 'http://mock.test/v1';
  return {
    baseUrl,
    mock,
    request: (path, init) => mock.fetch(new Request(urlFor(baseUrl, path), init)),
    reset: async () => mock.reset(),
    close: async () => {},
  };
};

export const nodeServerHost: StartTarget = async (options) => {
  const server = await startMockServer({ ...options, port: 0 });
  return {
    baseUrl: server.url,
    mock: server.mock,
    request: (path, init) => fetch(urlFor(server.url, path), init),
    reset: async () => server.mock.reset(),
    close: () => server.close(),
  };
};

export const mswHost: StartTarget = async (options) => {
  const baseUrl = 'https://api.example.test/v1';
  const api = createHandlers({ ...options, baseUrl });
  const server = setupServer(...api);
  server.listen({ onUnhandledFrame: 'error' });
  return {
    baseUrl,
    mock: api.mock,
    request: (path, init) => fetch(urlFor(baseUrl, path), init),
    reset: async () => api.reset(),
    close: async () => server.close(),
  };
};
