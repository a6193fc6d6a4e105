const { petstore, session } = require('./petstore.js');

/** How many pets a session holds, as /__mock/health counts them; by default the default session's: the seeded pets, as no test adds any there. */
async function petsIn(name = 'default') {
  const health = await fetch(new URL('/__mock/health', process.env.PETSTORE_URL), { headers: { 'x-mock-session': name } });
  return (await health.json()).pets;
}

test('adds a pet that only this worker sees', async () => {
  const created = await petstore('/pets', { method: 'POST', body: { name: `${session}'s pet`, categoryId: 1 } });
  expect(created.status).toBe(201);
  const pet = await created.json();
  expect(await (await petstore(`/pets/${pet.id}`)).json()).toEqual(pet);
  expect(await petsIn(session)).toBe((await petsIn()) + 1); // its own pet, and none of another worker's
});

test('starts from the seeded pets again', async () => {
  expect(await petsIn(session)).toBe(await petsIn());
});
