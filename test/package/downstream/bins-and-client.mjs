// A downstream project using the package's two commands and its typed client, as installed.
import { spawnSync } from 'node:child_process';
import { ApiError, createClient } from 'petstore-mock/client';
import { startInstalledMock } from './installed-mock.mjs';

function check(condition, what) {
  if (!condition) throw new Error(`downstream check failed: ${what}`);
}

const { mock, url } = await startInstalledMock();
try {
  const client = createClient({ baseUrl: url, apiKey: 'petstore-dev-key' });
  const rex = await client.createPet({ name: 'Rex', categoryId: 3 });
  check((await client.getPet(rex.id)).name === 'Rex', 'the client creates and reads a pet');
  const refused = await createClient({ baseUrl: url })
    .listPets()
    .catch((error) => error);
  check(refused instanceof ApiError && refused.status === 401, 'the client rejects with an ApiError');

  const verified = spawnSync(process.execPath, ['node_modules/.bin/petstore-verify', '--base-url', url, '--api-key', 'petstore-dev-key'], {
    encoding: 'utf8',
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
  });
  check(verified.status === 0, `petstore-verify exits 0 against petstore-mock:\n${verified.stdout}${verified.stderr}`);
  check(/pact\.petstore-web\./.test(verified.stdout), 'petstore-verify ran the bundled pact');
} finally {
  mock.kill();
}
console.log('downstream: the commands and the client verified');
