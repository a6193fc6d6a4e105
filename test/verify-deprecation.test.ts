/**
 * getPet's Deprecation header, as deployments send it: the RFC 9745 date (`@1748736000`, what the
 * mock sends) and the older `true` are both read without a word; anything else is a warning.
 */
import { describe, expect, it } from 'vitest';
import { verify } from '../src/contracts/runner.js';
import { createMockApi } from '../src/mock/handler.js';
import { serve } from './support/deployments.js';

const KEY = 'petstore-dev-key';

async function deprecationWarnings(value: string): Promise<string[]> {
  const mock = createMockApi();
  const deployment = await serve(async (request) => {
    const answer = await mock.fetch(request);
    if (!/\/pets\/[^/]+$/.test(new URL(request.url).pathname)) return answer;
    const headers = new Headers(answer.headers);
    headers.set('deprecation', value);
    return new Response(answer.body, { status: answer.status, headers });
  });
  try {
    const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
    expect(report.exitCode).toBe(0);
    return report.results.flatMap((result) => result.warnings).filter((warning) => warning.includes('Deprecation'));
  } finally {
    await deployment.close();
  }
}

describe('petstore-verify reads the Deprecation header of getPet', () => {
  it.each(['@1748736000', 'true'])('takes %s without a warning', async (value) => {
    expect(await deprecationWarnings(value)).toEqual([]);
  });

  it('warns of a value in neither form', async () => {
    expect(await deprecationWarnings('Sun, 01 Jun 2025 00:00:00 GMT')).toEqual([
      `the deployment's Deprecation header on getPet is "Sun, 01 Jun 2025 00:00:00 GMT", neither an RFC 9745 date (@<seconds>) nor the legacy true`,
    ]);
  });
});
