import { describe, expect, it } from 'vitest';
import { groupByCause } from './causes.js';
import type { CheckResult, Finding } from './check.js';

function failed(id: string, ...findings: Finding[]): CheckResult {
  return { id, suite: 'spec', title: id, operationId: undefined, outcome: 'fail', ms: 1, findings, warnings: [] };
}

const status200: Finding = { message: 'createPet answered 200', fault: 'status:createPet:200' };
const reread404: Finding = { message: 'getPet answered 404 for the pet just created', fault: 'reread:getPet:404' };
const own: Finding = { message: 'listPets lists a pet twice' };

describe('groupByCause', () => {
  it('makes the checks that met only a fault another met follow it; the one about the fault’s operation is the cause', () => {
    const results = groupByCause([
      failed('auth.createPet.accepted', status200),
      failed('createPet.echo', status200, status200),
      failed('pact.web.create', status200),
    ]);
    expect(results.map((result) => [result.id, result.follows, result.followers])).toEqual([
      ['auth.createPet.accepted', 'createPet.echo', undefined],
      ['createPet.echo', undefined, ['auth.createPet.accepted', 'pact.web.create']],
      ['pact.web.create', 'createPet.echo', undefined],
    ]);
  });

  it('takes as cause the check that met the most faults, and keeps a check with a finding of its own a failure of its own', () => {
    const results = groupByCause([failed('a', reread404), failed('b', reread404, status200), failed('c', reread404, own)]);
    expect(results.map((result) => result.follows)).toEqual(['c', undefined, undefined]);
    expect(results[2]?.followers).toEqual(['a']);
  });

  it('leaves passes, skips and unrelated failures as they are', () => {
    const pass: CheckResult = { ...failed('p'), outcome: 'pass' };
    const results = groupByCause([pass, failed('x', status200), failed('y', reread404)]);
    expect(results.map((result) => result.follows ?? result.followers ?? null)).toEqual([null, null, null]);
  });
});
