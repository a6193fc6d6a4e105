/**
 * A seed no create could carry is refused the same way whatever store keeps the pets: `petstore-mock
 * --store redis://…` draws or reads the seed as memory mode does, and stops with the same sentence and
 * exit 2, leaving nothing in Redis: not even its seeding lock, which would hold the next replica to start
 * 30 s. Needs `dist/` and Debian's redis-server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { nodeAt, variantSpec } from '../support/variant-spec.js';

let dir: string;
let redis: TestRedis;
beforeAll(async () => {
  [dir, redis] = await Promise.all([mkdtemp(join(tmpdir(), 'petstore-redis-seed-')), startRedis()]);
});
afterAll(async () => {
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The variant with NewPet.name drawn by `hint`, written to a file. */
async function drawnBy(name: string, hint: unknown): Promise<string> {
  const doc = variantSpec();
  nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties').name = { type: 'string', 'x-faker': hint };
  const file = join(dir, name);
  await writeFile(file, stringify(doc));
  return file;
}

describe('petstore-mock --store redis: an oversized seed record', () => {
  it('is refused exactly as in memory: exit 2, the same sentence, no key left in Redis', async () => {
    const data = join(dir, 'control-characters.json');
    // A million U+0001: a million characters, six million bytes answered.
    await writeFile(data, JSON.stringify([{ id: 1, name: '\u0001'.repeat(1_000_000), categoryId: 1, status: 'available' }]));
    const cases = [
      // Measured after the draw: 600,000 euro signs are 1.8 MB of JSON.
      ['--spec', await drawnBy('euros.yaml', { 'string.fromCharacters': ['€', 600_000] }), '--count', '3'],
      // Held as faker asks for it: a { min, max } count past the create's bytes.
      ['--spec', await drawnBy('sample.yaml', { 'string.sample': [{ min: 2_000_000, max: 2_000_000 }] }), '--count', '3'],
      ['--data', data],
    ];
    const client = new Redis(redis.url);
    try {
      for (const args of cases) {
        const [memory, stored] = await Promise.all([
          runCli('petstore-mock', ['--port', '0', '--quiet', ...args]),
          runCli('petstore-mock', ['--port', '0', '--quiet', '--store', redis.url, ...args]),
        ]);
        expect(memory.code, args.join(' ')).toBe(2);
        expect(memory.stderr, args.join(' ')).toMatch(/more than the 1048576 bytes a create accepts/);
        expect([stored.code, stored.stderr], args.join(' ')).toEqual([memory.code, memory.stderr]);
        expect(await client.keys('*'), args.join(' ')).toEqual([]);
      }
    } finally {
      client.disconnect();
    }
  });
});
