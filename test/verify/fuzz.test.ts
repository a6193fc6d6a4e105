/**
 * The fuzz suite (`--suite fuzz`, `--fuzz-runs`): quiet on correct deployments that make every choice
 * the interface leaves open, with several seeds; failing the stateful faults, each with a shrunk
 * sequence of calls printed as curl lines that reproduces it.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { waits } from '../../src/contracts/pace.js';
import { junitReport } from '../../src/contracts/reporters/junit.js';
import { MAX_FUZZ_WRITES } from '../../src/contracts/run-bounds.js';
import { MAX_WRITES, SPEC_WRITES, type VerificationReport, verify } from '../../src/contracts/runner.js';
import { startMockServer } from '../../src/mock/hosts/node-server.js';
import { runCli } from '../support/cli.js';
import { alternativeDeployment, correctDeployment, type Deployment, FAULTS, type Fault, faultyDeployment } from '../support/deployments.js';
import { limitIgnoredOnceGrown, soldLost } from './fuzz-faults.js';

const KEY = 'petstore-dev-key';
const SEEDS = [1, 2, 3];

function fuzzResult(report: VerificationReport) {
  const result = report.results.find((candidate) => candidate.id === 'fuzz.model');
  if (!result) throw new Error(`no fuzz.model in ${JSON.stringify(report)}`);
  return result;
}

async function fuzzing(deployment: Deployment, seed: number, suite: 'fuzz' | 'spec' = 'fuzz'): Promise<VerificationReport> {
  try {
    return await verify({ baseUrl: deployment.url, apiKey: KEY, suite, fuzz: { seed, runs: 40 } });
  } finally {
    await deployment.close();
  }
}

describe('the fuzz suite on correct deployments', () => {
  it.each(SEEDS)('passes the mock, seed %i, within its budget of POSTs', async (seed) => {
    const mock = await startMockServer({ port: 0 });
    const report = await fuzzing({ url: mock.url, close: () => mock.close() }, seed);
    expect(fuzzResult(report).findings).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.posts).toBeLessThanOrEqual(MAX_FUZZ_WRITES);
    expect(report.requests).toBeGreaterThan(100);
  });

  it.each(SEEDS)('passes a deployment that makes the other choice where the interface leaves one, seed %i', async (seed) => {
    const report = await fuzzing(await alternativeDeployment(), seed);
    expect(fuzzResult(report).findings).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it.each([
    { ids: 'random', order: 'name', defaultStatus: 'sold', count: 3 },
    { ids: 'beyond-2^53', order: 'status', limitOutOfRange: 'clamp', unknownStatus: 'empty', count: 0 },
    { ids: 'time-ordered', order: 'newest-first', nonIntegerPetId: 404, categories: [2n, 5n], count: 120 },
  ] as const)('passes a correct deployment with %o', async (choices) => {
    for (const seed of SEEDS) {
      const report = await fuzzing(await correctDeployment(choices), seed);
      expect(fuzzResult(report).findings, `seed ${seed}`).toEqual([]);
    }
  });

  it('paces its requests by --rps, through the same client as the spec suite', async () => {
    // The pacer's waits are asked of waits.schedule: recorded and ended at once, so no real time is waited out.
    const asked: number[] = [];
    const schedule = waits.schedule;
    waits.schedule = (ms, done) => {
      asked.push(ms);
      const immediate = setImmediate(done);
      return () => clearImmediate(immediate);
    };
    try {
      const deployment = await correctDeployment();
      const started = performance.now();
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'fuzz', rps: 5, fuzz: { seed: 1, runs: 10 } }).finally(() =>
        deployment.close(),
      );
      const elapsed = performance.now() - started;
      expect(report.exitCode).toBe(0);
      expect(report.requests).toBeGreaterThan(10);
      // At 5 requests a second the last request starts 200 ms after each one before it: the pacer asked to wait
      // for what the real time of the run did not already cover.
      expect(Math.max(...asked) + elapsed).toBeGreaterThanOrEqual((report.requests - 1) * 200);
    } finally {
      waits.schedule = schedule;
    }
  });

  it('lists and reads only, under --read-only', async () => {
    const deployment = await correctDeployment();
    const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'fuzz', readOnly: true, fuzz: { seed: 1, runs: 20 } }).finally(() =>
      deployment.close(),
    );
    expect(report.exitCode).toBe(0);
    expect(report.posts).toBe(0);
  });
});

describe('the fuzz suite on faulty deployments', () => {
  it.each([
    ['a create that is not kept', FAULTS['nothing stored'], /id \d+ of a pet created in this sequence|404 for the pet \d+ created in this sequence/],
    ['every create given the same id', FAULTS['every created pet gets id 1'], /gave a new pet the id 1 of a pet listed at the start/],
    ['a 500 on some bodies', FAULTS['500 on malformed JSON'], /createPet answered 500/],
    ['a list that ignores its limit once the table grows', limitIgnoredOnceGrown(), /listPets answered \d+ pets for limit=\d+/],
  ] as const)('fails %s', async (_, fault, message) => {
    const report = await fuzzing(await faultyDeployment(fault as Fault), 1);
    const result = fuzzResult(report);
    expect(report.exitCode).toBe(1);
    expect(result.outcome).toBe('fail');
    expect(result.findings[0]?.message).toMatch(message);
    expect(result.findings[0]?.message).toMatch(/seed 1: re-run with --seed 1/);
    expect(result.findings[0]?.replay?.length).toBeGreaterThan(0);
    // Shrinking replays sequences too, within the same budget.
    expect(report.posts).toBeLessThanOrEqual(MAX_FUZZ_WRITES);
  });

  it('ends with "could not verify" (exit 2), never a shrunk failure, when the deployment stops answering', async () => {
    let answered = 0;
    const stalling: Fault = (request, mock) => (++answered > 30 ? new Promise<Response>(() => {}) : mock(request));
    const deployment = await faultyDeployment(stalling);
    const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'fuzz', timeoutMs: 300, fuzz: { seed: 1, runs: 40 } }).finally(() =>
      deployment.close(),
    );
    const result = fuzzResult(report);
    expect(result.outcome).toBe('error');
    expect(result.reason).toMatch(/could not verify: GET .* no complete answer within 300 ms|could not verify: POST .* no complete answer within 300 ms/);
    expect(result.findings).toEqual([]);
    expect(report.exitCode).toBe(2);
    // One request timed out, then no sequence ran: nothing was shrunk against a deployment that does not answer.
    expect(report.requests).toBeLessThanOrEqual(32);
  });

  it('gives the shrunk calls in the JSON report (findings[].replay, the key as its template) and in the JUnit report', async () => {
    const report = await fuzzing(await faultyDeployment(soldLost()), 1);
    const replay = fuzzResult(report).findings[0]?.replay ?? [];
    expect(replay.map((request) => request.method)).toEqual(['POST', 'GET']);
    expect(replay[0]?.headers.authorization).toBe('Bearer $PETSTORE_API_KEY');
    expect(JSON.stringify(report)).not.toContain(KEY);
    const junit = junitReport(report);
    expect(junit).toMatch(/replay 1: curl -sS -i -X POST /);
    expect(junit).toMatch(/replay 2: curl -sS -i &#39;http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/\d+&#39;/);
  });

  it('runs after the spec suite with --suite spec and --fuzz-runs, each within its own budget of POSTs', async () => {
    const report = await fuzzing(await faultyDeployment(FAULTS['every created pet gets id 1'] as Fault), 1, 'spec');
    expect(report.results.filter((result) => result.suite === 'spec').length).toBeGreaterThan(20);
    expect(fuzzResult(report).outcome).toBe('fail');
    expect(report.posts).toBeLessThanOrEqual(MAX_WRITES + MAX_FUZZ_WRITES);
  });

  it('keeps its own POSTs when the spec suite spent all of its own: it runs, and finds what only it can', async () => {
    // Against this deployment the spec suite's checks send all their SPEC_WRITES POSTs (the pets they create sold are never found).
    const report = await fuzzing(await faultyDeployment(soldLost()), 1, 'spec');
    expect(fuzzResult(report).outcome).toBe('fail');
    expect(report.exitCode).toBe(1);
    expect(report.posts).toBeGreaterThan(SPEC_WRITES);
    expect(report.posts).toBeLessThanOrEqual(MAX_WRITES + MAX_FUZZ_WRITES);
  });
});

describe('petstore-verify --suite fuzz (the CLI)', () => {
  /** The console's replay lines of the one failure. */
  const replayOf = (stdout: string) => stdout.split('\n').filter((line) => /^ {7}\d+\. curl /.test(line));

  it('prints the seed, then a seeded fault shrunk to at most 3 calls as curl lines with the key as a variable; the same seed finds it again', async () => {
    const runs: { stdout: string; lines: string[] }[] = [];
    for (let i = 0; i < 2; i++) {
      const deployment = await faultyDeployment(soldLost());
      const result = await runCli('petstore-verify', ['--suite', 'fuzz', '--seed', '7', '--fuzz-runs', '60'], {
        PETSTORE_BASE_URL: deployment.url,
        PETSTORE_API_KEY: KEY,
      }).finally(() => deployment.close());
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stdout.split('\n')[0]).toBe('Fuzz suite: 60 sequences from seed 7 (run again with --seed 7 to replay them)');
      expect(result.stdout).toMatch(
        /getPet answered 404 for the pet \d+ created in this sequence: found by a generated sequence of calls, shrunk to the 2 calls below \(seed 7/,
      );
      const lines = replayOf(result.stdout);
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines.length).toBeLessThanOrEqual(3);
      expect(lines[0]).toMatch(/-X POST .*"status":"sold"/);
      expect(lines.at(-1)).toMatch(/curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/\d+' -H "authorization: Bearer \$\{PETSTORE_API_KEY\}"$/);
      expect(result.stdout + result.stderr).not.toContain(KEY);
      runs.push({ stdout: result.stdout, lines: lines.map((line) => line.replace(/127\.0\.0\.1:\d+/, 'HOST').replace(/petstore-verify [0-9a-f]{8}/, 'RUN')) });
    }
    expect(runs[1]?.lines).toEqual(runs[0]?.lines);
  });

  it('refuses --seed without the fuzz suite, naming the flag to add', async () => {
    const result = await runCli('petstore-verify', ['--suite', 'spec', '--seed', '7'], { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1', PETSTORE_API_KEY: KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("petstore-verify: --seed is the fuzz suite's: add --fuzz-runs N (or --suite fuzz) to run it\n");
  });
});

