/**
 * A deployment that stops answering after it has answered breaks the contract: a crash on an ordinary
 * request the spec defines is a failure (exit 1) that names the request; a deployment that never
 * answered could not be verified (exit 2). Each deployment is a process of its own that really exits.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import { verify } from '../../src/contracts/runner.js';
import { crashingDeployment } from '../support/crashing-deployment.js';
import { FULL_PAGE } from '../support/page-size.js';

const KEY = 'petstore-dev-key';

describe.concurrent('petstore-verify against a deployment whose process exits on a request', () => {
  it('fails (exit 1) when it crashes on getPet after it has answered, one failure naming the request, every later one following it', async () => {
    const deployment = await crashingDeployment(/^GET \/v1\/pets\/\d+$/);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY });
      expect(await deployment.exited).toBe(70);
      expect(report.exitCode).toBe(1);
      const failed = report.results.filter((result) => result.outcome === 'fail');
      const causes = failed.filter((result) => result.follows === undefined);
      expect(
        causes.map((result) => result.id),
        JSON.stringify(failed.map((result) => [result.id, result.follows, result.findings[0]?.message])),
      ).toHaveLength(1);
      const cause = causes[0] as CheckResult;
      const [finding] = cause.findings;
      // The client cannot tell which request in flight crashed it: it names them all, the one that did among them.
      expect(finding?.message).toMatch(
        /^the deployment stopped answering after it had answered \d+ requests of this run: it left (a request|\d requests) in flight unanswered, .*GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/\d+ \((socket hang up|read ECONNRESET)\).*, then refused every new connection \(it crashed, or was stopped\)\./,
      );
      // Every check that met the stopped deployment after it follows from that one fault; the pacts are not replayed against it.
      expect(failed.length).toBeGreaterThan(5);
      const pact = report.results.filter((result) => result.suite === 'pact');
      expect(pact.length).toBeGreaterThan(5);
      for (const result of pact)
        expect([result.outcome, result.reason]).toEqual([
          'skip',
          expect.stringMatching(/^not replayed: the deployment stopped answering during the spec suite \(see [\w.-]+\), and still does not answer$/),
        ]);
    } finally {
      await deployment.close();
    }
  });

  it('fails (exit 1) when it crashes on a request of a pact, after the spec suite passed', async () => {
    // Only the bundled pact lists two pets: the spec suite never asks for limit=2.
    const deployment = await crashingDeployment(/^GET \/v1\/pets\?limit=2$/);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY });
      expect(await deployment.exited).toBe(70);
      expect(report.exitCode).toBe(1);
      const spec = report.results.filter((result) => result.suite === 'spec');
      expect(spec.filter((result) => result.outcome !== 'pass').map((result) => result.id)).toEqual([]);
      const causes = report.results.filter((result) => result.outcome === 'fail' && result.follows === undefined);
      expect(causes.map((result) => [result.id, result.findings[0]?.message])).toEqual([
        [
          'pact.petstore-web.a-request-to-list-at-most-2-pets',
          expect.stringMatching(
            /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=2: no answer \(.+\), after the deployment had answered this run's requests: it stopped answering/,
          ),
        ],
      ]);
    } finally {
      await deployment.close();
    }
  });

  it('could not verify (exit 2) a deployment that crashes on the very first request, never having answered', async () => {
    const deployment = await crashingDeployment(/^GET /);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
      expect(report.exitCode).toBe(2);
      expect(report.fatal).toMatch(new RegExp(`cannot reach the deployment: GET .*/v1/pets\\?${FULL_PAGE}: (socket hang up|connection refused)`));
    } finally {
      await deployment.close();
    }
  });
});
