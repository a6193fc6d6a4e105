/**
 * `petstore-mock --spec FILE`: a variant of the interface (an optional `tag`, `limit` capped at 50,
 * `deletePet`, `replacePet`) served by the real command with no code of its own, every answer checked against the
 * variant by the mock's self-check, in memory and in every Redis mode (one process, `--workers 2`,
 * two processes on one Redis); and the refusals, each with a sentence and exit 2. Needs `dist/` and
 * Debian's redis-server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { expectReplaces, expectServed, type VariantCall, variantCall } from '../support/variant-replace.js';
import { nodeAt, VARIANT_LIMIT_MAXIMUM, VARIANT_TAG_MAX_LENGTH, variantSpec, writeVariantSpec } from '../support/variant-spec.js';

let dir: string;
let path: string;
let mock: RunningMock;
let redis: TestRedis;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-spec-'));
  path = await writeVariantSpec(dir);
  [mock, redis] = await Promise.all([startMockCli(['--port', '0', '--spec', path, '--self-check', '--quiet']), startRedis()]);
});
afterAll(async () => {
  await Promise.all([mock?.stop(), redis?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

/** A request to `on`, with the key. */
function call(on: RunningMock, method: string, target: string, body?: unknown): ReturnType<VariantCall> {
  return variantCall(() => on.url)(method, target, body);
}

/**
 * The variant served statefully: a valid tag kept, the new bound, a deleted pet (created or seeded)
 * 404 and gone from every page and filter, its id never given again. Each change is made through
 * `write` and read back through `read` at once (two replicas of one Redis, or one mock twice).
 */
