/**
 * A session's own pets are held to the same byte budget whatever store keeps them: in memory and in Redis
 * (`--store`, a real redis-server), a pet put or created is counted 128 bytes and 2 a character of its
 * JSON, a deleted pet's tombstone 48 bytes (`PET_ENTRY_BYTES`, `TOMBSTONE_BYTES`), within 16 MiB a
 * session (`SESSION_PETS_BYTES`); the change past it is the same 429 Error, changing nothing. The same
 * requests are sent to both stores, and both answer them alike. Needs `dist/`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PET_ENTRY_BYTES, SESSION_PETS_BYTES, TOMBSTONE_BYTES } from '../../src/mock/state/store.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { AUTH } from '../support/http-facts.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { writeVariantSpec } from '../support/variant-spec.js';

let dir: string;
let redis: TestRedis;
let mocks: (readonly [string, RunningMock])[];

beforeAll(async () => {
  [dir, redis] = await Promise.all([mkdtemp(join(tmpdir(), 'petstore-session-pets-')), startRedis()]);
  // The variant has deletePet: a deleted seeded pet leaves a tombstone.
  const spec = await writeVariantSpec(dir);
  const flags = ['--port', '0', '--quiet', '--spec', spec];
  mocks = [
    ['memory', await startMockCli(flags)],
    ['redis', await startMockCli([...flags, '--store', redis.url])],
  ];
});
afterAll(async () => {
  await Promise.all((mocks ?? []).map(([, mock]) => mock.stop()));
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A pet of a new id whose JSON is `length` characters. */
function petOfLength(id: number, length: number): { id: number; name: string; categoryId: number; status: string } {
  const pet = { id, name: '', categoryId: 1, status: 'available' };
  return { ...pet, name: 'x'.repeat(length - JSON.stringify(pet).length) };
}

describe('a session’s own pets, in every store', () => {
  it('counts each tombstone of a deleted pet within the session’s bytes: the delete or create past them is the same 429, changing nothing; a reset makes room', async () => {
    const tombstones = 10;
    const session = 'tombstones';
    // Eight pets of 1 MB (within what the admin API takes), and one that leaves room for `tombstones` and less than one more.
    const big = 1_040_000;
    const room = SESSION_PETS_BYTES - 8 * (PET_ENTRY_BYTES + 2 * big) - tombstones * TOMBSTONE_BYTES - TOMBSTONE_BYTES / 2;
    const pets = [...Array.from({ length: 8 }, (_, i) => petOfLength(1_000 + i, big)), petOfLength(2_000, (room - PET_ENTRY_BYTES) / 2)];
    const outcomes: Record<string, unknown[]> = {};
    for (const [mode, mock] of mocks) {
      const headers = { ...AUTH, 'content-type': 'application/json', 'x-mock-session': session };
      const seen: unknown[] = [];
      for (const pet of pets) seen.push((await fetch(new URL('/__mock/pets', mock.url), { method: 'POST', headers, body: JSON.stringify(pet) })).status);
      for (let id = 1; id <= tombstones + 1; id++) seen.push((await fetch(`${mock.url}/pets/${id}`, { method: 'DELETE', headers })).status);
      const refused = await fetch(`${mock.url}/pets/${tombstones + 1}`, { headers });
      seen.push(refused.status);
      const last = await fetch(`${mock.url}/pets/${tombstones + 2}`, { method: 'DELETE', headers });
      seen.push(last.status, await last.text());
      // A create past the cap is refused alike; a reset gives the room back.
      const create = () => fetch(`${mock.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
      seen.push((await create()).status);
      seen.push((await fetch(new URL('/__mock/reset', mock.url), { method: 'POST', headers })).status, (await create()).status);
      outcomes[mode] = seen;
    }
    expect(outcomes.memory).toEqual([
      ...pets.map(() => 200),
      ...Array.from({ length: tombstones }, () => 204),
      429,
      // The pet the refused delete named is there still.
      200,
      429,
      expect.stringContaining(`more than ${SESSION_PETS_BYTES} bytes of pets of its own, its cap (SESSION_PETS_BYTES`),
      429,
      200,
      201,
    ]);
    expect(outcomes.redis).toEqual(outcomes.memory);
  });
});
