/**
 * A `--spec` variant whose status enum lists 90,003 values (the tenth attack, #8 and #9): the mock
 * serves it and its coverage answer stays within `ANSWER_BYTES` (it answered 38.6 MB), naming the
 * exercised values first and counting the others; the verifier ends at its `--deadline` with its
 * report and its coverage file written (it kept a core busy for minutes, no report, building a body
 * per enum value before sending the first). Over HTTP, through the CLI the user runs.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_BYTES } from '../../src/bounds/budget.js';
import { NAMED_VALUE_BYTES, VALUES_NAMED } from '../../src/bounds/values-named.js';
import { ENUM_VALUES_TRIED } from '../../src/contracts/run-bounds.js';
import { openapi } from '../../src/generated/openapi.js';
import { compileSpec, type MockServer, startMockServer } from '../../src/index.js';
import type { CoverageReport } from '../../src/mock/state/coverage.js';
import { validatorSchemas } from '../../src/openapi/schemas.js';
import { runCli } from '../support/cli.js';

const WIDE = 90_000;
/** 97 characters each, as the attack's. */
const wideValue = (index: number) => `v${String(index).padStart(6, '0')}${'x'.repeat(90)}`;

let dir: string;
let specFile: string;
let server: MockServer;
let doc: Parameters<typeof compileSpec>[0];

beforeAll(async () => {
  const wide = structuredClone(openapi) as unknown as { components: { schemas: { PetStatus: { enum: string[] }; Pets: { maxItems?: number } } } };
  wide.components.schemas.PetStatus.enum.push(...Array.from({ length: WIDE }, (_, index) => wideValue(index)));
  // A page holds at most the 100 pets `limit` allows: each pet's status is compared with 90,003 values, and a
  // list of no bound is refused at load (a 5 MiB page would ask for billions of comparisons, schema-cost.ts).
  wide.components.schemas.Pets.maxItems = 100;
  doc = wide as unknown as Parameters<typeof compileSpec>[0];
  dir = await mkdtemp(join(tmpdir(), 'petstore-wide-enum-'));
  specFile = join(dir, 'wide-enum.json');
  await writeFile(specFile, JSON.stringify(doc));
  server = await startMockServer({ port: 0, count: 5, spec: compileSpec(doc) });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const key = { authorization: 'Bearer petstore-dev-key' };

describe('a spec whose enum lists 90,003 values', () => {
  it('has each of its validators compiled within seconds of CPU, not ajv’s walk of each value’s characters for a $ref', () => {
    const started = process.cpuUsage();
    const { validators } = compileSpec(doc);
    for (const name of Object.keys(validatorSchemas(doc))) expect(validators(name), name).toBeTypeOf('function');
    const { user, system } = process.cpuUsage(started);
    const ms = (user + system) / 1000;
    console.info(`every validator of the wide spec compiled in ${ms.toFixed(0)} ms of CPU`);
    // CPU time, which other processes do not stretch: 0.1 to 0.2 s; 3 to 9 s when ajv looked for a $ref
    // in each of the enum's strings, a character at a time, for each reference to it (src/openapi/ajv.ts).
    expect(ms).toBeLessThan(1_500);
  });

  it('the mock answers GET /__mock/coverage within ANSWER_BYTES: the exercised values named first, the others counted, every count exact', {
    timeout: 120_000,
  }, async () => {
    const late = wideValue(WIDE - 1);
    expect((await fetch(`${server.url}/pets?status=${late}`, { headers: key })).status).toBe(200);
    const answer = await fetch(`${server.url.replace(/\/v1$/, '')}/__mock/coverage`);
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ANSWER_BYTES);
    const report = JSON.parse(text) as CoverageReport;
    const listPets = report.operations.find((operation) => operation.operationId === 'listPets');
    const named = listPets?.enums['query.status'] ?? {};
    expect(Object.keys(named)).toHaveLength(VALUES_NAMED);
    // The one value a client sent, the last of the enum, is named with its count.
    expect(named[late]).toBe(1);
    expect(listPets?.unnamed?.['query.status']).toEqual({ exercised: 0, never: WIDE + 3 - VALUES_NAMED });
    expect(listPets?.missed.filter((what) => what.startsWith('query.status='))).toHaveLength(VALUES_NAMED - 1);
    // The totals count every value, named or not: two inputs of 90,003 values.
    expect(report.total).toBeGreaterThan(2 * (WIDE + 3));
    expect(report.covered).toBeGreaterThanOrEqual(2);
  });

  it('the verifier ends at its --deadline, its report and --coverage written, the coverage naming at most VALUES_NAMED values of an input', {
    timeout: 240_000,
  }, async () => {
    const report = join(dir, 'report.json');
    const coverage = join(dir, 'coverage.json');
    // The attack's run never ended (killed at 500 s, no report); the test's timeout is the wide bound.
    const run = await runCli('petstore-verify', [
      '-u',
      server.url,
      '-k',
      'petstore-dev-key',
      '--spec',
      specFile,
      '--suite',
      'spec',
      '--deadline',
      '120000',
      '--reporter',
      'json',
      '-o',
      report,
      '--coverage',
      coverage,
    ]);
    expect([0, 1, 2]).toContain(run.code);
    expect(JSON.parse(await readFile(report, 'utf8'))).toBeTypeOf('object');
    // The checks try the first ENUM_VALUES_TRIED values of an enum, not one request per value until the deadline.
    const lists = (await server.mock.requests()).filter((entry) => entry.method === 'GET' && entry.path === '/v1/pets');
    const late = wideValue(WIDE - 1);
    const wide = new Set(Array.from({ length: WIDE - 1 }, (_, index) => wideValue(index)));
    const statuses = lists.map((entry) => new URLSearchParams(entry.query).get('status'));
    // Of the enum's values (the other test's `late` aside): the first ones, at most ENUM_VALUES_TRIED; probes outside it are other checks'.
    const tried = new Set(
      statuses
        .filter((value): value is string => value !== null && value !== late && (wide.has(value) || !value.startsWith('v')))
        .filter((value) => wide.has(value) || ['available', 'pending', 'sold'].includes(value)),
    );
    expect(tried.size).toBeGreaterThan(3);
    expect(tried.size).toBeLessThanOrEqual(ENUM_VALUES_TRIED);
    const text = await readFile(coverage, 'utf8');
    // Pretty-printed JSON: the names within NAMED_VALUE_BYTES, their rows' other fields a few hundred bytes each.
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ANSWER_BYTES);
    expect(NAMED_VALUE_BYTES).toBeLessThan(ANSWER_BYTES);
    const covered = JSON.parse(text) as {
      operations: {
        operationId: string;
        parameters: { name: string; in: string; values?: unknown[]; valuesNotNamed?: { exercised: number; never: number } }[];
      }[];
      totals: { enumValues: { documented: number } };
    };
    const status = covered.operations.find((operation) => operation.operationId === 'listPets')?.parameters.find((parameter) => parameter.name === 'status');
    expect(status?.values?.length).toBe(VALUES_NAMED);
    expect((status?.valuesNotNamed?.exercised ?? 0) + (status?.valuesNotNamed?.never ?? 0)).toBe(WIDE + 3 - VALUES_NAMED);
    expect(covered.totals.enumValues.documented).toBeGreaterThanOrEqual(2 * (WIDE + 3));
  });
});
