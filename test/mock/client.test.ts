import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type PetstoreClient } from '../../src/client/index.js';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { apiErrorOf } from '../support/api-error.js';
import { LIMIT } from '../support/page-size.js';

const KEY = 'petstore-dev-key';

interface Target {
  readonly baseUrl: string;
  close(): Promise<void>;
}

const targets: [string, () => Promise<Target>][] = [
  [
    'the Node mock',
    async () => {
      const server = await startMockServer({ port: 0 });
      return { baseUrl: server.url, close: () => server.close() };
    },
  ],
  [
    'the MSW handlers',
    async () => {
      const baseUrl = 'https://api.example.test/v1';
      const msw = setupServer(...createHandlers({ baseUrl }));
      msw.listen({ onUnhandledFrame: 'error' });
      return { baseUrl, close: async () => msw.close() };
    },
  ],
];

describe.each(targets)('the typed client against %s', (_, start) => {
  let target: Target;
  let client: PetstoreClient;
  beforeAll(async () => {
    target = await start();
    client = createClient({ baseUrl: target.baseUrl, apiKey: KEY });
  });
  afterAll(() => target.close());

  it('lists pets, with a limit and a status', async () => {
    expect(await client.listPets()).toHaveLength(LIMIT.default);
    expect(await client.listPets({ limit: 3 })).toHaveLength(3);
    const sold = await client.listPets({ status: 'sold', limit: LIMIT.maximum });
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true);
  });

  it('creates a pet and reads it back by id', async () => {
    const created = await client.createPet({ name: 'Rex', categoryId: 3, status: 'pending' });
    expect(created).toMatchObject({ name: 'Rex', categoryId: 3, status: 'pending' });
    expect(await client.getPet(created.id)).toEqual(created);
  });

  it('rejects with an ApiError carrying the Error body', async () => {
    const notFound = await apiErrorOf(client.getPet(404404));
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ code: 'not_found', status: 404 });
    expect(notFound.message.startsWith(`GET ${target.baseUrl}/pets/404404 answered 404 not_found: `)).toBe(true);
    expect((await apiErrorOf(client.listPets({ limit: 0 }))).body.message).toMatch(/limit/);
    expect((await apiErrorOf(client.createPet({ categoryId: 3 } as never))).body.message).toMatch(/name/);
    expect((await apiErrorOf(createClient({ baseUrl: target.baseUrl }).listPets())).status).toBe(401);
    expect((await apiErrorOf(createClient({ baseUrl: target.baseUrl, apiKey: 'wrong' }).listPets())).body.code).toBe('unauthorized');
  });

  it('turns an answer that is not an Error body into an ApiError too', async () => {
    const html = createClient({ baseUrl: 'http://x.test/v1', fetch: async () => new Response('<h1>Bad gateway</h1>', { status: 502 }) });
    const error = await apiErrorOf(html.listPets());
    expect(error.body).toEqual({ code: 'unexpected_response', message: 'not an Error body: <h1>Bad gateway</h1>', status: 502 });
  });
});
