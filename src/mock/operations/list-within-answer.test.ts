/**
 * A page of pets within `ANSWER_BYTES` through `fetch`, the way MSW and every fetch host serve the mock
 * (the Node hosts are tested from outside by the guarantees suite).
 */
import { describe, expect, it } from 'vitest';
import { ANSWER_BYTES } from '../../bounds/budget.js';
import { createMockApi } from '../create-mock-api.js';

const headers = { authorization: 'Bearer petstore-dev-key' };

describe('a list through fetch (MSW)', () => {
  it('answers at most ANSWER_BYTES, the first pets that fit, and a page of usual pets whole', async () => {
    // Your own data of 3 usual pets and 5 of 1 MB names: a page of all of them would be 5 MB.
    const data = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: i < 3 ? `Pet ${i}` : `${i}`.repeat(1_000_000), categoryId: 1 }));
    const mock = createMockApi({ data });
    const page = await mock.fetch(new Request(`http://mock.test/v1/pets?limit=${data.length}`, { headers }));
    const bytes = new Uint8Array(await page.arrayBuffer());
    expect(bytes.length).toBeLessThanOrEqual(ANSWER_BYTES);
    const pets = JSON.parse(new TextDecoder().decode(bytes)) as { id: number }[];
    expect(pets.map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await (await mock.fetch(new Request('http://mock.test/v1/pets?limit=2', { headers }))).json()).toHaveLength(2);
  });
});
