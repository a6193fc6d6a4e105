// A downstream project's MSW test, for whichever msw major it installed: the entry that calls it starts
// the server with the unhandled-request option of that major (msw 2 `onUnhandledRequest`, msw 3
// `onUnhandledFrame`), and this part uses only what both majors share.
import { DEFAULT_API_KEY, type Pet } from 'petstore-mock';
import { buildNewPet, pets } from 'petstore-mock/fixtures';
import { createHandlers, handlers, type MockHandlers } from 'petstore-mock/msw';

/** The part of `setupServer()` this check needs, the same in msw 2 and msw 3. */
interface Server {
  use(...handlers: MockHandlers[number][]): void;
  close(): void;
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`msw check failed: ${what}`);
}

/** The package's handlers answer through `server`, and a request no handler claims fails as the option asked. */
export async function checkHandlers(server: Server): Promise<void> {
  try {
    server.use(...handlers);
    const listed = await fetch('http://localhost:5173/v1/pets?limit=3', { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } });
    check(JSON.stringify(await listed.json()) === JSON.stringify(pets.slice(0, 3)), 'GET /v1/pets?limit=3 through `handlers` lists the first three fixtures');

    const api = createHandlers({ baseUrl: 'https://api.example.test/v1', apiKey: 'consumer-key' });
    server.use(...api);
    const created = await fetch('https://api.example.test/v1/pets', {
      method: 'POST',
      headers: { authorization: 'Bearer consumer-key', 'content-type': 'application/json' },
      body: JSON.stringify(buildNewPet({ name: 'Rex' })),
    });
    const pet = (await created.json()) as Pet;
    check(created.status === 201 && pet.name === 'Rex', `POST /v1/pets through createHandlers responds 201 with the pet: ${JSON.stringify(pet)}`);
    const found = await fetch(`https://api.example.test/v1/pets/${pet.id}`, { headers: { authorization: 'Bearer consumer-key' } });
    check(found.status === 200, 'the created pet is there to GET');
    await api.reset();
    const gone = await fetch(`https://api.example.test/v1/pets/${pet.id}`, { headers: { authorization: 'Bearer consumer-key' } });
    check(gone.status === 404, 'reset() puts the pets back to the seeded ones');

    // With the option ignored (an msw 2 name under msw 3), the request would leave for the network instead.
    const unhandled = await fetch('http://unhandled.invalid/elsewhere').then(
      () => 'answered',
      (error: unknown) => String(error instanceof Error && error.cause instanceof Error ? error.cause.message : error),
    );
    check(unhandled.includes('[MSW]'), `a request no handler claims is rejected by MSW: ${unhandled}`);
  } finally {
    server.close();
  }
}
