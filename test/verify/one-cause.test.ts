/**
 * One cause, one failure, naming the likely fix: a deployment that reads and writes its ids through a
 * double (JavaScript's Number) rounds each one beyond 2^53, and every check that meets an id then
 * fails in its own way (an id twice in a page, creates sharing an id, a pet read back as another, a
 * listed pet not found). The run reports one failure, which says so and what to do, every other
 * following it. A deployment whose ids beyond 2^53 are exact is not taken for one (exact-ids.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import { verify } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';

/** An id as a deployment holding it in a JavaScript number writes it: rounded to the nearest double beyond 2^53. */
const throughDouble = (digits: string): string => (digits.length >= 16 ? String(BigInt(Number(digits))) : digits);

/** The mock with ids beyond 2^53, behind a layer that reads the path's id and writes every id and Location through a double. */
function lossyIdDeployment() {
  const mock = createMockApi({ bigIds: true, count: 30 });
  return serve(async (request) => {
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/^(\/v1\/pets\/)(\d+)$/, (_, path: string, id: string) => `${path}${throughDouble(id)}`);
    const response = await mock.fetch(new Request(url, request));
    const text = (await response.text()).replace(/"id":(\d+)/g, (_, id: string) => `"id":${throughDouble(id)}`);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    const location = headers.get('location');
    if (location) headers.set('location', location.replace(/\d+$/, throughDouble));
    // A 204 (a preflight) has no body, not an empty one: the Response constructor refuses one.
    return new Response(text === '' ? null : text, { status: response.status, headers });
  });
}

describe('petstore-verify against a deployment that rounds its ids through a double', () => {
  it('reports one failure, naming the cause and the fix, every other following it', async () => {
    const deployment = await lossyIdDeployment();
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY });
      expect(report.exitCode).toBe(1);
      const failed = report.results.filter((result) => result.outcome === 'fail');
      const causes = failed.filter((result) => result.follows === undefined);
      expect(
        causes.map((result) => result.id),
        JSON.stringify(causes.map((result) => [result.id, result.findings.map((finding) => finding.message.slice(0, 200))])),
      ).toHaveLength(1);
      expect(failed.length).toBeGreaterThan(5);
      expect((causes[0] as CheckResult).findings[0]?.message).toMatch(
        /^every integer beyond 2\^53 the deployment wrote \(\d+ of them, 9007199254740992, .*\) is one a 64-bit float can hold, and pets share or swap these ids: .*Keep ids exact end to end/,
      );
      expect(report.counts.failed).toBe(1);
    } finally {
      await deployment.close();
    }
  });
});
