import { expect, test } from './fixtures.mjs';

/** How many pets a session holds, as /__mock/health counts them; by default the default session's: the seeded pets, as no test adds any there. */
async function petsIn(request, name = 'default') {
  const health = await request.get('/__mock/health', { headers: { 'x-mock-session': name } });
  return (await health.json()).pets;
}

test('adds a pet that only this worker sees', async ({ request, mockSession }) => {
  const created = await request.post('pets', { data: { name: `${mockSession}'s pet`, categoryId: 1 } });
  expect(created.status()).toBe(201);
  const pet = await created.json();
  expect(await (await request.get(`pets/${pet.id}`)).json()).toEqual(pet);
  expect(await petsIn(request, mockSession)).toBe((await petsIn(request)) + 1); // its own pet, and none of another worker's
});

test('starts from the seeded pets again', async ({ request, mockSession }) => {
  expect(await petsIn(request, mockSession)).toBe(await petsIn(request));
});
