/**
 * getPet's removal at its sunset (5 December 2030) is judged by the deployment's clock, as its `Date`
 * states it (RFC 9110 §6.6.1), not by the clock of the machine the verifier runs on: a deployment
 * rehearsing the removal (`petstore-mock --now 2031-01-01T00:00:00Z`) keeps the contract, with the
 * checks that need getPet working skipped, naming the removal. A 410 before the sunset by the
 * deployment's own clock is still an early removal, and a getPet still answering past the sunset is
 * advice (the interface schedules the removal but does not say what a removed operation answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VerificationReport as Report, verify } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { runCli, startMockCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';
const AFTER_SUNSET = Date.parse('2031-01-01T00:00:00Z');
const GET_PET = /\/pets\/[^/]+$/;

const failed = (report: Report) => report.results.filter((result) => result.outcome === 'fail').map((result) => result.id);

/** A clock that starts at `start` and ticks with the real one, as `--now` does. */
function clockFrom(start: number): () => number {
  const origin = Date.now();
  return () => start + Date.now() - origin;
}

/** The mock (its own clock today), each getPet answer's headers changed by `change`. */
function withGetPetHeaders(mock: (request: Request) => Promise<Response>, change: (headers: Headers) => void): Promise<Deployment> {
  return serve(async (request) => {
    const answer = await mock(request);
    if (!GET_PET.test(new URL(request.url).pathname)) return answer;
    const headers = new Headers(answer.headers);
    change(headers);
    return new Response(answer.body, { status: answer.status, headers });
  });
}

describe('petstore-verify judges the sunset of getPet by the deployment clock', () => {
  let pastSunset: MockServer;
  beforeAll(async () => {
    pastSunset = await startMockServer({ port: 0, now: clockFrom(AFTER_SUNSET) });
  });
  afterAll(() => pastSunset.close());

  it('passes a mock whose clock is past the sunset (--now 2031): its 410 is the removal, and the checks that need getPet skip, naming it', async () => {
    const report = await verify({ baseUrl: pastSunset.url, apiKey: KEY, warnings: 'all' });
    expect(failed(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    const skipped = report.results.filter((result) => result.outcome === 'skip' && /getPet is removed/.test(result.reason ?? ''));
    expect(skipped.map((result) => result.id)).toEqual(expect.arrayContaining(['getPet.existing', 'getPet.petId-spellings', 'getPet.absent']));
    expect(skipped[0]?.reason).toMatch(/sunset \(05 Dec 2030\) on, and by the deployment's clock \(Date: \w{3}, \d\d \w{3} 2031 /);
    // The deployment removed it: no "days left" advice about it.
    expect(report.advice.filter((advice) => /days left/.test(advice))).toEqual([]);
    expect(report.results.find((result) => result.id === 'getPet.deprecation')?.outcome).toBe('pass');
  });

  it('fails a 410 before the sunset by the deployment own Date: an early removal', async () => {
    const early = await withGetPetHeaders(
      (request) => pastSunset.mock.fetch(request),
      (headers) => headers.set('date', new Date(Date.parse('2030-06-01T00:00:00Z')).toUTCString()),
    );
    try {
      const report = await verify({ baseUrl: early.url, apiKey: KEY, suite: 'spec' });
      expect(report.exitCode).toBe(1);
      const deprecation = report.results.find((result) => result.id === 'getPet.deprecation');
      expect(deprecation?.outcome).toBe('fail');
      expect(deprecation?.findings[0]?.message).toMatch(
        /getPet answered 410 before its sunset \(05 Dec 2030\) by the deployment's clock \(Date: Sat, 01 Jun 2030/,
      );
    } finally {
      await early.close();
    }
  });

  it('takes a getPet still answering past the sunset by its Date as advice, not a failure', async () => {
    const mock = createMockApi();
    const late = await withGetPetHeaders(
      (request) => mock.fetch(request),
      (headers) => headers.set('date', new Date(AFTER_SUNSET).toUTCString()),
    );
    try {
      const report = await verify({ baseUrl: late.url, apiKey: KEY, suite: 'spec', warnings: 'all' });
      expect(failed(report)).toEqual([]);
      expect(report.advice).toContain(
        "getPet still answers 200 though by the deployment's clock (Date: Wed, 01 Jan 2031 00:00:00 GMT) its sunset (05 Dec 2030) has passed; the spec says 410 from then on",
      );
    } finally {
      await late.close();
    }
  });
});

describe('the CLIs, as the mutation trials start them', () => {
  it('petstore-verify passes petstore-mock --now 2031-01-01T00:00:00Z, every suite: exit 0, getPet named removed', async () => {
    const mock = await startMockCli(['--port', '0', '--now', '2031-01-01T00:00:00Z', '--quiet']);
    try {
      const result = await runCli('petstore-verify', ['--base-url', mock.url, '--api-key', KEY]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/○ getPet\.petId-spellings \d+ ms \(getPet is removed: the deployment answers it 410/);
      expect(result.stdout).toContain('The deployment keeps the contract.');
    } finally {
      await mock.stop();
    }
  });
});
