/**
 * A second run against the same deployment gives the same findings, whatever the first left there
 * (its pets, named for its run, in every listing): the same checks pass, fail, follow the same
 * causes, with the same faults, and the same are skipped. Against the mock, correct and faulty.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import { type VerificationReport, verify } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { type Deployment, FAULTS, type Fault, faultyDeployment, PROBE_FAULTS, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';

/** What a run found, apart from what differs by design between runs (ids, run ids, timings): each check's outcome, cause and faults. */
function findings(report: VerificationReport): string[] {
  const faults = (result: CheckResult) => [...new Set(result.findings.map((finding) => finding.fault ?? ''))].sort().join(',');
  return report.results.map((result) => `${result.id} ${result.outcome} ${result.follows ?? ''} ${faults(result)}`).sort();
}

async function twice(deployment: Deployment): Promise<[VerificationReport, VerificationReport]> {
  try {
    const first = await verify({ baseUrl: deployment.url, apiKey: KEY });
    const second = await verify({ baseUrl: deployment.url, apiKey: KEY });
    return [first, second];
  } finally {
    await deployment.close();
  }
}

describe.concurrent('petstore-verify run twice against one deployment', () => {
  // No pet at the start (the first run fills the default page), 50, and 90 (the first run's pets carry the listing past its largest page).
  it.each([0, 50, 90])('passes the mock of %i pets both times, with the same checks skipped', async (count) => {
    const mock = createMockApi({ count });
    const [first, second] = await twice(await serve((request) => mock.fetch(request)));
    expect(first.exitCode).toBe(0);
    expect(findings(second)).toEqual(findings(first));
  });

  const faults: [string, Fault][] = [
    ['createPet answers 200 instead of 201', FAULTS['createPet answers 200 instead of 201'] as Fault],
    ['nothing stored', FAULTS['nothing stored'] as Fault],
    ['limit ignored', FAULTS['limit ignored'] as Fault],
    [
      'with a status filter, the limit applied before filtering',
      (PROBE_FAULTS['with a status filter, the limit applied before filtering'] as { fault: Fault }).fault,
    ],
  ];
  it.each(faults)('finds the same faults in a deployment where %s', async (_name, fault) => {
    const [first, second] = await twice(await faultyDeployment(fault));
    expect(first.exitCode).toBe(1);
    expect(findings(second)).toEqual(findings(first));
  });
});
