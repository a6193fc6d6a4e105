/**
 * What every mode of the mock must show of the variant's replacePet (PUT /pets/{petId}): a seeded pet
 * and a created one replaced, each read back, listed and filtered by its new values in every page; the
 * body held to the same schema as a create's; 401 without the key; 404 for an absent or removed id,
 * which a replace never makes.
 */
import { expect } from 'vitest';
import { VARIANT_LIMIT_MAXIMUM, VARIANT_TAG_MAX_LENGTH } from './variant-spec.js';

/** One call to the mock, through whatever host a test has: the status and the JSON body. */
export type VariantCall = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; json: unknown }>;

/**
 * Calls to the mock whose API is at `base()` (read at each call: a restarted mock has another), with its
 * key, through `send`: `fetch` over HTTP or MSW (the global one at each call, which MSW patches while it listens),
 * or a mock's own `fetch` in process.
 */
export function variantCall(
  base: () => string,
  send = (request: Request): Promise<Response> => fetch(request),
  headers: Record<string, string> = {},
): VariantCall {
  return async (method, path, body, extra) => {
    const sent = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', ...headers, ...extra };
    const response = await send(new Request(`${base()}${path}`, { method, headers: sent, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
}

interface ListedPet {
  readonly id: number;
  readonly status?: string;
}

/** The pets of a page, by its query. */
async function page(call: VariantCall, query: string): Promise<ListedPet[]> {
  const answer = await call('GET', `/pets?${query}`);
  expect(answer.status, query).toBe(200);
  return answer.json as ListedPet[];
}

/** Checks that `pets` are read back as they are, and listed and filtered so in every page, each once. */
export async function expectServed(call: VariantCall, pets: readonly ListedPet[]): Promise<void> {
  for (const pet of pets) expect(await call('GET', `/pets/${pet.id}`)).toEqual({ status: 200, json: pet });
  const all = await page(call, `limit=${VARIANT_LIMIT_MAXIMUM}`);
  for (let limit = 1; limit < VARIANT_LIMIT_MAXIMUM; limit++) expect(await page(call, `limit=${limit}`), `limit=${limit}`).toEqual(all.slice(0, limit));
  // The whole list holds those in its first page; a filtered page every pet of its status (the variant's pages are large enough).
  for (const pet of pets) for (const seen of all.filter((candidate) => candidate.id === pet.id)) expect(seen).toEqual(pet);
  for (const status of ['available', 'pending', 'sold']) {
    const filtered = await page(call, `status=${status}&limit=${VARIANT_LIMIT_MAXIMUM}`);
    expect(filtered.every((pet) => pet.status === status)).toBe(true);
    for (const pet of pets)
      expect(
        filtered.filter((candidate) => candidate.id === pet.id),
        `${pet.id} under status=${status}`,
      ).toEqual(pet.status === status ? [pet] : []);
  }
}

/**
 * Replaces the seeded pet `seededId` and a pet it creates, checks every answer of a replace, and
 * returns the two pets as replaced (for a test to check again, after a restart).
 */
export async function expectReplaces(call: VariantCall, seededId: number): Promise<ListedPet[]> {
  const tag = 'r'.repeat(VARIANT_TAG_MAX_LENGTH);
  const created = await call('POST', '/pets', { name: 'Rex', categoryId: 2, status: 'sold', tag: 'first' });
  expect(created.status).toBe(201);
  const createdId = (created.json as ListedPet).id;

  const seeded = await call('PUT', `/pets/${seededId}`, { name: 'Replaced', categoryId: 9, status: 'pending', tag });
  expect(seeded).toEqual({ status: 200, json: { id: seededId, name: 'Replaced', categoryId: 9, status: 'pending', tag } });
  // A replace is whole: the status left out is the server's default, as for a create, and the tag left out is gone.
  const again = await call('PUT', `/pets/${createdId}`, { name: 'Again', categoryId: 4 });
  expect(again).toEqual({ status: 200, json: { id: createdId, name: 'Again', categoryId: 4, status: 'available' } });

  const tooLong = await call('PUT', `/pets/${seededId}`, { name: 'Long', categoryId: 1, tag: `${tag}r` });
  expect(tooLong.status).toBe(400);
  expect(tooLong.json).toMatchObject({ code: 'bad_request', status: 400, message: expect.stringMatching(/\btag\b/) });
  expect((await call('PUT', `/pets/${seededId}`, { categoryId: 1 })).status).toBe(400);
  expect((await call('PUT', '/pets/not-an-id', { name: 'Odd', categoryId: 1 })).status).toBe(400);
  expect((await call('PUT', `/pets/${seededId}`, { name: 'Nobody', categoryId: 1 }, { authorization: 'Bearer wrong-key' })).status).toBe(401);

  // An absent id, or one removed, is 404, and a replace never makes a pet of it.
  const absent = createdId + 1000;
  expect((await call('PUT', `/pets/${absent}`, { name: 'Ghost', categoryId: 1 })).status).toBe(404);
  expect((await call('GET', `/pets/${absent}`)).status).toBe(404);
  const doomed = await call('POST', '/pets', { name: 'Doomed', categoryId: 1 });
  const doomedId = (doomed.json as ListedPet).id;
  expect((await call('DELETE', `/pets/${doomedId}`)).status).toBe(204);
  expect((await call('PUT', `/pets/${doomedId}`, { name: 'Back', categoryId: 1 })).status).toBe(404);
  expect((await call('GET', `/pets/${doomedId}`)).status).toBe(404);

  const replaced = [seeded.json, again.json] as ListedPet[];
  await expectServed(call, replaced);
  // Ids are never given twice: the next pet is numbered after every one created, the removed one too.
  const next = await call('POST', '/pets', { name: 'Next', categoryId: 1 });
  expect((next.json as ListedPet).id).toBe(doomedId + 1);
  expect((await call('DELETE', `/pets/${doomedId + 1}`)).status).toBe(204);
  return replaced;
}

/** The whole variant in a mock seeded with 10 pets: a valid tag kept and a long one refused, the new bound, the delete, and every replace. */
export async function expectVariantServed(call: VariantCall): Promise<void> {
  const tag = 't'.repeat(VARIANT_TAG_MAX_LENGTH);
  expect(await call('POST', '/pets', { name: 'Rex', categoryId: 1, tag })).toMatchObject({ status: 201, json: { id: 11, tag } });
  expect((await call('POST', '/pets', { name: 'Rex', categoryId: 1, tag: `${tag}t` })).status).toBe(400);
  expect((await call('GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM + 1}`)).status).toBe(400);
  expect((await call('DELETE', '/pets/11')).status).toBe(204);
  await expectReplaces(call, 3);
}
