/**
 * `petstore-mock --spec FILE`: a variant of the interface (an optional `tag`, `limit` capped at 50,
 * `deletePet`, `replacePet`) served by the real command with no code of its own, every answer checked against the
 * variant by the mock's self-check; and the refusals, each with a sentence and exit 2.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { expectReplaces, expectServed, variantCall } from '../support/variant-replace.js';
import { nodeAt, VARIANT_LIMIT_MAXIMUM, VARIANT_TAG_MAX_LENGTH, variantSpec, writeVariantSpec } from '../support/variant-spec.js';

let dir: string;
let path: string;
let mock: RunningMock;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-spec-'));
  path = await writeVariantSpec(dir);
  mock = await startMockCli(['--port', '0', '--spec', path, '--self-check', '--quiet']);
});
afterAll(async () => {
  await mock?.stop();
  await rm(dir, { recursive: true, force: true });
});

const call = variantCall(() => mock.url);

describe('petstore-mock --spec', () => {
  it('says what it serves, and serves the variant: a valid tag kept, the new bound, a deleted pet gone from every page and filter', async () => {
    expect(mock.stdout()).toContain(`serving ${path}`);
    const tag = 't'.repeat(VARIANT_TAG_MAX_LENGTH);
    const created = await call('POST', '/pets', { name: 'Rex', categoryId: 3, status: 'sold', tag });
    expect(created).toEqual({ status: 201, json: { id: 51, name: 'Rex', categoryId: 3, status: 'sold', tag } });
    expect(await call('GET', '/pets/51')).toEqual({ status: 200, json: created.json });
    expect((await call('GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM + 1}`)).status).toBe(400);
    expect((await call('DELETE', '/pets/51')).status).toBe(204);
    expect((await call('GET', '/pets/51')).status).toBe(404);
    for (const query of [`limit=${VARIANT_LIMIT_MAXIMUM}`, `status=sold&limit=${VARIANT_LIMIT_MAXIMUM}`]) {
      const page = (await call('GET', `/pets?${query}`)).json as { id: number }[];
      expect(page.some((pet) => pet.id === 51)).toBe(false);
    }
    expect((await call('POST', '/pets', { name: 'Gus', categoryId: 1 })).json).toMatchObject({ id: 52 });
    // Every answer kept the variant: the self-check would have logged a mismatch and answered 500.
    expect(mock.stderr()).not.toContain('self-check');
  });

  it('serves its replace: a replaced pet read back, listed and filtered by its new values, every answer true to the variant', async () => {
    await expectReplaces(call, 7);
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

  it('refuses --spec beside the modes that serve the bundled spec alone (exit 2)', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--spec', path, '--store', 'redis://127.0.0.1:1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--spec cannot go with --store yet');
  });
});
