// A client as orval generates it with its fetch client and a mutator for the base URL and the key.
import { createPet, getPet, listPets } from './orval/client.js';

const listed = await listPets();
const sold = await listPets({ status: 'sold', limit: 5 });
const created = await createPet({ name: 'Rex', categoryId: 3 });
const read = created.status === 201 ? await getPet(created.data.id) : undefined;
const badRequest = await listPets({ limit: 0 });
const unauthorized = await listPets(undefined, { headers: { Authorization: 'Bearer not-the-key' } });
const notFound = await getPet(99999);

console.log(
  JSON.stringify({
    listed: listed.status === 200 ? listed.data.length : undefined,
    filtered: sold.status === 200 ? sold.data.map((pet) => pet.status) : undefined,
    created: created.data,
    read: read?.data,
    errors: [badRequest.data, unauthorized.data, notFound.data],
  }),
);
