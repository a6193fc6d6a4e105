// A downstream project's Pact run, for whichever Pact major it installed: the consumer side writes a pact
// with PactV4 and the package's typed client (as examples/pact/admin-ui.pact.test.ts does), then the
// provider side replays it with the package's petstore-verify against the package's petstore-mock.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createClient } from 'petstore-mock/client';
import { startInstalledMock } from './installed-mock.mjs';

const KEY = 'petstore-dev-key';
const { eachLike, integer, string } = MatchersV3;

function check(condition, what) {
  if (!condition) throw new Error(`pact check failed: ${what}`);
}

const dir = mkdtempSync(join(tmpdir(), 'petstore-consumer-pact-'));
try {
  const pact = new PactV4({ consumer: 'downstream-ui', provider: 'petstore-api', dir, logLevel: 'error' });
  await pact
    .addInteraction()
    .given('pets exist')
    .uponReceiving('downstream-ui lists pets')
    .withRequest('GET', '/v1/pets', (request) => request.headers({ Authorization: `Bearer ${KEY}` }))
    .willRespondWith(200, (response) => response.jsonBody(eachLike({ id: integer(1), name: string('Gus'), categoryId: integer(3) })))
    .executeTest(async (server) => {
      const pets = await createClient({ baseUrl: `${server.url}/v1`, apiKey: KEY }).listPets();
      check(pets[0]?.name === 'Gus', 'the client reads the pets from the Pact mock server');
    });
  const file = join(dir, 'downstream-ui-petstore-api.json');
  check(JSON.parse(readFileSync(file, 'utf8')).interactions.length === 1, 'the pact holds the one interaction');

  const { mock, url } = await startInstalledMock();
  try {
    const verified = spawnSync(
      process.execPath,
      ['node_modules/.bin/petstore-verify', '--suite', 'pact', '--pact', file, '--base-url', url, '--api-key', KEY, '--reporter', 'json'],
      { encoding: 'utf8', env: { ...process.env, PACT_DO_NOT_TRACK: 'true' } },
    );
    check(verified.status === 0, `petstore-verify replays the pact, exit 0:\n${verified.stdout}${verified.stderr}`);
    const outcomes = JSON.parse(verified.stdout).results.map((result) => `${result.id} ${result.outcome}`);
    check(outcomes.includes('pact.downstream-ui.downstream-ui-lists-pets pass'), `the interaction passes: ${outcomes.join(', ')}`);
  } finally {
    mock.kill();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log('pact: the consumer wrote a pact and petstore-verify replayed it');
