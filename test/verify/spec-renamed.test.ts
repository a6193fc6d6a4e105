/**
 * `petstore-verify --spec FILE` over a variant that names everything otherwise (`/animals`, the id
 * `animalId`, the page size `pageSize` capped at 20, a filter `kind` over another enum): the real
 * commands from the outside. The verifier's checks take every name, bound and value from the resource
 * model, so the mock serving the variant passes every check, each named after the variant's own
 * parameters, in memory and in Redis (whose lists by filter value follow the spec's filter), and a mock
 * that ignores the renamed bound fails on it. Needs `dist/` and Debian's redis-server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationReport } from '../../src/contracts/runner.js';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { RENAMED_FILTER, RENAMED_ID_PARAMETER, RENAMED_PAGE_SIZE, renamedSpec, writeRenamedSpec } from '../support/renamed-spec.js';

const KEY = 'petstore-dev-key';
let dir: string;
let renamed: string;
let mock: RunningMock;
let faulty: RunningMock;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-verify-renamed-'));
  renamed = await writeRenamedSpec(dir);
  // The faulty mock serves the same variant with the page size's bound lifted: it answers pages past the renamed maximum.
  const lifted = renamedSpec();
  const pageSize = (lifted.paths['/animals']?.get?.parameters ?? []).find((parameter) => 'name' in parameter && parameter.name === RENAMED_PAGE_SIZE.parameter);
  if (pageSize === undefined || !('schema' in pageSize)) throw new Error(`the renamed variant has no ${RENAMED_PAGE_SIZE.parameter}`);
  Object.assign(pageSize.schema, { maximum: RENAMED_PAGE_SIZE.maximum * 5 });
  const faultySpec = await writeRenamedSpec(dir, lifted, 'faulty-openapi.yaml');
  [mock, faulty] = await Promise.all([
    startMockCli(['--port', '0', '--spec', renamed, '--self-check', '--quiet']),
    startMockCli(['--port', '0', '--spec', faultySpec, '--quiet']),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.stop(), faulty?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

/** Runs petstore-verify's spec and fuzz suites against `url` with the renamed variant, its JSON report read from stdout. */
async function verifyRenamed(url: string): Promise<{ code: number | null; report: VerificationReport }> {
  const args = ['--base-url', url, '--reporter', 'json', '--spec', renamed, '--suite', 'spec', '--fuzz-runs', '10', '--seed', '1'];
  const result = await runCli('petstore-verify', args, { PETSTORE_API_KEY: KEY });
  return { code: result.code, report: JSON.parse(result.stdout) as VerificationReport };
}

/** Every finding's message of the report's failures, one per line. */
function failureText(report: VerificationReport): string {
  return report.results
    .filter((result) => result.outcome === 'fail')
    .flatMap((result) => result.findings.map((finding) => `${result.id}: ${finding.message}`))
    .join('\n');
}

describe('petstore-verify --spec over a variant that renames the parameters', () => {
  it('passes petstore-mock --spec of the variant with every check, each sending and named after the renamed parameters', async () => {
    const { code, report } = await verifyRenamed(mock.url);
    expect(failureText(report)).toBe('');
    expect(report.counts).toMatchObject({ failed: 0, errors: 0, skipped: 0 });
    expect(code).toBe(0);
    const ids = report.results.map((result) => result.id);
    const [size, filter] = [RENAMED_PAGE_SIZE.parameter, RENAMED_FILTER.parameter];
    for (const id of [size, `${size}-invalid`, `${filter}-filter`, `${filter}-filter-new-pet`, `${filter}-${size}`, `${filter}-invalid`])
      expect(ids).toContain(`listPets.${id}`);
    for (const id of ['deletePet.removes', 'deletePet.absent', 'deletePet.not-an-id', 'replacePet.replaces', 'replacePet.absent']) expect(ids).toContain(id);
    expect(ids.filter((id) => /\.(limit|status)\b|status-/.test(id))).toEqual([]);
    expect(report.results.some((result) => result.suite === 'fuzz')).toBe(true);
  });

  it('passes the mock serving the variant from Redis, its lists kept by the renamed filter', async () => {
    let redis: TestRedis | undefined;
    let stored: RunningMock | undefined;
    try {
      redis = await startRedis();
      stored = await startMockCli(['--port', '0', '--spec', renamed, '--self-check', '--quiet', '--store', redis.url]);
      const { code, report } = await verifyRenamed(stored.url);
      expect(failureText(report)).toBe('');
      expect(code).toBe(0);
    } finally {
      await stored?.stop();
      await redis?.stop();
    }
  });

  it("fails a mock that ignores the renamed page size's maximum, naming the parameter and the bound", async () => {
    const { code, report } = await verifyRenamed(faulty.url);
    expect(code).toBe(1);
    const over = RENAMED_PAGE_SIZE.maximum + 1;
    expect(failureText(report)).toMatch(
      new RegExp(
        `listPets\\.${RENAMED_PAGE_SIZE.parameter}-invalid: listPets with ${RENAMED_PAGE_SIZE.parameter}=${over} answered ${over} pets: a ${RENAMED_PAGE_SIZE.parameter} outside 1 to ${RENAMED_PAGE_SIZE.maximum}`,
      ),
    );
  });

  it(`serves the item path by its own parameter: /animals/{${RENAMED_ID_PARAMETER}} reads, and the old /pets is no operation`, async () => {
    const headers = { authorization: `Bearer ${KEY}` };
    const [item, old] = await Promise.all([fetch(`${mock.url}/animals/1`, { headers }), fetch(`${mock.url}/pets/1`, { headers })]);
    expect(item.status).toBe(200);
    expect(RENAMED_FILTER.values).toContain(((await item.json()) as Record<string, unknown>)[RENAMED_FILTER.parameter]);
    expect(old.status).toBe(404);
  });
});
