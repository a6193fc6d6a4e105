// A downstream CommonJS project's use of each entry of the package, through require() and no
// configuration: jest.test.ts runs these checks as the tests of a Jest project, and
// `node commonjs-checks.cjs` runs them as a plain script. Each throws when the package does not behave.
// msw is required in its own check: Jest's CommonJS mode cannot load it (docs/mock-in-code.md), and the
// other entries must not depend on it.
const assert = require('node:assert/strict');
const { createMockApi, DEFAULT_API_KEY, startMockServer } = require('petstore-mock');
const { buildNewPet, pets } = require('petstore-mock/fixtures');
const { ApiError, createClient } = require('petstore-mock/client');

const auth = { authorization: `Bearer ${DEFAULT_API_KEY}` };

/** Compares as JSON: under Jest, a body parsed by the global Response has another realm's Object.prototype. */
function sameJson(actual, expected) {
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
}

const checks = {
  'petstore-mock/fixtures: the seeded pets and the builders': () => {
    assert.equal(pets.length, 50);
    assert.equal(pets[0].id, 1);
    assert.ok(Object.isFrozen(pets[0]));
    sameJson(buildNewPet({}, { seed: 3 }), buildNewPet({}, { seed: 3 }));
    assert.equal(buildNewPet({ name: 'Rex' }).name, 'Rex');
  },

  'petstore-mock: createMockApi responds in process': async () => {
    const api = createMockApi();
    const listed = await api.fetch(new Request('http://localhost/v1/pets?limit=3', { headers: auth }));
    assert.equal(listed.status, 200);
    sameJson(await listed.json(), pets.slice(0, 3));
    const anonymous = await api.fetch(new Request('http://localhost/v1/pets'));
    assert.equal(anonymous.status, 401);
  },

  'petstore-mock and petstore-mock/client: the typed client against startMockServer': async () => {
    const server = await startMockServer({ port: 0 });
    try {
      const client = createClient({ baseUrl: server.url, apiKey: DEFAULT_API_KEY });
      sameJson(await client.listPets({ limit: 2 }), pets.slice(0, 2));
      const rex = await client.createPet(buildNewPet({ name: 'Rex' }));
      assert.equal((await client.getPet(rex.id)).name, 'Rex');
      await assert.rejects(client.getPet(404404), (error) => error instanceof ApiError && error.status === 404 && error.body.status === 404);
    } finally {
      await server.close();
    }
  },

  'petstore-mock/testing: expectRequests reads the journal, and a miss names what the mock received': async () => {
    const { expectRequests } = require('petstore-mock/testing');
    const api = createMockApi();
    const body = JSON.stringify(buildNewPet({ name: 'Rex' }));
    await api.fetch(new Request('http://localhost/v1/pets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body }));
    await expectRequests(api)
      .toInclude({ method: 'POST', path: '/v1/pets', body: { name: 'Rex' } })
      .times(1);
    await assert.rejects(
      expectRequests(api)
        .toInclude({ method: 'POST', body: { name: 'Rexy' } })
        .times(1),
      (error) => error instanceof Error && error.message.includes('body.name is "Rex", not "Rexy"'),
    );
  },

  'petstore-mock/msw: the handlers respond through setupServer from msw/node': async () => {
    const { createHandlers } = require('petstore-mock/msw');
    const { setupServer } = require('msw/node');
    // msw 3 renamed the option that fails a request no handler claims.
    const unhandled = require('msw/package.json').version.startsWith('2.') ? 'onUnhandledRequest' : 'onUnhandledFrame';
    const api = createHandlers({ baseUrl: 'https://api.example.test/v1' });
    const server = setupServer(...api);
    server.listen({ [unhandled]: 'error' });
    try {
      const created = await fetch('https://api.example.test/v1/pets', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(buildNewPet({ name: 'Rex' })),
      });
      assert.equal(created.status, 201);
      const { id } = await created.json();
      assert.equal((await fetch(`https://api.example.test/v1/pets/${id}`, { headers: auth })).status, 200);
      await api.reset();
      assert.equal((await fetch(`https://api.example.test/v1/pets/${id}`, { headers: auth })).status, 404);
    } finally {
      server.close();
    }
  },
};

module.exports = { checks };

// Run as a script: every check in turn, one line for each.
if (require.main === module) {
  (async () => {
    for (const [name, check] of Object.entries(checks)) {
      await check();
      console.log(`ok: ${name}`);
    }
  })().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
