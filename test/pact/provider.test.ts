import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { junitReport } from '../../src/contracts/reporters/junit.js';
import { type VerificationReport, verify } from '../../src/contracts/runner.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { alternativeDeployment, type Deployment, FAULTS, faultyDeployment, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';

function outcomes(report: VerificationReport, suite: 'spec' | 'pact') {
  return report.results.filter((result) => result.suite === suite);
}

describe('petstore-verify --suite pact', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
  });
  afterAll(() => mock.close());

  it('replays every interaction of the bundled pact against the mock, and all pass', async () => {
    const report = await verify({ baseUrl: mock.url, apiKey: KEY, suite: 'pact' });
    const pact = outcomes(report, 'pact');
    expect(pact.length).toBe(11);
    expect(pact.filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.reason, result.findings])).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it('skips and reports, under --read-only, the interactions that would write', async () => {
    const methods: string[] = [];
    const recorder = await serve((request) => {
      methods.push(request.method);
      return mock.mock.fetch(request);
    });
    try {
      const report = await verify({ baseUrl: recorder.url, apiKey: KEY, suite: 'pact', readOnly: true });
      expect(methods).not.toContain('POST');
      const skipped = outcomes(report, 'pact').filter((result) => result.outcome === 'skip');
      expect(skipped.map((result) => result.id).sort()).toEqual(
        [
          'pact.petstore-web.a-request-to-create-a-pet',
          'pact.petstore-web.a-request-to-create-a-pet-without-a-key',
          'pact.petstore-web.a-request-to-create-a-pet-without-a-name',
          'pact.petstore-web.a-request-for-an-existing-pet',
          'pact.petstore-web.a-request-to-list-pets',
          'pact.petstore-web.a-request-to-list-at-most-2-pets',
          'pact.petstore-web.a-request-to-list-sold-pets',
        ].sort(),
      );
      expect(skipped.every((result) => result.reason?.startsWith('--read-only'))).toBe(true);
      expect(report.exitCode).toBe(0);
    } finally {
      await recorder.close();
    }
  });

  it('matches pact paths when the base URL carries a path before /v1', async () => {
    const prefixed = await serve((request) => {
      const url = new URL(request.url);
      if (!url.pathname.startsWith('/api/')) return Promise.resolve(new Response('not here', { status: 404 }));
      url.pathname = url.pathname.slice('/api'.length);
      return mock.mock.fetch(new Request(url, request));
    }, '/api/v1');
    try {
      const report = await verify({ baseUrl: prefixed.url, apiKey: KEY, suite: 'pact' });
      expect(prefixed.url).toMatch(/\/api\/v1$/);
      expect(outcomes(report, 'pact').every((result) => result.outcome === 'pass')).toBe(true);
    } finally {
      await prefixed.close();
    }
  });

  it('adds the pacts given with --pact, of other consumers', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'other-pact-'));
    const file = join(folder, 'admin-ui-petstore-api.json');
    writeFileSync(
      file,
      JSON.stringify({
        consumer: { name: 'admin-ui' },
        provider: { name: 'petstore-api' },
        interactions: [
          {
            description: 'a request for one sold pet',
            request: { method: 'GET', path: '/v1/pets', query: 'status=sold&limit=1', headers: { Authorization: 'Bearer x' } },
            response: { status: 200, body: [{ status: 'sold' }] },
          },
        ],
        metadata: { pactSpecification: { version: '2.0.0' } },
      }),
    );
    const report = await verify({ baseUrl: mock.url, apiKey: KEY, suite: 'pact', pacts: [file] });
    const other = outcomes(report, 'pact').filter((result) => result.id.startsWith('pact.admin-ui.'));
    expect(other.map((result) => [result.id, result.outcome])).toEqual([['pact.admin-ui.a-request-for-one-sold-pet', 'pass']]);
  });

  it('takes every method that is not safe (RFC 9110) for a write: under --read-only a pact’s DELETE, PUT and PATCH are not replayed, and the report says why', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'writing-pact-'));
    const file = join(folder, 'admin-ui-petstore-api.json');
    const interaction = (method: string) => ({
      description: `a ${method} of a pet`,
      request: { method, path: '/v1/pets/1', headers: { Authorization: 'Bearer x' } },
      response: { status: 204 },
    });
    writeFileSync(
      file,
      JSON.stringify({
        consumer: { name: 'admin-ui' },
        provider: { name: 'petstore-api' },
        // A V2 pact may write its method in lower case: the Pact Verifier sends it in upper case all the same.
        interactions: [interaction('DELETE'), interaction('put'), interaction('PATCH')],
        metadata: { pactSpecification: { version: '2.0.0' } },
      }),
    );
    const methods: string[] = [];
    const recorder = await serve((request) => {
      methods.push(request.method);
      return mock.mock.fetch(request);
    });
    try {
      const report = await verify({ baseUrl: recorder.url, apiKey: KEY, suite: 'pact', readOnly: true, pacts: [file] });
      expect(methods.filter((method) => method !== 'GET')).toEqual([]);
      const admin = outcomes(report, 'pact').filter((result) => result.id.startsWith('pact.admin-ui.'));
      expect(admin.map((result) => [result.outcome, result.reason])).toEqual(
        ['DELETE', 'PUT', 'PATCH'].map((method) => [
          'skip',
          `--read-only: the interaction sends ${method}, a write (only GET, HEAD, OPTIONS and TRACE are safe, RFC 9110 §9.2.1), so it is not replayed`,
        ]),
      );
      expect(report.posts).toBe(0);
      expect(report.exitCode).toBe(0);

      // Without --read-only they are sent, each counted as a write of the run.
      methods.length = 0;
      const writing = await verify({ baseUrl: recorder.url, apiKey: KEY, suite: 'pact', pacts: [file] });
      const sent = methods.filter((method) => method !== 'GET' && method !== 'POST');
      expect(sent.sort()).toEqual(['DELETE', 'PATCH', 'PUT']);
      expect(writing.posts).toBe(methods.filter((method) => method !== 'GET').length);
      expect(writing.writes).toBe(writing.posts);
    } finally {
      await recorder.close();
    }
  });

  it('runs the spec and pact suites together with --suite all, reported together with one exit code', async () => {
    const report = await verify({ baseUrl: mock.url, apiKey: KEY });
    expect(outcomes(report, 'spec').length).toBeGreaterThan(20);
    expect(outcomes(report, 'pact').length).toBe(11);
    expect(report.exitCode).toBe(0);
    expect(junitReport(report)).toMatch(/<testsuite name="spec"[\s\S]*<testsuite name="pact"/);
  });

  it('exits 2 with a clear message when a --pact file cannot be read', async () => {
    const report = await verify({ baseUrl: mock.url, apiKey: KEY, suite: 'pact', pacts: ['/nonexistent/pact.json'] });
    expect(report.exitCode).toBe(2);
    expect(report.fatal).toMatch(/nonexistent\/pact\.json/);
  });
});

