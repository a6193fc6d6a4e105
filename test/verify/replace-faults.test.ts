/**
 * A replace (PUT on an item) added to a variant spec is checked from the resource model with no code
 * of its own. The deployment here is a fake written for the test, so that each way a replace can be
 * wrong can be made: the variant's mock behind a PUT of its own, which puts the replacement into the
 * mock's store. It passes; each way a replace can be wrong fails the check named for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../src/contracts/runner.js';
import { parseJson, stringifyJson } from '../../src/json/lossless.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import type { StoredPet } from '../../src/mock/state/store.js';
import { compileSpec } from '../../src/openapi/ajv.js';
import type { CompiledSpec } from '../../src/openapi/bundled-model.js';
import { type Deployment, serve, type WebHandler } from '../support/deployments.js';
import { variantSpec } from '../support/variant-spec.js';

const KEY = 'petstore-dev-key';
type Pet = Record<string, unknown>;

/** A JSON answer with its integers exact (an int64 beyond 2^53 included). */
function exactJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(stringifyJson(body), { status, headers: { ...headers, 'content-type': 'application/json' } });
}

/** A JSON body read with its integers exact. */
async function exactBody<T>(response: Request | Response): Promise<T> {
  return parseJson(await response.text()) as T;
}

/** How the fake's PUT goes wrong, if it does. */
interface Faults {
  /** Answers 200 with the replacement and stores nothing. */
  readonly storesNothing?: boolean;
  /** Stores the replacement without this field. */
  readonly drops?: string;
  /** Takes a PUT without the key. */
  readonly skipsKey?: boolean;
}

/** The variant's mock (no PUT of its own) behind a PUT that puts the replacement into the mock's store. */
function fakeDeployment(spec: CompiledSpec, faults: Faults = {}): Promise<Deployment> {
  const api = createMockApi({ spec });
  const mock: WebHandler = (request) => api.fetch(request);
  const validate = spec.validators('createPetBody');
  return serve(async (request) => {
    if (request.method !== 'PUT' || !/^\/v1\/pets\/[^/]+$/.test(new URL(request.url).pathname)) return mock(request);
    const headers = new Headers(request.headers);
    if (faults.skipsKey) headers.set('authorization', `Bearer ${KEY}`);
    // The mock's read says whether the key is right and the record exists (401, 400, 404 as it answers them).
    const current = await mock(new Request(request.url, { headers }));
    if (current.status !== 200) return current;
    // The item's headers (the read's Deprecation, Sunset and Link) on every answer of the PUT too, as
    // a deployment that sets them for the item path does: the spec documents them on each.
    const itemHeaders = Object.fromEntries([...current.headers].filter(([name]) => !name.startsWith('content-')));
    const body = await exactBody<unknown>(request).catch(() => undefined);
    // The validator fills in what the server stores for a field left out (`x-server-default`), as a create does.
    if (validate === undefined || !validate(body))
      return exactJson(400, { code: 'bad_request', message: 'the body is not a NewPet', status: 400 }, itemHeaders);
    const { [faults.drops ?? '']: _dropped, ...kept } = body as Pet;
    const record = { id: (await exactBody<Pet>(current)).id, ...kept };
    if (!faults.storesNothing) await api.store.put([record as unknown as StoredPet]);
    return exactJson(200, record, itemHeaders);
  });
}

describe('a replace of a variant spec, checked from the resource model', () => {
  let spec: CompiledSpec;
  let correct: Deployment;
  beforeAll(async () => {
    // The variant has replacePet: PUT /pets/{petId} with a NewPet, answering the Pet (200), 400, 401 or 404.
    spec = compileSpec(variantSpec());
    correct = await fakeDeployment(spec);
  });
  afterAll(() => correct?.close());

  it('passes a correct replace: every replace check, and the run-wide model over the replaced records', async () => {
    const report = await verify({ baseUrl: correct.url, apiKey: KEY, suite: 'spec', spec });
    expect(report.results.filter((result) => result.outcome === 'fail').map((result) => [result.id, result.findings])).toEqual([]);
    const replaces = report.results.filter((result) => result.operationId === 'replacePet');
    expect(replaces.map((result) => `${result.id} ${result.outcome}`).sort()).toEqual([
      'replacePet.absent pass',
      'replacePet.refused pass',
      'replacePet.replaces pass',
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('skips every replace under --read-only: a PUT is a write', async () => {
    const report = await verify({ baseUrl: correct.url, apiKey: KEY, suite: 'spec', spec, readOnly: true });
    expect(report.writes).toBe(0);
    const replaces = report.results.filter((result) => result.operationId === 'replacePet');
    expect(replaces.map((result) => result.outcome)).toEqual(['skip', 'skip', 'skip']);
  });

  const CASES: Readonly<Record<string, { faults: Faults; caughtBy: string; message: RegExp }>> = {
    'a replace acknowledged and not stored': {
      faults: { storesNothing: true },
      caughtBy: 'replacePet.replaces',
      message: /getPet answered the record \d+ after replacePet answered 200 to its replacement with other name, status, tag/,
    },
    'a replace that drops tag': {
      faults: { drops: 'tag' },
      caughtBy: 'replacePet.replaces',
      message: /replacePet answered the record \d+ with other tag than it was sent/,
    },
    'a replace taken without the key': {
      faults: { skipsKey: true },
      caughtBy: 'replacePet.refused',
      message: /replacePet answered 200 to a replacement of the record \d+ without a credential/,
    },
  };
  for (const [name, { faults, caughtBy, message }] of Object.entries(CASES)) {
    it(`fails ${name} (${caughtBy})`, async () => {
      const faulty = await fakeDeployment(spec, faults);
      try {
        const report = await verify({ baseUrl: faulty.url, apiKey: KEY, suite: 'spec', spec });
        const caught = report.results.find((result) => result.id === caughtBy);
        expect(caught?.outcome).toBe('fail');
        expect(caught?.findings.map((finding) => finding.message).join('\n')).toMatch(message);
        expect(report.exitCode).toBe(1);
      } finally {
        await faulty.close();
      }
    });
  }
});
