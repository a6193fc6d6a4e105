import { expect, test } from './fixtures.mjs';

test('reads back the pet it added, which the mock keeps in this worker’s session only', async ({ request, playwright }) => {
  const rex = await (await request.post('pets', { data: { name: 'Rex', categoryId: 3 } })).json();
  expect(rex.id).toBe(51); // the first pet added to a fresh session, whatever other workers add meanwhile
  expect(await (await request.get(`pets/${rex.id}`)).json()).toEqual(rex);
  const outside = await playwright.request.newContext({ extraHTTPHeaders: { authorization: 'Bearer petstore-dev-key' } });
  expect((await outside.get(`${process.env.PETSTORE_URL}/pets/${rex.id}`)).status()).toBe(404); // the default session never saw it
  await outside.dispose();
});
