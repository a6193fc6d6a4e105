/**
 * `spec` in `createHandlers`: MSW handlers of a variant of the interface, served with no code of their
 * own (its tag kept, its bound, its delete and its replace), every answer checked against the variant.
 * A file of its own: MSW patches this worker's global fetch while the handlers listen.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/index.js';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { expectReplaces, type VariantCall } from '../support/variant-replace.js';
import { VARIANT_LIMIT_MAXIMUM, VARIANT_TAG_MAX_LENGTH, variantSpec } from '../support/variant-spec.js';

const API = 'https://api.example.test/v1';
const mismatches: string[] = [];
const api = createHandlers({ baseUrl: API, spec: compileSpec(variantSpec()), count: 10, selfCheck: (mismatch) => mismatches.push(mismatch) });
const server = setupServer(...api);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const call: VariantCall = async (method, path, body, headers) => {
  const sent = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', ...headers };
  const response = await fetch(`${API}${path}`, { method, headers: sent, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
};

describe('createHandlers({ spec })', () => {
  it('serves the variant: its field kept, its bound, its delete and its replace, every answer true to it', async () => {
    const tag = 't'.repeat(VARIANT_TAG_MAX_LENGTH);
    expect(await call('POST', '/pets', { name: 'Rex', categoryId: 1, tag })).toMatchObject({ status: 201, json: { id: 11, tag } });
    expect((await call('POST', '/pets', { name: 'Rex', categoryId: 1, tag: `${tag}t` })).status).toBe(400);
    expect((await call('GET', `/pets?limit=${VARIANT_LIMIT_MAXIMUM + 1}`)).status).toBe(400);
    expect((await call('DELETE', '/pets/11')).status).toBe(204);
    await expectReplaces(call, 3);
    expect(mismatches).toEqual([]);
  });

  it('puts the variant’s pets back on reset: a replaced pet is the seed’s again', async () => {
    const before = (await call('GET', '/pets/4')).json;
    expect((await call('PUT', '/pets/4', { name: 'Other', categoryId: 2 })).status).toBe(200);
    await api.reset();
    expect((await call('GET', '/pets/4')).json).toEqual(before);
  });
});
