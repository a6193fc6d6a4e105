import { describe, expect, it } from 'vitest';
import { VALUES_NAMED } from '../../bounds/values-named.js';
import { openapi } from '../../generated/openapi.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import type { OpenApiDocument } from '../../openapi/document.js';
import { Coverage, formatCoverage } from './coverage.js';

describe('Coverage', () => {
  it('counts statuses and the enum values sent, ignoring values outside the enum and bodies that are not objects', () => {
    const coverage = new Coverage('/api/v2');
    coverage.record('listPets', 200, coverage.enumValuesOf('listPets', 'status=sold&limit=2'));
    coverage.record('listPets', 200, coverage.enumValuesOf('listPets', 'status=adopted'));
    coverage.record('listPets', 418, []);
    coverage.recordBody('createPet', { name: 'Rex', status: 'sold' });
    coverage.recordBody('createPet', [{ status: 'sold' }]);
    coverage.record('nosuchOperation', 200, []);
    const [listPets, createPet] = coverage.report().operations;
    expect(listPets).toMatchObject({ path: '/api/v2/pets', statuses: { '200': 2, '418': 1 }, enums: { 'query.status': { sold: 1, available: 0 } } });
    expect(listPets?.missed).not.toContain('418');
    expect(createPet?.enums).toEqual({ 'body.status': { available: 0, pending: 0, sold: 1 } });
    coverage.clear();
    expect(coverage.report().covered).toBe(0);
  });
});

describe('Coverage counts', () => {
  it('adds up the counts of several replicas into the report one replica would have made', () => {
    const [a, b, whole] = [new Coverage('/v1'), new Coverage('/v1'), new Coverage('/v1')];
    const requests: [Coverage, string, number, string][] = [
      [a, 'listPets', 200, 'status=sold'],
      [b, 'listPets', 200, 'status=sold&limit=3'],
      [b, 'listPets', 400, 'limit=0'],
      [a, 'getPet', 404, ''],
    ];
    for (const [replica, operationId, status, query] of requests) {
      replica.record(operationId, status, replica.enumValuesOf(operationId, query));
      whole.record(operationId, status, whole.enumValuesOf(operationId, query));
    }
    b.recordBody('createPet', { status: 'pending' });
    whole.recordBody('createPet', { status: 'pending' });
    expect(a.counts()).toEqual({ 'listPets 200': 1, 'listPets query.status=sold': 1, 'getPet 404': 1 });
    const summed = new Coverage('/v1');
    summed.add(a.counts());
    summed.add(b.counts());
    expect(summed.report()).toEqual(whole.report());
  });

  it('leaves out counts it does not know, or that are not counts', () => {
    const coverage = new Coverage('/v1');
    coverage.add({
      'noSuchOperation 200': 3,
      'listPets 999': 1,
      'listPets query.status=adopted': 2,
      'listPets 200': -4,
      'listPets query.nope=sold': 1,
      'getPet 200': 1.5,
    });
    expect(coverage.counts()).toEqual({});
  });
});

describe('formatCoverage', () => {
  it('says per operation what was exercised and what never was', () => {
    const coverage = new Coverage('/v1');
    coverage.record('getPet', 200, []);
    coverage.record('getPet', 200, []);
    coverage.record('getPet', 404, []);
    const report = coverage.report();
    const text = formatCoverage(report);
    // Every status each operation documents, and every value of its enum inputs (a filter, a body's field): the spec's count, not a copy.
    const enumValues = report.operations.flatMap((operation) => Object.values(operation.enums).flatMap((values) => Object.keys(values))).length;
    expect(report.total).toBe(BUNDLED_MODEL.operations.reduce((sum, { statuses }) => sum + statuses.length, 0) + enumValues);
    const width = Math.max(...BUNDLED_MODEL.operations.map((operation) => operation.operationId.length));
    expect(text).toMatch(new RegExp(`^petstore-mock coverage: 2 of ${report.total} documented statuses and enum values exercised\n`));
    expect(text).toContain(`${'getPet'.padEnd(width)}  GET /v1/pets/{petId}\n  exercised  200 ×2, 404 ×1\n  never      400, 401, 410, 429, 500, 503\n`);
    expect(text).toContain(
      `${'listPets'.padEnd(width)}  GET /v1/pets\n  exercised  nothing\n  never      200, 400, 401, 429, 500, 503, query.status=available`,
    );
  });
});

describe('a report of an enum of 90,003 values (tenth attack, #8)', () => {
  it('names the values sent and the first others, up to VALUES_NAMED an input, counts the rest, and keeps every total', () => {
    const doc = structuredClone(openapi) as unknown as { components: { schemas: { PetStatus: { enum: string[] } } } };
    doc.components.schemas.PetStatus.enum.push(...Array.from({ length: 90_000 }, (_, index) => `v${index}`));
    const coverage = new Coverage('/v1', doc as unknown as OpenApiDocument);
    coverage.record('listPets', 200, coverage.enumValuesOf('listPets', 'status=v89999'));
    coverage.recordBody('createPet', { status: 'v500' });
    const report = coverage.report();
    const [listPets, createPet] = report.operations;
    expect(Object.keys(listPets?.enums['query.status'] ?? {})).toHaveLength(VALUES_NAMED);
    expect(listPets?.enums['query.status']?.v89999).toBe(1);
    expect(createPet?.enums['body.status']?.v500).toBe(1);
    expect(listPets?.unnamed).toEqual({ 'query.status': { exercised: 0, never: 90_003 - VALUES_NAMED } });
    // listPets 200, and one value of each input.
    expect(report.covered).toBe(3);
    expect(report.total).toBe(BUNDLED_MODEL.operations.reduce((sum, { statuses }) => sum + statuses.length, 0) + 2 * 90_003);
    const text = formatCoverage(report);
    expect(text).toContain(`  not named  query.status: 0 more values exercised, ${90_003 - VALUES_NAMED} more never`);
    expect(text.length).toBeLessThan(64 * 1024);
  });
});
