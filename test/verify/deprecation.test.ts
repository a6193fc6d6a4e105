/**
 * getPet's Deprecation header, as deployments send it: the RFC 9745 date (`@1748736000`, what the
 * mock sends) and the older `true` are read without a word. The interface gives the date of removal
 * but no header and no format, so any other form (an HTTP-date, as before RFC 9745) is never a
 * failure: it is one piece of advice for the whole run, shown only when asked (--strict), however
 * many responses carried it.
 */
import { describe, expect, it } from 'vitest';
import { verify, type WarningLevel } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';
const HTTP_DATE = 'Sun, 01 Jun 2025 00:00:00 GMT';

function deploymentWithDeprecation(value: string): Promise<Deployment> {
  const mock = createMockApi();
  return serve(async (request) => {
    const answer = await mock.fetch(request);
    if (!/\/pets\/[^/]+$/.test(new URL(request.url).pathname)) return answer;
    const headers = new Headers(answer.headers);
    headers.set('deprecation', value);
    return new Response(answer.body, { status: answer.status, headers });
  });
}

async function verifyWithDeprecation(value: string, warnings?: WarningLevel) {
  const deployment = await deploymentWithDeprecation(value);
  try {
    return await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec', ...(warnings ? { warnings } : {}) });
  } finally {
    await deployment.close();
  }
}

const aboutDeprecation = (lines: readonly string[]) => lines.filter((line) => /deprecation/i.test(line) && !line.startsWith('getPet is deprecated'));

describe('petstore-verify reads the Deprecation header of getPet', () => {
  it.each(['@1748736000', 'true'])('takes %s without a word, even under --strict', async (value) => {
    const report = await verifyWithDeprecation(value, 'all');
    expect(report.exitCode).toBe(0);
    expect(aboutDeprecation([...report.advice, ...report.results.flatMap((result) => result.warnings)])).toEqual([]);
  });

  it('passes an HTTP-date (the form before RFC 9745): no failure, no warning by default', async () => {
    const report = await verifyWithDeprecation(HTTP_DATE);
    expect(report.results.filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.counts.warnings).toBe(0);
    expect(report.advice).toEqual([]);
  });

  it('under --strict, says so once for the run, not once per check or per response', async () => {
    const report = await verifyWithDeprecation(HTTP_DATE, 'all');
    expect(report.exitCode).toBe(0);
    expect(report.results.flatMap((result) => result.warnings)).toEqual([]);
    const advice = aboutDeprecation(report.advice);
    expect(advice).toHaveLength(1);
    expect(advice[0]).toMatch(/deprecation: Sun, 01 Jun 2025 00:00:00 GMT, .*the interface does not state this header, so this is no failure/);
  });

  it('the CLI prints nothing about it by default, and one line under --strict', async () => {
    const deployment = await deploymentWithDeprecation(HTTP_DATE);
    try {
      const quiet = await runCli('petstore-verify', ['--base-url', deployment.url, '--api-key', KEY, '--suite', 'spec']);
      expect(quiet.code, quiet.stdout).toBe(0);
      expect(quiet.stdout).not.toMatch(/⚠/);
      expect(quiet.stdout).toMatch(/ 0 warnings in /);
      const strict = await runCli('petstore-verify', ['--base-url', deployment.url, '--api-key', KEY, '--suite', 'spec', '--strict']);
      expect(strict.code, strict.stdout).toBe(0);
      expect(strict.stdout.split('\n').filter((line) => line.includes('⚠') && /deprecation: Sun/i.test(line))).toHaveLength(1);
    } finally {
      await deployment.close();
    }
  });
});
