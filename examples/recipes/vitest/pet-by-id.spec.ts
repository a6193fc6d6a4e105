import type { Pet } from 'petstore-mock';
import { expect, it } from 'vitest';
import { petstore } from './petstore.js';

it('reads back the pet it added, which the mock keeps in this worker’s session only', async () => {
  const rex = (await (await petstore('/pets', { method: 'POST', body: { name: 'Rex', categoryId: 3 } })).json()) as Pet;
  expect(rex.id).toBe(51); // the first pet added to a fresh session, whatever other workers add meanwhile
  expect(await (await petstore(`/pets/${rex.id}`)).json()).toEqual(rex);
  const elsewhere = await fetch(`${process.env.PETSTORE_URL}/pets/${rex.id}`, { headers: { authorization: 'Bearer petstore-dev-key' } });
  expect(elsewhere.status).toBe(404); // the default session, without X-Mock-Session, never saw it
});
