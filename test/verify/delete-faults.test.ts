/**
 * The delete of a variant spec, checked from the resource model with no code of its own: the mock
 * serving the variant passes, and each way a deployment's delete can be wrong (it removes nothing, it
 * leaves the record on a page, it skips the key, it acknowledges an absent id) fails the check named
 * for it, with a message that says what was seen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import { verify } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { compileSpec } from '../../src/openapi/ajv.js';
import type { CompiledSpec } from '../../src/openapi/bundled-model.js';
import { type Deployment, serve, type WebHandler } from '../support/deployments.js';
import { variantSpec } from '../support/variant-spec.js';

const KEY = 'petstore-dev-key';
/** The variant's default page size. */
const DEFAULT_LIMIT = 20;
let spec: CompiledSpec;
beforeAll(() => {
  spec = compileSpec(variantSpec());
});

/** A DELETE of one item: `/v1/pets/{id}`. */
function isDelete(request: Request): boolean {
  return request.method === 'DELETE' && /^\/v1\/pets\/[^/]+$/.test(new URL(request.url).pathname);
}

/** The variant's mock, with `fault` in front of it: given each request and the mock. */
function deployment(fault?: (request: Request, mock: WebHandler) => Promise<Response>): Promise<Deployment> {
  const api = createMockApi({ spec });
  const mock: WebHandler = (request) => api.fetch(request);
  return serve((request) => (fault ? fault(request, mock) : mock(request)));
}

/** A delete that answers 204 but keeps the record on every page (a page cache never told of it); reads by id see the removal. */
function keepsListing(): (request: Request, mock: WebHandler) => Promise<Response> {
  const removed: { status?: unknown }[] = [];
  return async (request, mock) => {
    if (isDelete(request)) {
      const read = await mock(new Request(request.url, { headers: request.headers }));
      const response = await mock(request);
      if (response.status === 204 && read.status === 200) removed.push((await read.json()) as { status?: unknown });
      return response;
    }
    const response = await mock(request);
    const { pathname } = new URL(request.url);
    if (request.method !== 'GET' || pathname !== '/v1/pets' || response.status !== 200) return response;
    const page = (await response.json()) as unknown[];
    // The cache keeps its filters and its limit right: a removed record shows under its own status only, within the page's size.
    const query = new URL(request.url).searchParams;
    const status = query.get('status');
    const stale = removed.filter((record) => status === null || record.status === status);
    return Response.json([...stale, ...page].slice(0, Number(query.get('limit') ?? DEFAULT_LIMIT)), { headers: response.headers });
  };
}

const CASES: Readonly<Record<string, { fault: (request: Request, mock: WebHandler) => Promise<Response>; caughtBy: string; message: RegExp; run?: RegExp }>> = {
  'a delete that answers 204 and removes nothing': {
    fault: (request, mock) => (isDelete(request) ? Promise.resolve(new Response(null, { status: 204 })) : mock(request)),
    caughtBy: 'deletePet.removes',
    message: /getPet answered 200 for the record \d+ after deletePet answered 204 for it/,
  },
  'a delete that leaves the record on every page': {
    fault: keepsListing(),
    caughtBy: 'deletePet.removes',
    message: /listPets with limit=50 lists the record \d+ after deletePet removed it/,
    // The run-wide model sees it too, on every page of every suite after the delete: one fault with the check's.
    run: /listPets lists the item \d+ after DELETE \S+ removed it/,
  },
  'a delete that skips the key': {
    fault: (request, mock) => {
      if (!isDelete(request)) return mock(request);
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${KEY}`);
      return mock(new Request(request.url, { method: 'DELETE', headers }));
    },
    caughtBy: 'auth.deletePet.refused',
    message: /deletePet answered 204 to the delete of the record \d+ without a credential/,
  },
  'a delete that acknowledges an id no record has': {
    fault: async (request, mock) => {
      const response = await mock(request);
      return isDelete(request) && response.status === 404 ? new Response(null, { status: 204 }) : response;
    },
    caughtBy: 'deletePet.absent',
    message: /deletePet answered 204 for the absent id \d+/,
  },
};

function failed(results: readonly CheckResult[]): CheckResult[] {
  return results.filter((result) => result.outcome === 'fail');
}

describe('the delete of a variant spec, checked from the resource model', () => {
  let correct: Deployment;
  beforeAll(async () => {
    correct = await deployment();
  });
  afterAll(() => correct?.close());

  it('passes the mock serving the variant: every delete check, and the run-wide model over the deletes', async () => {
    const report = await verify({ baseUrl: correct.url, apiKey: KEY, suite: 'spec', spec });
    expect(failed(report.results).map((result) => result.findings)).toEqual([]);
    const deletes = report.results.filter((result) => result.operationId === 'deletePet');
    expect(deletes.map((result) => `${result.id} ${result.outcome}`).sort()).toEqual([
      'auth.deletePet.refused pass',
      'deletePet.absent pass',
      'deletePet.not-an-id pass',
      'deletePet.removes pass',
    ]);
    expect(report.exitCode).toBe(0);
  });

  it('fuzzes the delete too: sequences that remove pets they created pass the variant, and find a removed pet left on a page', async () => {
    const fuzz = { runs: 40, seed: 11 };
    const passed = await verify({ baseUrl: correct.url, apiKey: KEY, suite: 'fuzz', fuzz, spec });
    expect(passed.results.find((result) => result.id === 'fuzz.model')?.outcome).toBe('pass');
    const faulty = await deployment(keepsListing());
    try {
      const report = await verify({ baseUrl: faulty.url, apiKey: KEY, suite: 'fuzz', fuzz, spec });
      const fuzzed = report.results.find((result) => result.id === 'fuzz.model');
      expect(fuzzed?.outcome).toBe('fail');
      expect(fuzzed?.findings[0]?.message).toMatch(/listPets \(.*\) lists the pet \d+ removed in this sequence/);
      expect(fuzzed?.findings[0]?.replay?.some((request) => request.method === 'DELETE')).toBe(true);
    } finally {
      await faulty.close();
    }
  });

  for (const [name, { fault, caughtBy, message, run }] of Object.entries(CASES)) {
    it(`fails ${name} (${caughtBy})`, async () => {
      const faulty = await deployment(fault);
      try {
        const report = await verify({ baseUrl: faulty.url, apiKey: KEY, suite: 'spec', spec });
        const caught = report.results.find((result) => result.id === caughtBy);
        expect(caught?.outcome).toBe('fail');
        expect(caught?.findings.map((finding) => finding.message).join('\n')).toMatch(message);
        if (run) {
          const removed = report.results.find((result) => result.id === 'run.removed');
          expect(removed?.findings[0]?.message).toMatch(run);
          expect(removed?.follows).toBe(caughtBy);
        }
        expect(report.exitCode).toBe(1);
      } finally {
        await faulty.close();
      }
    });
  }
});
