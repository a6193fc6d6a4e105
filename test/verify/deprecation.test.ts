/**
 * getPet's Deprecation header, as deployments send it: the RFC 9745 date (`@1748736000`, what the
 * mock sends) and the older `true` are both read without a word; anything else breaks the header's
 * schema in the spec, and conformance fails it.
 */
import { describe, expect, it } from 'vitest';
import { verify } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';

async function verifyWithDeprecation(value: string) {
  const mock = createMockApi();
  const deployment = await serve(async (request) => {
    const answer = await mock.fetch(request);
    if (!/\/pets\/[^/]+$/.test(new URL(request.url).pathname)) return answer;
    const headers = new Headers(answer.headers);
    headers.set('deprecation', value);
    return new Response(answer.body, { status: answer.status, headers });
  });
  try {
    return await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
  } finally {
    await deployment.close();
  }
}

describe('petstore-verify reads the Deprecation header of getPet', () => {
  it.each(['@1748736000', 'true'])('takes %s without a warning', async (value) => {
    const report = await verifyWithDeprecation(value);
    expect(report.exitCode).toBe(0);
    expect(report.results.flatMap((result) => result.warnings).filter((warning) => warning.includes('Deprecation'))).toEqual([]);
  });

  it('fails a value in neither form: it breaks the pattern the spec gives the header', async () => {
    const report = await verifyWithDeprecation('Sun, 01 Jun 2025 00:00:00 GMT');
    expect(report.exitCode).toBe(1);
    const messages = report.results.flatMap((result) => result.findings.map((finding) => finding.message));
    // One rule, one word: the schema's failure, not a warning besides it.
    expect(report.results.flatMap((result) => result.warnings).filter((warning) => warning.includes('Deprecation'))).toEqual([]);
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^getPet answered 200 with the header deprecation: Sun, 01 Jun 2025 00:00:00 GMT, which breaks its schema in the spec: must match pattern/,
      ),
    );
  });
});
