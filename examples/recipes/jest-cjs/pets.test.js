const { petstore, session } = require('./petstore.js');

test('adds a pet that only this worker sees', async () => {
  const created = await petstore('/pets', { method: 'POST', body: { name: `${session}'s pet`, categoryId: 1 } });
  expect(created.status).toBe(201);
  const listed = await (await petstore('/pets?limit=100')).json();
  expect(listed.filter((pet) => pet.id > 50).map((pet) => pet.name)).toEqual([`${session}'s pet`]);
});

test('starts from the seeded pets again', async () => {
  expect(await (await petstore('/pets?limit=100')).json()).toHaveLength(50);
});
