import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadContract } from '../contract.js';
import { KEY_PLACEHOLDER, type ObservedExchange } from '../http.js';
import { CoverageRecorder, coverageRows } from './coverage-reporter.js';

const BASE = 'https://staging.example.com/v1';
const contract = await loadContract();

/** The spec read as plain YAML, not through src/openapi: what each operation documents, by operationId. */
const spec = parse(await readFile(new URL('../../../spec/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: { schemas: { PetStatus: { enum: string[] } } };
};
const documented = Object.values(spec.paths).flatMap((item) =>
  Object.values(item).map((operation) => [operation.operationId, Object.keys(operation.responses).map(Number)] as const),
);

function exchange(method: string, pathAndQuery: string, status: number, body?: unknown): ObservedExchange {
  return {
    request: {
      method,
      url: `${BASE}${pathAndQuery}`,
      headers: { authorization: `Bearer ${KEY_PLACEHOLDER}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    status,
    headers: [['content-type', 'application/json']],
    text: '{}',
    startedAt: 0,
    ms: 1,
  };
}

function recorded(...exchanges: ObservedExchange[]) {
  const recorder = new CoverageRecorder(contract, `${BASE}/`);
  for (const one of exchanges) recorder.observe(one);
  return recorder.coverage();
}

describe('the coverage of a run', () => {
  it('lists every operation and every status the spec documents, unexercised before any request', () => {
    const coverage = recorded();
    expect(coverage.operations.map((operation) => [operation.operationId, operation.statuses.map((status) => status.status)])).toEqual(documented);
    expect(coverage.operations.flatMap((operation) => operation.statuses).every((status) => status.documented && !status.exercised)).toBe(true);
    expect(coverage.totals.statuses).toEqual({ documented: documented.flatMap(([, statuses]) => statuses).length, exercised: 0 });
  });

  it("lists each enum value of the spec's parameters and body fields", () => {
    const { operations } = recorded();
    const values = (operationId: string, name: string) =>
      operations
        .find((operation) => operation.operationId === operationId)
        ?.parameters.find((parameter) => parameter.name === name)
        ?.values?.map((value) => value.value);
    expect(values('listPets', 'status')).toEqual(spec.components.schemas.PetStatus.enum);
    expect(values('createPet', 'status')).toEqual(spec.components.schemas.PetStatus.enum);
    expect(values('listPets', 'limit')).toBeUndefined();
  });

  it('marks what was sent and what the deployment answered, by status, parameter and enum value', () => {
    const coverage = recorded(
      exchange('GET', '/pets?status=available&limit=5', 200),
      exchange('GET', '/pets?status=available', 200),
      exchange('GET', '/pets?status=AVAILABLE', 400),
      exchange('GET', '/pets', 404),
      exchange('GET', '/pets/1000abc', 400),
      exchange('POST', '/pets', 201, { name: 'Rex', categoryId: 3, status: 'sold' }),
    );
    const [list, create, get] = coverage.operations;
    expect(list?.requests).toBe(4);
    expect(list?.statuses.find((status) => status.status === 200)).toEqual({
      status: 200,
      documented: true,
      exercised: true,
      responses: 2,
      example: `GET ${BASE}/pets?status=available&limit=5`,
    });
    expect(list?.statuses.at(-1)).toMatchObject({ status: 404, documented: false, exercised: true, responses: 1 });
    const status = list?.parameters.find((parameter) => parameter.name === 'status');
    expect(status).toMatchObject({ in: 'query', exercised: true, requests: 3, answered: { 200: 2, 400: 1 }, outsideEnum: 1 });
    expect(status?.values).toEqual([
      { value: 'available', exercised: true, requests: 2, answered: { 200: 2 } },
      { value: 'pending', exercised: false, requests: 0, answered: {} },
      { value: 'sold', exercised: false, requests: 0, answered: {} },
    ]);
    expect(create?.parameters.find((parameter) => parameter.name === 'status')?.values?.find((value) => value.value === 'sold')).toMatchObject({
      exercised: true,
      answered: { 201: 1 },
    });
    expect(get?.parameters).toEqual([{ name: 'petId', in: 'path', required: true, exercised: true, requests: 1, answered: { 400: 1 } }]);
    // listPets 200 and 400, createPet 201, getPet 400: the undocumented 404 is not counted among the documented.
    expect(coverage.totals.statuses.exercised).toBe(4);
  });

  it('counts the requests that match no operation (another spelling, another method, another host) apart', () => {
    const coverage = recorded(exchange('GET', '/pets/', 401), exchange('DELETE', '/pets', 405), {
      ...exchange('GET', '/pets', 200),
      request: { method: 'GET', url: 'https://other.example.com/v1/pets', headers: {} },
    });
    expect(coverage.unmatched).toEqual({ requests: 3, answered: { 401: 1, 405: 1, 200: 1 } });
    expect(coverage.totals.operations.exercised).toBe(0);
  });

  it('gives each status, parameter and enum value a row for the reports', () => {
    const [list] = recorded(exchange('GET', '/pets?status=sold', 200), exchange('GET', '/pets', 418)).operations;
    const rows = list ? coverageRows(list) : [];
    expect(rows.map((row) => row.what)).toEqual([
      'status 200',
      'status 400',
      'status 401',
      'status 429',
      'status 500',
      'status 503',
      'status 418 (not documented)',
      'query limit',
      'query status',
      'query status = available',
      'query status = pending',
      'query status = sold',
    ]);
    expect(rows.find((row) => row.what === 'query status = sold')).toEqual({ what: 'query status = sold', exercised: true, answered: '200' });
    expect(rows.find((row) => row.what.startsWith('status 418'))?.undocumented).toBe(true);
  });
});
