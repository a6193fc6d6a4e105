/**
 * Quiet and precise: the real `petstore-verify` CLI, run as a process, against deployments that
 * make the verifier noisy or imprecise when it gets them wrong. A rate-limiting deployment gets no
 * more POSTs than the help promises (retries counted), one line about the retries and no listener
 * leak; one faulty create is one failure with the checks that follow from it listed under it; an
 * int64 overflow is called that; a pact interaction that cannot run says why; and a port that
 * WHATWG fetch refuses is reached.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import { MAX_WRITES, type VerificationReport } from '../../src/contracts/runner.js';
import { type JsonValue, parseJson, stringifyJson } from '../../src/json/lossless.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { correctDeployment, type Deployment, FAULTS, faultyDeployment, serve } from '../support/deployments.js';
import { instantWaitsEnv } from '../support/instant-waits.js';

const KEY = 'petstore-dev-key';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'petstore-verify-quiet-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

function args(url: string, ...more: string[]): string[] {
  return ['--base-url', url, '--api-key', KEY, ...more];
}

async function jsonRun(url: string, ...more: string[]): Promise<{ report: VerificationReport; stderr: string; code: number | null }> {
  const result = await runCli('petstore-verify', args(url, '--reporter', 'json', ...more));
  return { report: JSON.parse(result.stdout) as VerificationReport, stderr: result.stderr, code: result.code };
}

const failures = (report: VerificationReport) => report.results.filter((result) => result.outcome === 'fail');

describe.concurrent('petstore-verify against a deployment that rate-limits', () => {
  it('sends at most its budget of POSTs, retries counted; says one line about the retries; leaks no listener', async () => {
    // Every third request is answered 429 with Retry-After: 1 (waited instantly, but asked for).
    const deployment = await correctDeployment({ limitEvery: 3, count: 0 });
    try {
      const log = join(folder, 'waits-429.jsonl');
      const result = await runCli('petstore-verify', args(deployment.url, '--suite', 'spec'), instantWaitsEnv(log));
      expect(deployment.served.limited).toBeGreaterThan(10);
      expect(deployment.served.postsReceived).toBeLessThanOrEqual(MAX_WRITES);
      expect(result.stderr).not.toMatch(/MaxListenersExceededWarning/);
      expect(result.stderr).not.toMatch(/Warning/);
      const retryLines = result.stdout.split('\n').filter((line) => /retried/i.test(line));
      expect(retryLines, result.stdout).toHaveLength(1);
      expect(retryLines[0]).toMatch(/^Retried \d+ requests: \d+ after 429 Too Many Requests, waiting \d+\.\d s in all as Retry-After asked/);
      // A correct deployment: what the budget left unchecked is skipped, nothing fails.
      expect(result.code, result.stdout).toBe(0);
    } finally {
      await deployment.close();
    }
  });
});

describe.concurrent('petstore-verify groups the report by cause', () => {
  it('one faulty create (200 instead of 201) is one failure, with every check that fails from it listed under it, in both suites', async () => {
    const deployment = await faultyDeployment(FAULTS['createPet answers 200 instead of 201'] as NonNullable<(typeof FAULTS)[string]>);
    try {
      const { report, code } = await jsonRun(deployment.url, '--suite', 'all');
      expect(code).toBe(1);
      const causes = failures(report).filter((result) => result.follows === undefined);
      expect(causes.map((result) => result.id)).toEqual(['createPet.echo']);
      const cause = causes[0] as CheckResult;
      const followers = failures(report).filter((result) => result.follows !== undefined);
      // The list, get and pact checks that create pets fail from the same fault, and point to it.
      expect(followers.length).toBeGreaterThan(5);
      expect(followers.every((result) => result.follows === cause.id)).toBe(true);
      expect(followers.some((result) => result.suite === 'pact')).toBe(true);
      expect(cause.followers).toEqual(followers.map((result) => result.id));
      expect(report.counts.failed).toBe(1);
      expect(report.counts.following).toBe(followers.length);

      const console = await runCli('petstore-verify', args(deployment.url, '--suite', 'all'));
      expect(console.code).toBe(1);
      const summary = console.stdout.slice(console.stdout.indexOf('\nFailures\n'));
      expect(summary).toMatch(/^1\) createPet\.echo: /m);
      expect(summary).not.toMatch(/^2\) /m);
      expect(summary).toContain(`${followers.length} other checks failed from this fault alone:`);
      for (const follower of followers) expect(summary).toContain(`     - ${follower.id}: `);
      expect(summary).toMatch(/1 failed \(and \d+ more from the same faults\)/);
      expect(summary).toContain('The deployment breaks the contract: 1 fault found.');

      const junit = await runCli('petstore-verify', args(deployment.url, '--suite', 'all', '--reporter', 'junit'));
      expect(junit.stdout).toMatch(/<testsuites name="petstore-verify" tests="\d+" failures="1" /);
      expect(junit.stdout).toContain(`fails only from the fault reported by createPet.echo`);
    } finally {
      await deployment.close();
    }
  });

  it('a store that keeps nothing: the checks that only fail to read back a created pet follow one failure', async () => {
    const deployment = await faultyDeployment(FAULTS['nothing stored'] as NonNullable<(typeof FAULTS)[string]>);
    try {
      const { report } = await jsonRun(deployment.url, '--suite', 'spec');
      expect(report.exitCode).toBe(1);
      expect(report.counts.failed).toBeLessThan(failures(report).length);
      // The checks that only met "a pet just created reads back 404" follow one check that met it too.
      const byId = new Map(report.results.map((result) => [result.id, result]));
      const cause = byId.get('createPet.persisted')?.follows;
      expect(cause).toBeDefined();
      expect(byId.get('createPet.boundaries')?.follows).toBe(cause);
      expect(byId.get(cause as string)?.followers).toEqual(expect.arrayContaining(['createPet.persisted', 'createPet.boundaries']));
    } finally {
      await deployment.close();
    }
  });
});

/** A deployment that takes a categoryId beyond int64 and echoes it, digit for digit. */
function acceptsBeyondInt64(): Promise<Deployment> {
  const mock = createMockApi();
  return serve(async (request) => {
    if (request.method !== 'POST') return mock.fetch(request);
    const text = await request.text();
    let body: JsonValue;
    try {
      body = parseJson(text);
    } catch {
      return mock.fetch(new Request(request, { body: text }));
    }
    const categoryId = typeof body === 'object' && body !== null && !Array.isArray(body) ? body.categoryId : undefined;
    if (typeof categoryId !== 'bigint' || categoryId < 2n ** 63n) return mock.fetch(new Request(request, { body: text }));
    const answer = await mock.fetch(new Request(request, { body: text.replace(categoryId.toString(), '1') }));
    const pet = parseJson(await answer.text());
    if (answer.status !== 201 || typeof pet !== 'object' || pet === null || Array.isArray(pet)) return answer;
    return new Response(stringifyJson({ ...pet, categoryId }), { status: 201, headers: answer.headers });
  });
}

