/**
 * petstore-verify against servers that attack it: both suites end within --deadline, with the
 * verifier's memory bounded (every process of the run under 500 MB), and the right exit code. Run
 * through the real CLI, as CI would, with its peak memory read from /proc.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import type { VerificationReport } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';
import { getPetOnly, type Hostility, hostileDeployment } from '../support/hostile-servers.js';
import { runCliMeasured } from '../support/peak-rss.js';

const KEY = 'petstore-dev-key';
const MAX_RSS = 500 * 1024 * 1024;
/** Node's start, the spec's compilation and the Pact Verifier's: the time a run takes beyond its deadline at most. */
const STARTUP_SLACK_MS = 4_000;

let deployment: Deployment | undefined;
afterEach(async () => {
  await deployment?.close();
  deployment = undefined;
});

function reportOf(stdout: string): VerificationReport {
  return JSON.parse(stdout) as VerificationReport;
}

function bySuite(report: VerificationReport, suite: CheckResult['suite']): CheckResult[] {
  return report.results.filter((result) => result.suite === suite);
}

const findingsText = (results: readonly CheckResult[]) => results.flatMap((result) => result.findings.map((finding) => finding.message)).join('\n');

describe('petstore-verify against a deployment whose getPet answers are hostile', () => {
  it.each<[Hostility]>([['gzip-bomb'], ['endless-body']])(
    '%s: both suites fail the capped answers, naming the 5 MiB cap, in bounded memory',
    async (hostility) => {
      deployment = await hostileDeployment(hostility, getPetOnly);
      const run = await runCliMeasured('petstore-verify', ['--base-url', deployment.url, '--reporter', 'json', '--deadline', '60000'], {
        PETSTORE_API_KEY: KEY,
      });
      const report = reportOf(run.stdout);
      expect(run.code).toBe(1);
      expect(run.peakRssBytes).toBeGreaterThan(0);
      expect(run.peakRssBytes).toBeLessThan(MAX_RSS);
      expect(run.ms).toBeLessThan(60_000 + STARTUP_SLACK_MS);
      const capped = /a body larger than 5242880 bytes \(5 MiB\), the most petstore-verify reads of one answer/;
      expect(findingsText(bySuite(report, 'spec').filter((result) => result.outcome === 'fail'))).toMatch(capped);
      const pactGet = bySuite(report, 'pact').find((result) => result.id === 'pact.petstore-web.a-request-for-an-existing-pet');
      expect(pactGet?.outcome).toBe('fail');
      expect(findingsText(pactGet ? [pactGet] : [])).toMatch(capped);
      // The evidence is the request the deployment got: the created pet's id, not the pact's example 7.
      expect(pactGet?.findings[0]?.request?.url).toMatch(new RegExp(`^${deployment.url}/pets/(?!7$)\\d+$`));
      console.info(`${hostility}: peak RSS ${(run.peakRssBytes / 1024 / 1024).toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s`);
    },
    90_000,
  );

  it('slow-drip: each suite gives up on the answer after --timeout and cannot verify it (exit 2)', async () => {
    deployment = await hostileDeployment('slow-drip', getPetOnly);
    const run = await runCliMeasured('petstore-verify', ['--base-url', deployment.url, '--reporter', 'json', '--timeout', '1500', '--deadline', '60000'], {
      PETSTORE_API_KEY: KEY,
    });
    const report = reportOf(run.stdout);
    expect(run.peakRssBytes).toBeLessThan(MAX_RSS);
    expect(run.code).toBe(2);
    const pactGet = bySuite(report, 'pact').find((result) => result.id === 'pact.petstore-web.a-request-for-an-existing-pet');
    expect(pactGet?.outcome).toBe('error');
    expect(pactGet?.reason).toMatch(/no complete answer within 1500 ms \(--timeout\)/);
    console.info(`slow-drip on getPet: peak RSS ${(run.peakRssBytes / 1024 / 1024).toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s`);
  }, 90_000);
});

describe('petstore-verify against a deployment hostile on every answer', () => {
  it.each<[Hostility]>([['slow-drip'], ['endless-headers'], ['gzip-bomb'], ['endless-body']])(
    '%s: ends within --deadline 5000 with exit 2 or 1, in bounded memory',
    async (hostility) => {
      deployment = await hostileDeployment(hostility);
      const run = await runCliMeasured('petstore-verify', ['--base-url', deployment.url, '--timeout', '60000', '--deadline', '5000'], {
        PETSTORE_API_KEY: KEY,
      });
      expect(run.ms).toBeLessThan(5_000 + STARTUP_SLACK_MS);
      expect(run.peakRssBytes).toBeLessThan(MAX_RSS);
      // A listing that never ends is a broken contract (1); one that never comes cannot be verified (2).
      expect(run.code).toBe(hostility === 'gzip-bomb' || hostility === 'endless-body' ? 1 : 2);
      console.info(`${hostility} everywhere: peak RSS ${(run.peakRssBytes / 1024 / 1024).toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s, exit ${run.code}`);
    },
  );
});

describe('petstore-verify keeps --deadline while --rps waits', () => {
  it('--rps 1 --deadline 5000 ends in about 5 s, with exit 2 and the deadline named', async () => {
    deployment = await serve((request) => createMockApi().fetch(request));
    const started = performance.now();
    const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--rps', '1', '--deadline', '5000'], { PETSTORE_API_KEY: KEY });
    const ms = performance.now() - started;
    expect(run.code).toBe(2);
    expect(ms).toBeGreaterThan(4_500);
    expect(ms).toBeLessThan(5_000 + STARTUP_SLACK_MS);
    expect(run.stdout).toMatch(/deadline/);
  });
});

describe('the Pact suite goes through the same bounds and counts as the spec suite', () => {
  it('reports every request and POST the deployment received, from both suites', async () => {
    const mock = createMockApi();
    const received = { requests: 0, posts: 0 };
    deployment = await serve((request) => {
      received.requests++;
      if (request.method === 'POST') received.posts++;
      return mock.fetch(request);
    });
    const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--reporter', 'json'], { PETSTORE_API_KEY: KEY });
    const report = reportOf(run.stdout);
    expect(run.code).toBe(0);
    expect(bySuite(report, 'pact').length).toBeGreaterThan(5);
    expect({ requests: report.requests, posts: report.posts }).toEqual(received);
    expect(run.stderr).toContain(`${received.requests} requests · ${received.posts} POSTs`);
  });

  it('--suite pact keeps to --rps', async () => {
    const mock = createMockApi();
    const starts: number[] = [];
    deployment = await serve((request) => {
      starts.push(performance.now());
      return mock.fetch(request);
    });
    const rps = 8;
    const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--suite', 'pact', '--rps', String(rps)], { PETSTORE_API_KEY: KEY });
    expect(run.code).toBe(0);
    // The first request is the preflight's; every later one is the Pact suite's, through its proxy.
    const pact = starts.slice(1);
    expect(pact.length).toBeGreaterThan(8);
    const span = (pact.at(-1) ?? 0) - (pact[0] ?? 0);
    expect(span).toBeGreaterThanOrEqual(((pact.length - 1) * 1000) / rps - 50);
  });
});