describe('petstore-verify --suite pact against a correct deployment with other allowed choices', () => {
  it('raises no false alarm', async () => {
    const deployment = await alternativeDeployment();
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'pact' });
      expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.findings.map((f) => f.message)])).toEqual([]);
    } finally {
      await deployment.close();
    }
  });
});

// Each fault has a deployment of its own, so they are verified at once: a Pact run mostly waits on its worker.
describe.concurrent('petstore-verify --suite pact against deployments that break the contract', () => {
  const caught: [string, string][] = [
    ['createPet answers 200 instead of 201', 'pact.petstore-web.a-request-to-create-a-pet'],
    ['no credential required', 'pact.petstore-web.a-request-to-list-pets-without-a-key'],
    ['nothing stored', 'pact.petstore-web.a-request-for-an-existing-pet'],
    ['list wrapped in an object', 'pact.petstore-web.a-request-to-list-pets'],
    ['200 for an absent pet', 'pact.petstore-web.a-request-for-an-absent-pet'],
    ['Error status differs from the HTTP status', 'pact.petstore-web.a-request-to-list-pets-without-a-key'],
    ['status filter ignored', 'pact.petstore-web.a-request-to-list-sold-pets'],
  ];
  for (const [fault, interaction] of caught) {
    it(`fails on: ${fault}, in ${interaction}`, async () => {
      let deployment: Deployment | undefined;
      try {
        deployment = await faultyDeployment(FAULTS[fault] as NonNullable<(typeof FAULTS)[string]>);
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'pact' });
        expect(report.exitCode).toBe(1);
        const failed = outcomes(report, 'pact').find((result) => result.id === interaction);
        expect(failed?.outcome).toBe('fail');
        expect(failed?.findings[0]?.request?.headers.authorization ?? '').not.toContain(KEY);
      } finally {
        await deployment?.close();
      }
    });
  }
});
