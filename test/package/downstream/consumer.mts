// A downstream project's first file: the imports the README promises, then one request through each.
// biome-ignore-all assist/source/organizeImports: the imports exactly as a downstream project writes them from the README.
import { handlers, createHandlers } from 'petstore-mock/msw';
import { pets, buildPet, buildNewPet, seededPets } from 'petstore-mock/fixtures';
import { startMockServer, DEFAULT_API_KEY, type Pet, type NewPet, type PetStatus, type ApiError } from 'petstore-mock';
import { setupServer } from 'msw/node';

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`downstream check failed: ${what}`);
}
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const headers = { authorization: `Bearer ${DEFAULT_API_KEY}` };

const server = await startMockServer({ port: 0 });
check(server.url.endsWith('/v1'), `startMockServer url ends in /v1: ${server.url}`);
const served = (await (await fetch(`${server.url}/pets`, { headers })).json()) as Pet[];
await server.close();
check(same(served, pets.slice(0, 20)), 'GET /v1/pets on the Node server equals pets.slice(0, 20)');
check(same(seededPets(1, 50), pets), 'seededPets(1, 50) equals pets');

const msw = setupServer(...handlers);
msw.listen({ onUnhandledFrame: 'error' });
try {
  const viaMsw = (await (await fetch('http://localhost:5173/v1/pets', { headers })).json()) as Pet[];
  check(same(viaMsw, pets.slice(0, 20)), 'GET /v1/pets through the default MSW handlers equals pets.slice(0, 20)');

  const api = createHandlers({ baseUrl: 'https://api.example.test/v1', apiKey: 'downstream-key' });
  msw.use(...api);
  const rex: NewPet = buildNewPet({ name: 'Rex' });
  const created = await fetch('https://api.example.test/v1/pets', {
    method: 'POST',
    headers: { authorization: 'Bearer downstream-key', 'content-type': 'application/json' },
    body: JSON.stringify(rex),
  });
  const pet = (await created.json()) as Pet;
  check(created.status === 201 && pet.name === 'Rex', `POST /v1/pets answers 201 with the pet: ${JSON.stringify(pet)}`);
  const refused = (await (await fetch('https://api.example.test/v1/pets')).json()) as ApiError;
  check(refused.status === 401 && refused.code === 'unauthorized', 'a request without the key answers a 401 ApiError');
  api.reset();
  const status: PetStatus = buildPet({ status: 'sold' }).status;
  check(status === 'sold', 'buildPet applies overrides');
} finally {
  msw.close();
}
console.log('downstream: all three entry points answered');
