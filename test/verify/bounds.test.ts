/**
 * petstore-verify against a deployment whose getPet answers attack it: both suites fail or give up
 * on those answers, with the verifier's memory bounded (every process of the run under 768 MB).
 * Run through the real CLI, as CI would, with its peak memory read from /proc. The deadlines and
 * pacing under attack are in deadline.test.ts, a file of its own so that the two run side by side.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import { bySuite, DEADLINE_SLACK_MS, MAX_RSS, reportOf } from '../support/bounds.js';
import type { Deployment } from '../support/deployments.js';
import { getPetOnly, type Hostility, hostileDeployment } from '../support/hostile-servers.js';
import { runCliMeasured } from '../support/peak-rss.js';

const KEY = 'petstore-dev-key';
/** Each run's --deadline: a hang's bound (the runs end by themselves, in seconds), within the 3 minutes a test has. */
const DEADLINE_MS = 150_000;

let deployment: Deployment | undefined;
afterEach(async () => {
  await deployment?.close();
  deployment = undefined;
});

const findingsText = (results: readonly CheckResult[]) => results.flatMap((result) => result.findings.map((finding) => finding.message)).join('\n');

describe('petstore-verify against a deployment whose getPet answers are hostile', () => {
  it.each<[Hostility]>([['gzip-bomb'], ['endless-body']])(
    '%s: both suites fail the capped answers, naming the 5 MiB cap, in bounded memory',
    async (hostility) => {
      deployment = await hostileDeployment(hostility, getPetOnly);
      const run = await runCliMeasured('petstore-verify', ['--base-url', deployment.url, '--reporter', 'json', '--deadline', String(DEADLINE_MS)], {
        PETSTORE_API_KEY: KEY,
      });
      const report = reportOf(run.stdout);
      expect(run.code).toBe(1);
      expect(run.peakRssBytes).toBeGreaterThan(0);
      expect(run.peakRssBytes).toBeLessThan(MAX_RSS);
      expect(run.ms).toBeLessThan(DEADLINE_MS + DEADLINE_SLACK_MS);
      expect(run.cpuMs).toBeLessThan(DEADLINE_MS + DEADLINE_SLACK_MS);
      const capped = /a body larger than 5242880 bytes \(5 MiB\), the most petstore-verify reads of one answer/;
      expect(findingsText(bySuite(report, 'spec').filter((result) => result.outcome === 'fail'))).toMatch(capped);
      const pactGet = bySuite(report, 'pact').find((result) => result.id === 'pact.petstore-web.a-request-for-an-existing-pet');
      expect(pactGet?.outcome).toBe('fail');
      expect(findingsText(pactGet ? [pactGet] : [])).toMatch(capped);
      // The evidence is the request the deployment got: the created pet's id, not the pact's example 7.
      expect(pactGet?.findings[0]?.request?.url).toMatch(new RegExp(`^${deployment.url}/pets/(?!7$)\\d+$`));
      console.info(`${hostility}: peak RSS ${(run.peakRssBytes / 1024 / 1024).toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s`);
    },
  );

  it('slow-drip: each suite gives up on the answer after --timeout and cannot verify it (exit 2)', async () => {
    deployment = await hostileDeployment('slow-drip', getPetOnly);
    const run = await runCliMeasured(
      'petstore-verify',
      ['--base-url', deployment.url, '--reporter', 'json', '--timeout', '1500', '--deadline', String(DEADLINE_MS)],
      {
        PETSTORE_API_KEY: KEY,
      },
    );
    const report = reportOf(run.stdout);
    expect(run.peakRssBytes).toBeLessThan(MAX_RSS);
    expect(
      report.results.filter((result) => result.outcome === 'fail').map((result) => [result.id, result.findings.map((finding) => finding.message)]),
    ).toEqual([]);
    expect(run.code).toBe(2);
    const pactGet = bySuite(report, 'pact').find((result) => result.id === 'pact.petstore-web.a-request-for-an-existing-pet');
    expect(pactGet?.outcome).toBe('error');
    expect(pactGet?.reason).toMatch(/no complete answer within 1500 ms \(--timeout\)/);
    console.info(`slow-drip on getPet: peak RSS ${(run.peakRssBytes / 1024 / 1024).toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s`);
  });
});