async function servesTheVariant(write: RunningMock, read: RunningMock): Promise<void> {
  const tag = 't'.repeat(VARIANT_TAG_MAX_LENGTH);
  const created = await call(write, 'POST', '/pets', { name: 'Rex', categoryId: 3, status: 'sold', tag });
  expect(created).toEqual({ status: 201, json: { id: 51, name: 'Rex', categoryId: 3, status: 'sold', tag } });
  expect(await call(read, 'GET', '/pets/51')).toEqual({ status: 200, json: created.json });
  expect((await call(read, 'GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM + 1}`)).status).toBe(400);
  const seeded = (await call(read, 'GET', '/pets?status=sold&limit=1')).json as { id: number }[];
  const gone = [51, seeded[0]?.id ?? 0];
  for (const id of gone) {
    expect((await call(write, 'DELETE', `/pets/${id}`)).status, `DELETE /pets/${id}`).toBe(204);
    expect((await call(read, 'GET', `/pets/${id}`)).status, `GET /pets/${id}`).toBe(404);
    expect((await call(read, 'DELETE', `/pets/${id}`)).status, `DELETE /pets/${id} again`).toBe(404);
  }
  for (const query of [
    `limit=${VARIANT_LIMIT_MAXIMUM}`,
    ...['sold', 'available', 'pending'].map((status) => `status=${status}&limit=${VARIANT_LIMIT_MAXIMUM}`),
  ]) {
    const page = (await call(read, 'GET', `/pets?${query}`)).json as { id: number }[];
    expect(
      page.filter((pet) => gone.includes(pet.id)),
      query,
    ).toEqual([]);
  }
  expect((await call(write, 'POST', '/pets', { name: 'Gus', categoryId: 1 })).json).toMatchObject({ id: 52 });
}

describe('petstore-mock --spec', () => {
  it('says what it serves, and serves the variant: a valid tag kept, the new bound, a deleted pet gone from every page and filter', async () => {
    expect(mock.stdout()).toContain(`serving ${path}`);
    await servesTheVariant(mock, mock);
    // Every answer kept the variant: the self-check would have logged a mismatch and answered 500.
    expect(mock.stderr()).not.toContain('self-check');
  });

  it('serves its replace: a replaced pet read back, listed and filtered by its new values, every answer true to the variant', async () => {
    await expectReplaces(
      variantCall(() => mock.url),
      7,
    );
    expect(mock.stderr()).not.toContain('self-check');
  });

  it('keeps replaced and removed pets, seeded and created, exactly across a restart with --state', async () => {
    const state = join(dir, 'state.json');
    const args = ['--port', '0', '--spec', path, '--state', state, '--self-check', '--quiet'];
    let running = await startMockCli(args);
    const restarted = variantCall(() => running.url);
    const replaced = await expectReplaces(restarted, 4);
    expect((await restarted('DELETE', '/pets/5')).status).toBe(204);
    const before = (await restarted('GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM}`)).json;
    await running.stop();
    running = await startMockCli(args);
    try {
      await expectServed(restarted, replaced);
      expect((await restarted('GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM}`)).json).toEqual(before);
      expect((await restarted('GET', '/pets/5')).status).toBe(404);
      // Ids stay taken after the restart: the pets created and removed before it are numbered past.
      expect((await restarted('POST', '/pets', { name: 'After', categoryId: 1 })).json).toMatchObject({ id: 54 });
      expect(running.stderr()).not.toContain('self-check');
    } finally {
      await running.stop();
    }
  });

  it('serves the variant statefully with --store: one process, and two on one Redis, each change read at once on the other', async () => {
    const store = ['--port', '0', '--spec', path, '--self-check', '--quiet', '--store', redis.url];
    const one = await startMockCli([...store, '--namespace', 'one']);
    try {
      await servesTheVariant(one, one);
      expect(one.stderr()).not.toContain('self-check');
    } finally {
      await one.stop();
    }
    const two = await Promise.all([startMockCli([...store, '--namespace', 'two']), startMockCli([...store, '--namespace', 'two'])]);
    try {
      await servesTheVariant(two[0], two[1]);
      for (const replica of two) expect(replica.stderr()).not.toContain('self-check');
    } finally {
      await Promise.all(two.map((replica) => replica.stop()));
    }
  });

  it('serves the variant statefully with --store and --workers 2', async () => {
    const workers = await startMockCli([
      '--port',
      '0',
      '--spec',
      path,
      '--self-check',
      '--quiet',
      '--store',
      redis.url,
      '--namespace',
      'workers',
      '--workers',
      '2',
    ]);
    try {
      await servesTheVariant(workers, workers);
      expect(workers.stderr()).not.toContain('self-check');
    } finally {
      await workers.stop();
    }
  });

  it('refuses a replica that serves another spec than the namespace holds (exit 2)', async () => {
    const bundled = await runCli('petstore-mock', ['--port', '0', '--store', redis.url, '--namespace', 'one']);
    expect(bundled.code).toBe(2);
    expect(bundled.stderr).toMatch(
      /namespace one in Redis holds the pets of a spec of hash \S+, not those of this mock's bundled spec: start every replica with the same --spec/,
    );
  });

  it('refuses a spec with an operation of no known kind, naming it and what would make it one (exit 2)', async () => {
    const doc = variantSpec();
    nodeAt(doc, 'paths', '/pets/{petId}').post = { operationId: 'adoptPet', responses: { '200': { description: 'adopted' } } };
    const odd = join(dir, 'odd.yaml');
    await writeFile(odd, stringify(doc));
    const result = await runCli('petstore-mock', ['--port', '0', '--spec', odd]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /POST \/pets\/\{petId\} \(adoptPet\) is of no kind the mock knows: on an item path the mock knows GET .*\(a delete\)\. Fix the spec, or serve the bundled one without --spec\./,
    );
  });

  // The red team's spec: `minLength: 1000000000` on NewPet.name exhausted the heap after 56 s of seeding (red team 10 #3).
  it('refuses a record no create could carry, by the lower bounds of its fields: the mock and the verifier (exit 2)', async () => {
    const doc = variantSpec();
    nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties').name = { type: 'string', minLength: 1_000_000_000 };
    const huge = join(dir, 'huge-name.yaml');
    await writeFile(huge, stringify(doc));
    for (const [cli, flags] of [
      ['petstore-mock', ['--port', '0', '--spec']],
      ['petstore-verify', ['-u', 'http://127.0.0.1:1/v1', '-k', 'some-key-0123456789', '--suite', 'spec', '--spec']],
    ] as const) {
      const refused = await runCli(cli, [...flags, huge]);
      expect([refused.code, refused.stderr], cli).toEqual([
        2,
        expect.stringMatching(
          /a Pet takes at least \d+ bytes of JSON by the lower bounds of its fields \(minLength, minItems: name 1000000002\), more than the 1048576 bytes createPet accepts/,
        ),
      ]);
    }
  });

  // The red team's spec: `x-faker: { string.alpha: { length: 100000000 } }` drew 3.3 GB before the mock listened (red team 11 #2);
  // such a count is now refused before the draw (spec-faker-bounds.test.ts). What is drawn is measured in bytes too: 600,000 euro signs are 1.8 MB.
  it('refuses a seed whose x-faker draws a record no create could carry, with a sentence (exit 2)', async () => {
    const doc = variantSpec();
    nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties').name = { type: 'string', 'x-faker': { 'string.fromCharacters': ['€', 600_000] } };
    const drawn = join(dir, 'long-faker.yaml');
    await writeFile(drawn, stringify(doc));
    const refused = await runCli('petstore-mock', ['--port', '0', '--spec', drawn, '--count', '3']);
    expect([refused.code, refused.stderr]).toEqual([
      2,
      expect.stringMatching(
        /a seeded record drew \d+ bytes of JSON text, more than the 1048576 bytes a create accepts: an x-faker asks for values no client could send/,
      ),
    ]);
  });

  /** The variant with PetStatus reached through a chain of `links` $refs (PetStatus -> C1 -> ... -> the schema), or a cycle back to PetStatus. */
  async function chained(name: string, links: number, cycle = false): Promise<string> {
    const doc = variantSpec();
    const schemas = nodeAt(doc, 'components', 'schemas');
    const status = schemas.PetStatus;
    const at = (index: number) => `#/components/schemas/C${index}`;
    schemas.PetStatus = { $ref: at(1) };
    for (let index = 1; index < links; index++)
      schemas[`C${index}`] = { $ref: index === links - 1 && cycle ? '#/components/schemas/PetStatus' : at(index + 1) };
    schemas[`C${links}`] = status;
    const file = join(dir, name);
    await writeFile(file, stringify(doc));
    return file;
  }

  // The red team's spec: a chain of 3,000 links, no cycle, was refused as "reference cycle at #/components/schemas/C32".
  it('follows a chain of $refs up to 64 links, refuses a longer one saying so and a cycle as a cycle: the mock and the verifier (exit 2)', async () => {
    const long = await chained('long-chain.yaml', 3_000);
    const loop = await chained('loop.yaml', 40, true);
    for (const [cli, flags] of [
      ['petstore-mock', ['--port', '0', '--spec']],
      ['petstore-verify', ['-u', 'http://127.0.0.1:1/v1', '-k', 'some-key-0123456789', '--suite', 'spec', '--spec']],
    ] as const) {
      const refused = await runCli(cli, [...flags, long]);
      expect([refused.code, refused.stderr], cli).toEqual([2, expect.stringMatching(/--spec .*long-chain\.yaml: more than 64 \$ref links in a chain \(/)]);
      expect(refused.stderr).not.toMatch(/cycle/);
      const looped = await runCli(cli, [...flags, loop]);
      expect([looped.code, looped.stderr], cli).toEqual([
        2,
        expect.stringMatching(/--spec .*loop\.yaml: reference cycle at #\/components\/schemas\/PetStatus: /),
      ]);
    }
    // 63 links from PetStatus, 64 from a $ref naming it: served.
    const served = await startMockCli(['--port', '0', '--quiet', '--spec', await chained('chain.yaml', 63)]);
    try {
      expect((await call(served, 'GET', '/pets?status=sold')).status).toBe(200);
    } finally {
      await served.stop();
    }
  });

  it('refuses --spec beside the modes that serve the bundled spec alone (exit 2)', async () => {
    const data = join(dir, 'pets.json');
    await writeFile(data, JSON.stringify([{ id: 1, name: 'Rex', categoryId: 1 }]));
    const result = await runCli('petstore-mock', ['--port', '0', '--spec', path, '--data', data]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--spec cannot go with --data yet');
  });
});