describe("docs/verifier.md's Fuzzing section", () => {
  /** What differs from one run to the next: the port, the run id, the time taken, the ids the deployment assigned. */
  const normal = (line: string) =>
    line
      .replace(/127\.0\.0\.1:\d+/g, 'HOST')
      .replace(/petstore-verify [0-9a-f]{8}/g, 'petstore-verify RUN')
      .replace(/\d+ ms\b/g, 'N ms')
      .replace(/(the pet |\/pets\/)\d+/g, '$1ID');

  it('shows what its command prints for a deployment that loses the pets created with status sold', async () => {
    const page = await readFile(new URL('../../docs/verifier.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## Fuzzing'), page.indexOf('\n## ', page.indexOf('## Fuzzing') + 1));
    const command = /```sh\n.*node bin\/petstore-verify\.js (.+)\n```/.exec(section)?.[1];
    const shown = /```\n(Fuzz suite:[\s\S]*?)```/.exec(section)?.[1];
    expect(command).toBeDefined();
    expect(shown).toBeDefined();
    const deployment = await faultyDeployment(soldLost());
    const result = await runCli('petstore-verify', (command ?? '').split(' '), { PETSTORE_BASE_URL: deployment.url, PETSTORE_API_KEY: KEY }).finally(() =>
      deployment.close(),
    );
    const printed = result.stdout.split('\n').map(normal);
    for (const line of (shown ?? '').trimEnd().split('\n')) expect(printed, result.stdout).toContain(normal(line));
  });
});
