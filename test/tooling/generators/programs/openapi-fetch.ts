// A client as openapi-typescript's README builds one: its default output (schema.d.ts) and openapi-fetch.
import createClient from 'openapi-fetch';
import type { paths } from './openapi-typescript/schema.js';

const baseUrl = process.env.PETSTORE_URL ?? 'http://127.0.0.1:4010/v1';
const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${process.env.PETSTORE_API_KEY}` } });

const listed = await client.GET('/pets');
const sold = await client.GET('/pets', { params: { query: { status: 'sold', limit: 5 } } });
const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 } });
const read = await client.GET('/pets/{petId}', { params: { path: { petId: created.data?.id ?? 0 } } });
const badRequest = await client.GET('/pets', { params: { query: { limit: 0 } } });
const unauthorized = await createClient<paths>({ baseUrl }).GET('/pets');
const notFound = await client.GET('/pets/{petId}', { params: { path: { petId: 99999 } } });

console.log(
  JSON.stringify({
    listed: listed.data?.length,
    filtered: sold.data?.map((pet) => pet.status),
    created: created.data,
    read: read.data,
    errors: [badRequest.error, unauthorized.error, notFound.error],
  }),
);
