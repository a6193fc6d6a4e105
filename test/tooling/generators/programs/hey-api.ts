// A client as @hey-api/openapi-ts generates it with its default plugins (fetch client and SDK).
import { createClient, createConfig } from './hey-api/client/index.js';
import { client } from './hey-api/client.gen.js';
import { createPet, getPet, listPets } from './hey-api/sdk.gen.js';

// Its default base URL is the spec's first server, the local mock; this run's mock listens elsewhere.
const defaultBaseUrl = client.getConfig().baseUrl;
const baseUrl = process.env.PETSTORE_URL ?? 'http://127.0.0.1:4010/v1';
client.setConfig({ baseUrl, auth: () => process.env.PETSTORE_API_KEY });

const listed = await listPets();
const sold = await listPets({ query: { status: 'sold', limit: 5 } });
const created = await createPet({ body: { name: 'Rex', categoryId: 3 } });
const read = await getPet({ path: { petId: created.data?.id ?? 0 } });
const badRequest = await listPets({ query: { limit: 0 } });
const unauthorized = await listPets({ client: createClient(createConfig({ baseUrl })) });
const notFound = await getPet({ path: { petId: 99999 } });

console.log(
  JSON.stringify({
    defaultBaseUrl,
    listed: listed.data?.length,
    filtered: sold.data?.map((pet) => pet.status),
    created: created.data,
    read: read.data,
    errors: [badRequest.error, unauthorized.error, notFound.error],
  }),
);
