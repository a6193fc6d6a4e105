/**
 * petstore-verify ends within --deadline against servers that attack every answer, and while --rps
 * waits, with the verifier's memory bounded (every process of the run under 768 MB) and the right
 * exit code; the Pact suite goes through the same bounds and counts, and so does the read of a
 * `--pact` URL. Run through the real CLI, as CI would, with its peak memory read from /proc.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { bySuite, DEADLINE_SLACK_MS, MAX_RSS, reportOf } from '../support/bounds.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';
import { type Hostility, hostileDeployment } from '../support/hostile-servers.js';
import { runCliMeasured } from '../support/peak-rss.js';

const KEY = 'petstore-dev-key';

let deployment: Deployment | undefined;
afterEach(async () => {
  await deployment?.close();
  deployment = undefined;
});

describe('petstore-verify against a deployment hostile on every answer', () => {
  // Each request may wait 60 s (--timeout): what ends the run is --deadline for an answer that never
  // ends, Node's limit on headers for headers that never end (or the deadline, on a machine too busy to
  // read that much in 5 s), both exit 2. A body too large is cut at 5 MiB and judged a broken contract
  // (exit 1) if one is judged before the deadline, which a busy machine may not reach (exit 2, the
  // deadline named); test/verify/bounds.test.ts shows the cap's finding.
  it.each<[Hostility, RegExp]>([
    ['slow-drip', /deadline/],
    ['endless-headers', /Header overflow|deadline/],
    ['gzip-bomb', /5 MiB|deadline/],
    ['endless-body', /5 MiB|deadline/],
  ])('%s: ends within --deadline 5000 with exit 2 or 1, in bounded memory', async (hostility, endedBy) => {
    deployment = await hostileDeployment(hostility);
    const run = await runCliMeasured('petstore-verify', ['--base-url', deployment.url, '--timeout', '60000', '--deadline', '5000'], {
      PETSTORE_API_KEY: KEY,
    });
    expect(run.ms).toBeLessThan(5_000 + DEADLINE_SLACK_MS);
    expect(run.cpuMs).toBeLessThan(5_000 + DEADLINE_SLACK_MS);
    expect(run.peakRssBytes).toBeLessThan(MAX_RSS);
    const capped = /5 MiB/.test(run.stdout);
    expect(run.code, run.stdout).toBe(capped ? 1 : 2);
    expect(run.stdout).toMatch(endedBy);
    console.info(`${hostility} everywhere: peak RSS ${(run.peakRssBytes / 1024 / 1024).toFixed(0)} MB, ${(run.ms / 1000).toFixed(1)} s, exit ${run.code}`);
  });
});

describe('petstore-verify against answers that are costly to read: bounded in time, memory and output', () => {
  it.each<[Hostility, string]>([
    ['million-digit-id', 'an id of a million digits in every answer'],
    ['five-megabyte-name', 'a name of five million characters in every answer (5 MB, read and parsed whole)'],
  ])('%s (%s): ends within --deadline 10000, every echoed value an excerpt', async (hostility) => {
    deployment = await hostileDeployment(hostility);
    const run = await runCliMeasured('petstore-verify', ['--base-url', deployment.url, '--deadline', '10000'], { PETSTORE_API_KEY: KEY });
    expect(run.ms).toBeLessThan(10_000 + DEADLINE_SLACK_MS);
    expect(run.cpuMs).toBeLessThan(10_000 + DEADLINE_SLACK_MS);
    expect(run.peakRssBytes).toBeLessThan(MAX_RSS);
    expect([1, 2]).toContain(run.code);
    // Before: 6 to 24 MB of output, lines of a million characters. A line holds at most a few excerpts now.
    expect(run.stdout.length + run.stderr.length).toBeLessThan(200_000);
    expect(Math.max(...`${run.stdout}\n${run.stderr}`.split('\n').map((line) => line.length))).toBeLessThan(3_000);
    expect(run.stdout).not.toMatch(/9{1000}|x{1000}/);
    console.info(
      `${hostility}: ${(run.ms / 1000).toFixed(1)} s, peak RSS ${(run.peakRssBytes / 1024 / 1024).toFixed(0)} MB, ${run.stdout.length} characters out, exit ${run.code}`,
    );
  });
});

describe('petstore-verify keeps --deadline while --rps waits', () => {
  it('--rps 1 --deadline 5000 ends in about 5 s, with exit 2 and the deadline named', async () => {
    deployment = await serve((request) => createMockApi().fetch(request));
    const started = performance.now();
    const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--rps', '1', '--deadline', '5000'], { PETSTORE_API_KEY: KEY });
    const ms = performance.now() - started;
    expect(run.code).toBe(2);
    expect(ms).toBeGreaterThan(4_500);
    // At one request a second, the run's 180-odd requests would take three minutes without the deadline.
    expect(ms).toBeLessThan(5_000 + DEADLINE_SLACK_MS);
    expect(run.stdout).toMatch(/deadline/);
  });
});

describe('the Pact suite goes through the same bounds and counts as the spec suite', () => {
  it('reports every request and write the deployment received, from both suites', async () => {
    const mock = createMockApi();
    const received = { requests: 0, posts: 0 };
    deployment = await serve((request) => {
      received.requests++;
      // A write is any method RFC 9110 does not call safe: the variation checks send DELETE too.
      if (!['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(request.method)) received.posts++;
      return mock.fetch(request);
    });
    const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--reporter', 'json'], { PETSTORE_API_KEY: KEY });
    const report = reportOf(run.stdout);
    expect(run.code).toBe(0);
    expect(bySuite(report, 'pact').length).toBeGreaterThan(5);
    expect({ requests: report.requests, posts: report.posts }).toEqual(received);
    expect(run.stderr).toContain(`${received.requests} requests · ${received.posts} writes`);
  });

  it('--suite pact keeps to --rps', async () => {
    const mock = createMockApi();
    const starts: number[] = [];
    deployment = await serve((request) => {
      starts.push(performance.now());
      return mock.fetch(request);
    });
    const rps = 8;
    const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--suite', 'pact', '--rps', String(rps)], { PETSTORE_API_KEY: KEY });
    expect(run.code).toBe(0);
    // The first request is the preflight's; every later one is the Pact suite's, through its proxy.
    const pact = starts.slice(1);
    expect(pact.length).toBeGreaterThan(8);
    const span = (pact.at(-1) ?? 0) - (pact[0] ?? 0);
    // The pacer keeps to its schedule, so a first request a busy machine sent late shortens the span: by
    // up to two intervals (250 ms) here. Without --rps the requests would all go within a few intervals.
    expect(span).toBeGreaterThanOrEqual(((pact.length - 3) * 1000) / rps);
  });
});

describe('petstore-verify reads a --pact URL within --deadline', () => {
  it('ends a pact served a byte a second with the run, naming the deadline', async () => {
    deployment = await serve((request) => createMockApi().fetch(request));
    // Headers at once, then a byte of JSON a second, for ever.
    const trickle = createServer((_request, answer) => {
      answer.writeHead(200, { 'content-type': 'application/json' });
      answer.write('{');
      const drip = setInterval(() => answer.write(' '), 1_000);
      answer.on('close', () => clearInterval(drip));
    });
    trickle.listen(0, '127.0.0.1');
    await once(trickle, 'listening');
    try {
      const { port } = trickle.address() as { port: number };
      const run = await runCli(
        'petstore-verify',
        ['--base-url', deployment.url, '--suite', 'pact', '--pact', `http://127.0.0.1:${port}/pact.json`, '--deadline', '3000'],
        {
          PETSTORE_API_KEY: KEY,
        },
      );
      expect(run.code, run.stdout).toBe(2);
      // It read until the pact's own 15 s, past the run's deadline.
      expect(`${run.stdout}${run.stderr}`).toMatch(/deadline \(--deadline\) passed while the pact http:\/\/127\.0\.0\.1:\d+\/pact\.json \(--pact\) was read/);
    } finally {
      trickle.closeAllConnections();
      trickle.close();
    }
  });
});
