/**
 * The verifier against deployments that are down, slow or broken in ways that are not about the
 * contract: each gives a clear message and the right exit code (2: cannot verify, 1: broken
 * contract) within the deadline, and the key never leaves for another host.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS, verify } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { type Deployment, serve, type WebHandler } from '../support/deployments.js';
import { FULL_PAGE } from '../support/page-size.js';

const KEY = 'sk-resilience-secret-key';
const mock = createMockApi({ apiKeys: [KEY] });
const correct: WebHandler = (request) => mock.fetch(request);
const base = { apiKey: KEY, suite: 'spec' as const };

async function withDeployment<T>(handler: WebHandler, run: (deployment: Deployment) => Promise<T>): Promise<T> {
  const deployment = await serve(handler);
  try {
    return await run(deployment);
  } finally {
    await deployment.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A wait that does not keep the test's process alive. */
const unrefSleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * The bound of a run that the lower --timeout or --deadline a test gives must end: half of what the
 * default --timeout (10 s) alone would take, many times what the lower one takes even on a busy machine.
 */
const BY_THE_DEFAULT_TIMEOUT = DEFAULT_TIMEOUT_MS / 2;

describe('petstore-verify when the deployment cannot be verified', () => {
  it('exits 2 when the host name does not resolve', async () => {
    const report = await verify({ ...base, baseUrl: 'http://petstore.invalid/v1' });
    expect(report.exitCode).toBe(2);
    expect(report.fatal).toMatch(
      new RegExp(`^cannot reach the deployment: GET http://petstore\\.invalid/v1/pets\\?${FULL_PAGE}: the host name does not resolve`),
    );
  });

  it('exits 2 when nothing answers within the timeout', async () => {
    const started = performance.now();
    const report = await withDeployment(
      () => new Promise(() => {}),
      (deployment) => verify({ ...base, baseUrl: deployment.url, timeoutMs: 300 }),
    );
    expect(report.exitCode).toBe(2);
    expect(report.fatal).toMatch(/no complete answer within 300 ms \(--timeout\)/);
    expect(performance.now() - started).toBeLessThan(BY_THE_DEFAULT_TIMEOUT);
  });

  it('exits 2 when the deployment hangs after the headers of some answers, within the timeout', async () => {
    const hangs: WebHandler = async (request) => {
      if (!/\/pets\/\d+$/.test(new URL(request.url).pathname)) return correct(request);
      const stream = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"id":')) });
      return new Response(stream, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    // The other answers are whole and must come within the timeout too: 2 s, which a busy machine keeps.
    // That the stuck ones were ended by it, not by the default 10 s, the reason says.
    const report = await withDeployment(hangs, (deployment) => verify({ ...base, baseUrl: deployment.url, timeoutMs: 2_000, readOnly: true }));
    expect(report.exitCode).toBe(2);
    const stuck = report.results.filter((result) => result.outcome === 'error');
    expect(stuck.map((result) => result.id)).toContain('getPet.existing');
    expect(stuck[0]?.reason).toMatch(/could not verify: GET .*\/pets\/\d+: no complete answer within 2000 ms/);
  });

  it('stops at the global deadline and says so', async () => {
    // Past the preflight, every answer takes longer than the run: only the deadline (2 s, time enough for
    // the preflight on a busy machine) can end it before each request's own --timeout (10 s by default).
    const slow: WebHandler = async (request) =>
      new URL(request.url).search.includes(FULL_PAGE) ? correct(request) : unrefSleep(60_000).then(() => correct(request));
    const started = performance.now();
    const report = await withDeployment(slow, (deployment) => verify({ ...base, baseUrl: deployment.url, deadlineMs: 2_000, readOnly: true }));
    expect(performance.now() - started).toBeLessThan(BY_THE_DEFAULT_TIMEOUT);
    expect(report.exitCode).toBe(2);
    expect(report.results.some((result) => result.reason?.includes("the run's deadline passed"))).toBe(true);
  });

  it('exits 2 when every answer is 503, after retrying the read', async () => {
    const down: WebHandler = async () => new Response('<html>503 Service Unavailable</html>', { status: 503, headers: { 'content-type': 'text/html' } });
    const report = await withDeployment(down, (deployment) => verify({ ...base, baseUrl: deployment.url }));
    expect(report.exitCode).toBe(2);
    expect(report.fatal).toMatch(/the deployment is unavailable: GET .* answered 503 3 times/);
    expect(report.retried).toHaveLength(2);
  });

  it('exits 2 when the base URL serves an HTML error page instead of the API', async () => {
    const html: WebHandler = async () => new Response('<!doctype html><h1>Not Found</h1>', { status: 404, headers: { 'content-type': 'text/html' } });
    const report = await withDeployment(html, (deployment) => verify({ ...base, baseUrl: deployment.url }));
    expect(report.exitCode).toBe(2);
    expect(report.fatal).toMatch(/answered 404 with text\/html, not the API: is --base-url right\?/);
  });

  it('exits 2 on a TLS error', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(folder, 'key.pem'),
        '-out',
        join(folder, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ],
      { stdio: 'ignore' },
    );
    const server = createHttpsServer({ key: readFileSync(join(folder, 'key.pem')), cert: readFileSync(join(folder, 'cert.pem')) }, (_, response) =>
      response.end('[]'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const report = await verify({ ...base, baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
      expect(report.exitCode).toBe(2);
      expect(report.fatal).toMatch(/cannot reach the deployment: .*TLS failed: .*(certificate|self.signed)/i);
    } finally {
      server.close();
    }
  });
});

describe('petstore-verify when the deployment misbehaves', () => {
  let elsewhere: Deployment;
  const received: (string | null)[] = [];
  beforeAll(async () => {
    elsewhere = await serve(async (request) => {
      received.push(request.headers.get('authorization'));
      return correct(request);
    });
  });
  afterAll(() => elsewhere.close());

  it('never follows a redirect to another host, so the key stays home; the preflight says what to do', async () => {
    const redirecting: WebHandler = async (request) => {
      const url = new URL(request.url);
      return new Response(null, { status: 307, headers: { location: `${elsewhere.url}${url.pathname.slice(3)}${url.search}` } });
    };
    const report = await withDeployment(redirecting, (deployment) => verify({ ...base, baseUrl: deployment.url }));
    expect(report.exitCode).toBe(2);
    expect(report.fatal).toMatch(
      new RegExp(`redirects \\(307\\) to http://127\\.0\\.0\\.1:\\d+/v1/pets\\?${FULL_PAGE}\\. petstore-verify follows no redirect`),
    );
    expect(received).toEqual([]);
  });

  it('fails a redirect of one operation as a broken contract, without sending the key along', async () => {
    const partly: WebHandler = async (request) => {
      const url = new URL(request.url);
      if (!/\/pets\/\d+$/.test(url.pathname)) return correct(request);
      return new Response(null, { status: 302, headers: { location: `${elsewhere.url}${url.pathname.slice(3)}` } });
    };
    const report = await withDeployment(partly, (deployment) => verify({ ...base, baseUrl: deployment.url, readOnly: true }));
    expect(report.exitCode).toBe(1);
    expect(report.results.find((result) => result.id === 'getPet.existing')?.findings[0]?.message).toMatch(
      /getPet answered 302, a status the spec does not document/,
    );
    expect(received).toEqual([]);
  });

  it('fails a storm of 500s as a broken contract', async () => {
    const broken: WebHandler = async () =>
      new Response('{"code":"internal","message":"boom","status":500}', { status: 500, headers: { 'content-type': 'application/json' } });
    const report = await withDeployment(broken, (deployment) => verify({ ...base, baseUrl: deployment.url }));
    expect(report.exitCode).toBe(1);
    expect(report.results.every((result) => result.outcome !== 'pass')).toBe(true);
    expect(report.results.flatMap((result) => result.findings).some((finding) => /a server error, never allowed/.test(finding.message))).toBe(true);
  });

  it('fails a huge body as a broken contract, without reading all of it', async () => {
    const huge: WebHandler = async (request) =>
      new URL(request.url).pathname.endsWith('/pets') && request.method === 'GET'
        ? new Response(`[${'{"id":1,"name":"x","categoryId":1},'.repeat(200_000)}{"id":2,"name":"y","categoryId":1}]`, {
            headers: { 'content-type': 'application/json' },
          })
        : correct(request);
    const report = await withDeployment(huge, (deployment) => verify({ ...base, baseUrl: deployment.url, readOnly: true }));
    expect(report.exitCode).toBe(1);
    expect(report.results.flatMap((result) => result.findings).some((finding) => /larger than 5242880 bytes/.test(finding.message))).toBe(true);
  });

  it('retries a read after a 503 and says so in the report', async () => {
    const seen = new Set<string>();
    const flaky: WebHandler = async (request) => {
      const key = `${request.method} ${request.url}`;
      if (request.method === 'GET' && !seen.has(key)) {
        seen.add(key);
        return new Response('{"code":"unavailable","message":"try again","status":503}', { status: 503, headers: { 'content-type': 'application/json' } });
      }
      return correct(request);
    };
    const report = await withDeployment(flaky, (deployment) => verify({ ...base, baseUrl: deployment.url, readOnly: true }));
    expect(report.exitCode).toBe(0);
    expect(report.retried.length).toBeGreaterThan(5);
    expect(report.retried[0]).toMatch(new RegExp(`^GET http://127\\.0\\.0\\.1:\\d+/v1/pets\\?${FULL_PAGE} after 503$`));
    // Said once for the run (the console's one line about retries), not as a warning of each check.
    expect(report.retries.byCause).toEqual({ '503': report.retried.length });
    expect(report.results.flatMap((result) => result.warnings)).toEqual([]);
  });

  it('never retries a POST', async () => {
    let writes = 0;
    const flaky: WebHandler = async (request) => {
      // A write is any method RFC 9110 does not call safe: the variation checks send DELETE too.
      if (!['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(request.method)) writes++;
      if (request.method === 'POST') {
        return new Response('{"code":"unavailable","message":"try again","status":503}', { status: 503, headers: { 'content-type': 'application/json' } });
      }
      return correct(request);
    };
    const report = await withDeployment(flaky, (deployment) => verify({ ...base, baseUrl: deployment.url }));
    expect(report.exitCode).toBe(1);
    expect(report.retried.every((line) => line.startsWith('GET '))).toBe(true);
    expect(writes).toBe(report.writes);
  });

  it('keeps to --concurrency', async () => {
    let inFlight = 0;
    let most = 0;
    const slow: WebHandler = async (request) => {
      most = Math.max(most, ++inFlight);
      // Held until two have been in flight at once (or a second passed), however busy the machine: then
      // each long enough for a third to come, if the verifier sent one.
      for (const until = performance.now() + 1_000; most < 2 && performance.now() < until; ) await sleep(5);
      await sleep(15);
      inFlight--;
      return correct(request);
    };
    await withDeployment(slow, (deployment) => verify({ ...base, baseUrl: deployment.url, readOnly: true, concurrency: 2 }));
    expect(most).toBe(2);
  });

  it('keeps to --rps', async () => {
    const starts: number[] = [];
    const counted: WebHandler = async (request) => {
      starts.push(performance.now());
      return correct(request);
    };
    await withDeployment(counted, (deployment) => verify({ ...base, baseUrl: deployment.url, readOnly: true, rps: 50 }));
    const span = (starts.at(-1) ?? 0) - (starts[0] ?? 0);
    expect(starts.length).toBeGreaterThan(20);
    // The pacer keeps to its schedule, so a first request a busy machine sent late shortens the span: by
    // up to two intervals (40 ms) here. Without --rps the requests would all go within a few intervals.
    expect(span).toBeGreaterThanOrEqual(((starts.length - 3) * 1000) / 50);
  });
});
