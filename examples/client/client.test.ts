import { type MockServer, startMockServer } from 'petstore-mock';
import { ApiError, createClient } from 'petstore-mock/client';
import { afterAll, beforeAll, expect, it } from 'vitest';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

it('lists, creates and reads pets, and rejects with an ApiError that carries the Error body', async () => {
  const client = createClient({ baseUrl: server.url, apiKey: 'petstore-dev-key' });
  const sold = await client.listPets({ status: 'sold', limit: 5 });
  expect(sold.every((pet) => pet.status === 'sold')).toBe(true);

  const rex = await client.createPet({ name: 'Rex', categoryId: 3 }); // status: 'available', the server's default
  expect(await client.getPet(rex.id)).toEqual(rex);

  const error = await client.getPet(404404).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 404, body: { code: 'not_found', status: 404 } });
});
