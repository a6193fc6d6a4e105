// The root entry and the fixtures, in a project that has not installed msw.
import { DEFAULT_API_KEY, startMockServer } from 'petstore-mock';
import { pets } from 'petstore-mock/fixtures';

const server = await startMockServer({ port: 0 });
try {
  const served = await (await fetch(`${server.url}/pets`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } })).json();
  if (JSON.stringify(served) !== JSON.stringify(pets.slice(0, 20))) throw new Error('GET /v1/pets differs from pets.slice(0, 20)');
} finally {
  await server.close();
}
console.log('without msw: petstore-mock and petstore-mock/fixtures answered');
