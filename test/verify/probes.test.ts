/**
 * The deeper probes: each realistic fault below slipped past the checks before them; each must now
 * be caught (exit 1) by the check named for it.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WRITES, verify } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { faultyDeployment, PROBE_FAULTS, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';

describe('petstore-verify catches, with the check named for it', () => {
  for (const [name, { fault, caughtBy, message, count }] of Object.entries(PROBE_FAULTS)) {
    it(`${name} (${caughtBy})`, async () => {
      const deployment = await faultyDeployment(fault, count);
      try {
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
        const failed = report.results.filter((result) => result.outcome === 'fail');
        expect(report.exitCode, JSON.stringify(report.results.map((r) => [r.id, r.outcome, r.reason]))).toBe(1);
        expect(failed.map((result) => result.id)).toContain(caughtBy);
        if (message) {
          const messages = failed.find((result) => result.id === caughtBy)?.findings.map((finding) => finding.message) ?? [];
          expect(
            messages.some((text) => message.test(text)),
            messages.join('\n'),
          ).toBe(true);
        }
        expect(report.writes).toBeLessThanOrEqual(MAX_WRITES);
      } finally {
        await deployment.close();
      }
    });
  }
});

describe('the near-miss credentials', () => {
  it('never reach a report, even when the deployment echoes the credential it refused in a failing answer', async () => {
    const secret = 'sk-live-Abc0123456789xyz';
    const mock = createMockApi({ count: 30, apiKeys: [secret] });
    // Refuses with 403, a status the spec does not document, so that each refusal is a finding that shows the echo.
    const echoing = await serve(async (request) => {
      const response = await mock.fetch(request);
      if (response.status !== 401) return response;
      const sent = request.headers.get('authorization') ?? '';
      return Response.json({ code: 'forbidden', message: `refused: ${sent} / ${sent.replace(/^\S+\s*/, '')}`, status: 403 }, { status: 403 });
    });
    try {
      const report = await verify({ baseUrl: echoing.url, apiKey: secret, suite: 'spec' });
      expect(report.exitCode).toBe(1);
      const text = JSON.stringify(report);
      expect(text).toContain('Bearer <$PETSTORE_API_KEY, case changed>');
      expect(text).toContain('Bearer <$PETSTORE_API_KEY without its last character>');
      const swapped = [...secret].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
      for (const form of [secret, swapped, secret.slice(0, -1), Buffer.from(`${secret}:`).toString('base64')]) expect(text).not.toContain(form);
    } finally {
      await echoing.close();
    }
  });
});
