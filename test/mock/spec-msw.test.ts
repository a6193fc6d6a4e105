/**
 * `spec` in `createHandlers`: MSW handlers of a variant of the interface, served with no code of their
 * own (its tag kept, its bound, its delete and its replace), every answer checked against the variant.
 * A file of its own: MSW patches this worker's global fetch while the handlers listen.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/index.js';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { expectVariantServed, variantCall } from '../support/variant-replace.js';
import { variantSpec } from '../support/variant-spec.js';

const API = 'https://api.example.test/v1';
const mismatches: string[] = [];
const api = createHandlers({ baseUrl: API, spec: compileSpec(variantSpec()), count: 10, selfCheck: (mismatch) => mismatches.push(mismatch) });
const server = setupServer(...api);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const call = variantCall(() => API);

describe('createHandlers({ spec })', () => {
  it('serves the variant: its field kept, its bound, its delete and its replace, every answer true to it', async () => {
    await expectVariantServed(call);
    expect(mismatches).toEqual([]);
  });

  it('puts the variant’s pets back on reset: a replaced pet is the seed’s again', async () => {
    const before = (await call('GET', '/pets/4')).json;
    expect((await call('PUT', '/pets/4', { name: 'Other', categoryId: 2 })).status).toBe(200);
    await api.reset();
    expect((await call('GET', '/pets/4')).json).toEqual(before);
  });
});
