/**
 * `spec` in `startMockServer`, as the package exports it: a variant of the interface loaded with
 * `loadSpecFile` and `compileSpec`, served over HTTP with no code of its own (its tag kept, its bound,
 * its delete and its replace), every answer checked against the variant by the self-check.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpec, loadSpecFile, type MockServer, startMockServer } from '../../src/index.js';
import { expectVariantServed, variantCall } from '../support/variant-replace.js';
import { writeVariantSpec } from '../support/variant-spec.js';

let dir: string;
let server: MockServer;
const mismatches: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-spec-server-'));
  const spec = compileSpec(await loadSpecFile(await writeVariantSpec(dir)));
  server = await startMockServer({ port: 0, spec, count: 10, selfCheck: (mismatch) => mismatches.push(mismatch) });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = variantCall(() => server.url);

describe('startMockServer({ spec })', () => {
  it('serves the variant: its field kept, its bound, its delete and its replace, every answer true to it', async () => {
    await expectVariantServed(call);
    expect(mismatches).toEqual([]);
  });
});
