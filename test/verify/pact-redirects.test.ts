/**
 * The Pact suite never follows a redirect. The Pact Verifier's own HTTP client would: a 307 on
 * `POST /v1/pets` sent it, with the POST body, straight to the Location, past the bounded proxy (an
 * endless body there grew its process to gigabytes) and the other host's 201 was judged as the
 * deployment's. The proxy now fails the interaction instead, naming the redirect.
 * Run through the real CLI, with its peak memory read from /proc.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { bySuite, MAX_RSS, reportOf } from '../support/bounds.js';
import { type Deployment, serve } from '../support/deployments.js';
import { hostileDeployment } from '../support/hostile-servers.js';
import { runCliMeasured } from '../support/peak-rss.js';

const KEY = 'petstore-dev-key';
/**
 * Each run's --deadline: a hang's bound, within the 3 minutes a test has. A run that ends by itself
 * (exit 1, not the 2 of checks the deadline cut off) in under half of it did not read until the deadline.
 */
const DEADLINE_MS = 150_000;
const CREATE = 'pact.petstore-web.a-request-to-create-a-pet';
const REDIRECTED =
  /the deployment redirected POST http:\/\/127\.0\.0\.1:\d+\/v1\/pets \(307\) to http:\/\/127\.0\.0\.1:\d+\/v1\/pets; petstore-verify never follows a redirect/;

const opened: Deployment[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((deployment) => deployment.close()));
});

/** The project's mock, except that every `POST /v1/pets` is answered 307 to `location`. */
async function redirectingDeployment(location: string): Promise<Deployment> {
  const mock = createMockApi({ count: 30 });
  const deployment = await serve(async (request) =>
    request.method === 'POST' && new URL(request.url).pathname === '/v1/pets'
      ? new Response(null, { status: 307, headers: { location } })
      : mock.fetch(request),
  );
  opened.push(deployment);
  return deployment;
}

async function verifyPactSuite(deployment: Deployment) {
  const args = ['--base-url', deployment.url, '--suite', 'pact', '--reporter', 'json', '--deadline', String(DEADLINE_MS)];
  const run = await runCliMeasured('petstore-verify', args, { PETSTORE_API_KEY: KEY });
  return { run, results: bySuite(reportOf(run.stdout), 'pact') };
}

const messagesOf = (result: CheckResult | undefined) => (result?.findings ?? []).map((finding) => finding.message).join('\n');

describe('petstore-verify --suite pact against a deployment that redirects its creates', () => {
  it('to an endless body on another port: ends long before --deadline, in bounded memory, failing the create for its redirect', async () => {
    const reached: string[] = [];
    const endless = await hostileDeployment('endless-body', (method, path) => {
      reached.push(`${method} ${path}`);
      return true;
    });
    opened.push(endless);
    const { run, results } = await verifyPactSuite(await redirectingDeployment(`${endless.url}/pets`));
    expect(run.code).toBe(1);
    expect(run.peakRssBytes).toBeGreaterThan(0);
    expect(run.peakRssBytes).toBeLessThan(MAX_RSS);
    expect(run.ms).toBeLessThan(DEADLINE_MS / 2);
    const create = results.find((result) => result.id === CREATE);
    expect(create?.outcome).toBe('fail');
    expect(messagesOf(create)).toMatch(REDIRECTED);
    expect(reached).toEqual([]);
    console.info(`307 to an endless body: peak RSS ${(run.peakRssBytes / 1024 / 1024).toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s`);
  });

  it('to another host answering 201: that host gets no request, and its 201 is never judged as the deployment’s', async () => {
    const reached: string[] = [];
    const elsewhere = await serve(async (request) => {
      reached.push(`${request.method} ${new URL(request.url).pathname}`);
      // What the pact expects of a create, so that a followed redirect would pass the interaction.
      const body: unknown = request.method === 'POST' ? await request.json().catch(() => ({})) : {};
      return Response.json({ id: 51, ...(typeof body === 'object' ? body : {}) }, { status: 201 });
    });
    opened.push(elsewhere);
    const { run, results } = await verifyPactSuite(await redirectingDeployment(`${elsewhere.url}/pets`));
    expect(run.code).toBe(1);
    expect(reached).toEqual([]);
    const create = results.find((result) => result.id === CREATE);
    expect(create?.outcome).toBe('fail');
    expect(messagesOf(create)).toMatch(REDIRECTED);
    // Every interaction that sends a POST fails for it: none passes on another host's response.
    const posts = results.filter((result) => result.findings.some((finding) => finding.request?.method === 'POST'));
    expect(posts.length).toBeGreaterThanOrEqual(3);
    for (const result of posts) expect(result.outcome).toBe('fail');
    console.info(`307 to another host: ${(run.ms / 1000).toFixed(1)} s`);
  });
});
