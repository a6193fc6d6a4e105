import { expect, test } from './fixtures.mjs';

test('adds a pet that only this worker sees', async ({ request, mockSession }) => {
  const created = await request.post('pets', { data: { name: `${mockSession}'s pet`, categoryId: 1 } });
  expect(created.status()).toBe(201);
  const listed = await (await request.get('pets?limit=100')).json();
  expect(listed.filter((pet) => pet.id > 50).map((pet) => pet.name)).toEqual([`${mockSession}'s pet`]);
});

test('starts from the seeded pets again', async ({ request }) => {
  expect(await (await request.get('pets?limit=100')).json()).toHaveLength(50);
});