describe.concurrent('petstore-verify says what is wrong in the words of the interface', () => {
  it('calls a categoryId of 2^63 beyond int64, not "must be integer"', async () => {
    const deployment = await acceptsBeyondInt64();
    try {
      const { report } = await jsonRun(deployment.url, '--suite', 'spec');
      const messages = failures(report).flatMap((result) => result.findings.map((finding) => finding.message));
      expect(messages).toContainEqual(expect.stringMatching(/\/categoryId is 9223372036854775808, beyond int64/));
      expect(messages.filter((message) => /categoryId must be integer/.test(message))).toEqual([]);
    } finally {
      await deployment.close();
    }
  });

  it('says why a pact interaction could not run, and does not call it a contract failure', async () => {
    const pact = JSON.parse(await readFile('spec/pacts/petstore-web-petstore-api.json', 'utf8')) as {
      consumer: { name: string };
      interactions: { description: string; request: Record<string, unknown> }[];
    };
    const [first] = pact.interactions;
    if (!first) throw new Error('the bundled pact has no interaction');
    // A header value with a line break, which no HTTP client sends: the Pact Verifier never sends the request.
    const unrunnable = {
      ...first,
      description: 'a request with a header no client can send',
      request: { ...first.request, headers: { 'X-Broken': 'a\nb' } },
    };
    const file = join(folder, 'unrunnable-pact.json');
    await writeFile(file, JSON.stringify({ ...pact, consumer: { name: 'odd-consumer' }, interactions: [unrunnable] }));
    const deployment = await correctDeployment();
    try {
      const { report } = await jsonRun(deployment.url, '--suite', 'pact', '--pact', file, '--timeout', '1500');
      const result = report.results.find((candidate) => candidate.id === 'pact.odd-consumer.a-request-with-a-header-no-client-can-send');
      expect(result?.outcome).toBe('error');
      expect(result?.reason).toMatch(/^could not verify: the Pact verifier reports Error: Invalid header value: .*; the deployment got no request of it/s);
    } finally {
      await deployment.close();
    }
  });
});

/** Ports on WHATWG fetch's list of bad ports (https://fetch.spec.whatwg.org/#port-blocking), free here. */
async function listenOnBadPort(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  for (const port of [6000, 5060, 5061, 6665, 6666, 6667, 6668, 6669, 6697, 10080]) {
    const server = createServer(handler);
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) return { server, port };
  }
  throw new Error('every bad port is taken on this machine');
}

describe.concurrent('petstore-verify on a port that WHATWG fetch refuses', () => {
  it('reaches the deployment and verifies it', async () => {
    const mock = createMockApi();
    const { server, port } = await listenOnBadPort(async (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
      const method = incoming.method ?? 'GET';
      const body = chunks.length > 0 && method !== 'GET' ? Buffer.concat(chunks) : null;
      const answer = await mock.fetch(new Request(`http://127.0.0.1:${port}${incoming.url}`, { method, headers, body }));
      outgoing.writeHead(answer.status, Object.fromEntries(answer.headers));
      outgoing.end(Buffer.from(await answer.arrayBuffer()));
    });
    try {
      const { report, stderr } = await jsonRun(`http://127.0.0.1:${port}/v1`, '--suite', 'spec');
      expect(report.fatal, stderr).toBeUndefined();
      expect(failures(report).map((result) => result.id)).toEqual([]);
      expect(report.exitCode).toBe(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
