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
import { expectReplaces, type VariantCall } from '../support/variant-replace.js';
import { VARIANT_LIMIT_MAXIMUM, VARIANT_TAG_MAX_LENGTH, writeVariantSpec } from '../support/variant-spec.js';

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

const call: VariantCall = async (method, path, body, headers) => {
  const sent = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', ...headers };
  const response = await fetch(`${server.url}${path}`, { method, headers: sent, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
};

describe('startMockServer({ spec })', () => {
  it('serves the variant: its field kept, its bound, its delete and its replace, every answer true to it', async () => {
    const tag = 't'.repeat(VARIANT_TAG_MAX_LENGTH);
    expect(await call('POST', '/pets', { name: 'Rex', categoryId: 1, tag })).toMatchObject({ status: 201, json: { id: 11, tag } });
    expect((await call('POST', '/pets', { name: 'Rex', categoryId: 1, tag: `${tag}t` })).status).toBe(400);
    expect((await call('GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM + 1}`)).status).toBe(400);
    expect((await call('DELETE', '/pets/11')).status).toBe(204);
    await expectReplaces(call, 3);
    expect(mismatches).toEqual([]);
  });
});
