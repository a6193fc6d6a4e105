import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { operationOfKind } from '../../openapi/resource-model.js';
import { createHandlers, handlers } from './msw.js';

const AUTH = { authorization: 'Bearer petstore-dev-key' };
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };
let close: (() => void) | undefined;

// Answers what the handlers under test leave alone, so that a test can see they did.
const UNCLAIMED = 599;
const fallback = http.all('*', () => new Response(null, { status: UNCLAIMED }));

/** Intercepts with `list`, then the fallback, until the end of the test. */
function intercept(...list: Parameters<typeof setupServer>): void {
  const server = setupServer(...list, fallback);
  server.listen({ onUnhandledFrame: 'error' });
  close = () => server.close();
}

const status = async (url: string) => (await fetch(url, { headers: AUTH })).status;

afterEach(() => {
  close?.();
  close = undefined;
  handlers.reset();
});

const count = async (url: string) => ((await (await fetch(url, { headers: AUTH })).json()) as unknown[]).length;
/** How many pets the mock at `origin` holds, from its health endpoint: a count no page size caps. */
const pets = async (origin: string) => ((await (await fetch(`${origin}/__mock/health`)).json()) as { pets: number }).pets;
/** The largest page the spec allows. */
const PAGE = operationOfKind(BUNDLED_MODEL, 'list')?.pageSize?.maximum ?? 0;
const create = (url: string) => fetch(url, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Rex","categoryId":1}' });

describe('handlers', () => {
  it('answer /v1/... on any origin, with the default seed, count and key', async () => {
    intercept(...handlers);
    for (const origin of ['http://localhost:5173', 'https://api.petstore.example']) {
      expect(await count(`${origin}/v1/pets?limit=${PAGE}`)).toBe(Math.min(50, PAGE));
      expect(await pets(origin)).toBe(50);
    }
    expect((await fetch('http://localhost:5173/v1/pets')).status).toBe(401);
    expect(await status('http://localhost:5173/v1')).toBe(404);
  });

  it('keep their state across requests until handlers.reset()', async () => {
    intercept(...handlers);
    expect((await create('http://localhost/v1/pets')).status).toBe(201);
    expect(await pets('http://localhost')).toBe(51);
    handlers.reset();
    expect(await pets('http://localhost')).toBe(50);
  });

  it('leave every other request alone', async () => {
    intercept(...handlers);
    expect(await status('http://localhost:5173/api/v1/pets')).toBe(UNCLAIMED);
    expect(await status('http://localhost:5173/v10/pets')).toBe(UNCLAIMED);
    expect(await status('http://localhost:5173/index.html')).toBe(UNCLAIMED);
  });
});

describe('createHandlers', () => {
  it('answers on the origin and path of an absolute baseUrl only', async () => {
    intercept(...createHandlers({ baseUrl: 'https://api.example.test/api/v2/' }));
    expect(await count('https://api.example.test/api/v2/pets')).toBe(operationOfKind(BUNDLED_MODEL, 'list')?.pageSize?.default);
    const created = await create('https://api.example.test/api/v2/pets');
    expect(created.headers.get('location')).toMatch(/^\/api\/v2\/pets\/51$/);
    expect((await fetch('https://api.example.test/__mock/health')).status).toBe(200);
    expect(await status('https://other.example.test/api/v2/pets')).toBe(UNCLAIMED);
    expect(await status('https://api.example.test/v1/pets')).toBe(UNCLAIMED);
  });

  it('gives each call its own state, and reset() puts back the seeded pets', async () => {
    const a = createHandlers({ baseUrl: 'https://a.test/v1' });
    const b = createHandlers({ baseUrl: 'https://b.test/v1', seed: 7, count: 3 });
    intercept(...a, ...b);
    await create('https://a.test/v1/pets');
    expect(await pets('https://a.test')).toBe(51);
    expect(await pets('https://b.test')).toBe(3);
    a.reset();
    expect(await pets('https://a.test')).toBe(50);
    expect(a.mock.store.size).toBe(50);
  });

  it('honours apiKey and delay', async () => {
    intercept(...createHandlers({ baseUrl: 'https://slow.test/v1', apiKey: 'secret', delay: 150 }));
    expect((await fetch('https://slow.test/v1/pets', { headers: AUTH })).status).toBe(401);
    const started = performance.now();
    const response = await fetch('https://slow.test/v1/pets', { headers: { authorization: 'Bearer secret' } });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('refuses a baseUrl that is neither an absolute URL nor a path, naming it', () => {
    expect(() => createHandlers({ baseUrl: 'api.example.test/v1' })).toThrow(/baseUrl.*api\.example\.test\/v1/);
  });

  it('refuses a key that no request could send, without quoting it', () => {
    const refused = () => createHandlers({ apiKeys: ['fine', { label: 'ci', key: 'pasted\tsecret' }] });
    expect(refused).toThrow('apiKey, apiKeys: an API key cannot contain whitespace (found at character 7): a Bearer token is one word');
    expect(refused).not.toThrow(/secret/);
  });

  it('is a frozen array of MSW handlers', () => {
    const api = createHandlers();
    expect(Array.isArray(api)).toBe(true);
    expect(Object.isFrozen(api)).toBe(true);
  });
});
