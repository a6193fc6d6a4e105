/**
 * No false alarm: `petstore-verify` against correct deployments that choose differently wherever the
 * interface leaves room, and against the project's own mock (its real CLI) in each mode. Each must
 * pass quietly: exit 0, no failed check, and, by default, no warning line. The verdicts are judged in
 * process (`verify()`, what the CLI runs): a CLI run costs some 0.5 s of CPU more, loading the package
 * again. The real CLI runs where its flags, exit code and output are what a test shows: the first
 * deployment (no warning line on stderr), `--category-id`, and the waits of a 429 in both processes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeObservations, type Observations } from '../../src/contracts/checks/observations.js';
import { RATE_LIMIT_RETRIES } from '../../src/contracts/http.js';
import { type VerifyOptions, verify } from '../../src/contracts/runner.js';
import { runCli, startMockCli } from '../support/cli.js';
import { type Choices, type CorrectDeployment, correctDeployment, OTHER_CHOICES } from '../support/deployments.js';
import { instantWaitsEnv, waitsIn } from '../support/instant-waits.js';
import { LIMIT } from '../support/page-size.js';

const KEY = 'petstore-dev-key';

interface JsonReport {
  readonly exitCode: number;
  readonly fatal?: string;
  readonly writes: number;
  readonly counts: { readonly warnings: number };
  readonly advice: readonly string[];
  readonly results: readonly { id: string; outcome: string; reason?: string; findings: readonly { message: string }[]; observations?: Observations }[];
}

/** Runs the CLI with the JSON reporter and returns its report. */
async function verifyCli(baseUrl: string, suite: 'spec' | 'all', extra: readonly string[] = [], env?: Record<string, string>): Promise<JsonReport> {
  const result = await runCli('petstore-verify', ['--base-url', baseUrl, '--api-key', KEY, '--suite', suite, '--reporter', 'json', ...extra], env);
  const report = JSON.parse(result.stdout) as JsonReport;
  expect(result.code, result.stderr).toBe(report.exitCode);
  // Quiet by default: the live lines (on stderr beside the JSON) carry no warning.
  if (!extra.includes('--strict')) expect(result.stderr.split('\n').filter((line) => line.includes('⚠'))).toEqual([]);
  return report;
}

/**
 * Runs the verifier in process, as the CLI does, and returns its report. Each request's bound is a
 * hang's, not a speed's: the runs and the deployments share this file's process, several at once,
 * and beside other work an answer may take longer than the default 10 s (`--timeout`).
 */
function verifyIn(baseUrl: string, suite: 'spec' | 'all', options: Partial<VerifyOptions> = {}): Promise<JsonReport> {
  return verify({ baseUrl, apiKey: KEY, suite, timeoutMs: 60_000, ...options });
}

/** The failures, with their messages, so that a false alarm explains itself in the test output. */
function failures(report: JsonReport): [string, string[]][] {
  return report.results.filter((result) => result.outcome === 'fail').map((result) => [result.id, result.findings.map((finding) => finding.message)]);
}

function expectPass(report: JsonReport): void {
  expect(report.fatal).toBeUndefined();
  expect(failures(report)).toEqual([]);
  expect(report.results.filter((result) => result.outcome === 'error').map((result) => [result.id, result.reason])).toEqual([]);
  expect(report.exitCode).toBe(0);
  expect(report.counts.warnings).toBe(0);
  expect(report.advice).toEqual([]);
}

/**
 * Correct deployments, each combining several choices. `pact: false` where ids pass 2^53: the Pact
 * suite's exact-int64 provider states are the `verify` branch's fix and have their own tests.
 */
const ALTERNATIVES: readonly { name: string; choices: Partial<Choices>; pact: boolean; observed: Observations }[] = [
  {
    name: 'sequential ids, newest first, status left out when not sent, categories 1..10 only, limit clamped, empty page for an unknown status, 404 for a non-integer id, charset=utf-8, extra fields, numeric error codes',
    choices: OTHER_CHOICES,
    pact: true,
    observed: {
      listOrder: 'id-desc',
      idScheme: 'increasing',
      limitOutOfRange: 'clamp',
      unknownStatus: 'empty',
      nonIntegerPetId: 404,
      defaultStatus: 'omitted',
    },
  },
  {
    name: 'ids from 2^31, ordered by status, default status sold, gzip when asked, Connection: close, chunked bodies',
    choices: { ids: 'from-2^31', order: 'status', defaultStatus: 'sold', gzip: true, connectionClose: true, chunked: true },
    pact: true,
    observed: { listOrder: 'status', defaultStatus: 'sold', limitOutOfRange: 'refuse', unknownStatus: 'refuse', nonIntegerPetId: 400, idsBeyondDouble: false },
  },
  {
    name: 'ordered by name, default status pending, behind a gateway prefix /api/v1, extra headers, upper-case error codes',
    choices: { order: 'name', defaultStatus: 'pending', basePath: '/api/v1', extraHeaders: true, errorCodes: 'upper' },
    pact: true,
    observed: { listOrder: 'name', defaultStatus: 'pending' },
  },
  {
    name: 'only categories 7 and 9 known (others refused with 400), three pets at the start, limit clamped',
    choices: { categories: [7n, 9n], count: 3, limitOutOfRange: 'clamp' },
    pact: true,
    observed: { categories: ['7'], limitOutOfRange: 'clamp' },
  },
  {
    name: 'the first listed category retired (listed, but refused for new pets): the verifier learns one that works',
    choices: { categories: [9n], listedCategories: [7n, 9n] },
    // The Pact suite's provider states still borrow the first listed category (src/contracts/pact/states.ts).
    pact: false,
    observed: { categories: ['9'], refusedCategories: expect.arrayContaining(['7']) },
  },
  {
    name: 'random int64 ids, newest first, status left out when not sent',
    choices: { ids: 'random', order: 'newest-first', defaultStatus: 'omitted' },
    pact: false,
    observed: { idsBeyondDouble: true, defaultStatus: 'omitted' },
  },
  {
    name: 'time-ordered ids beyond 2^53, ordered by name, gzip when asked, chunked',
    choices: { ids: 'time-ordered', order: 'name', gzip: true, chunked: true },
    pact: false,
    observed: { idsBeyondDouble: true, listOrder: 'name' },
  },
  {
    name: 'ids from 2^53 + 1, extra headers and fields, 404 for a non-integer id, empty page for an unknown status',
    choices: { ids: 'beyond-2^53', extraHeaders: true, extraFields: true, nonIntegerPetId: 404, unknownStatus: 'empty' },
    pact: false,
    observed: { idsBeyondDouble: true, idScheme: 'increasing', listOrder: 'id-asc', nonIntegerPetId: 404, unknownStatus: 'empty' },
  },
  {
    name: 'Content-Type spelt Application/JSON ;Charset=UTF-8 (media types are case-insensitive), no Location on a 201',
    choices: { mediaTypeCase: 'upper', charset: true, omitLocation: true },
    pact: true,
    observed: { listOrder: 'id-asc' },
  },
  {
    name: 'paths matched leniently, behind the key (/V1/pets, a trailing or doubled slash, an encoded slash are the API and answer 401 without it), an integer written 7.0 in a body refused',
    choices: { routing: 'lenient', zeroFraction: 'refuse' },
    pact: true,
    observed: { listOrder: 'id-asc', nonIntegerPetId: 400, unknownStatus: 'refuse' },
  },
  {
    name: 'a gateway: limit clamped above the maximum and refused below the minimum, ordered by name, 404 for an id that is not an integer, an empty page for a status outside the enum (in another case too)',
    choices: { limitOutOfRange: 'clamp-above', order: 'name', nonIntegerPetId: 404, unknownStatus: 'empty' },
    pact: true,
    observed: { limitAboveMaximum: 'clamp', limitBelowMinimum: 'refuse', listOrder: 'name', nonIntegerPetId: 404, unknownStatus: 'empty' },
  },
  {
    name: `Django REST framework's pagination: a limit below the minimum answered as if absent (the default page of ${LIMIT.default}), one above it clamped to ${LIMIT.maximum}`,
    choices: { limitOutOfRange: 'default' },
    pact: true,
    observed: { limitAboveMaximum: 'clamp', limitBelowMinimum: 'clamp' },
  },
  {
    name: 'pages showing only the required fields (status only in a 201 and a read by id), another client adding pets meanwhile, newest first, status left out when not sent',
    choices: { listOmitsOptional: true, otherClient: true, order: 'newest-first', defaultStatus: 'omitted' },
    // The bundled pacts' list interactions expect each pet's status.
    pact: false,
    observed: { defaultStatus: 'omitted', listOrder: 'id-desc' },
  },
  {
    name: 'another client adding pets meanwhile, default status sold, ordered by name',
    choices: { otherClient: true, defaultStatus: 'sold', order: 'name' },
    pact: true,
    observed: { defaultStatus: 'sold', listOrder: 'name' },
  },
  { name: 'no pet at the start', choices: { count: 0 }, pact: true, observed: { idScheme: 'increasing', defaultStatus: 'available' } },
  {
    name: 'no pet at the start and only category 42 known: nothing to learn a category from, so creates and the provider states that need a pet are skipped, not failed',
    choices: { count: 0, categories: [42n] },
    pact: true,
    observed: { refusedCategories: expect.arrayContaining(['1']) },
  },
];

// Every test runs the CLI against a deployment or mock of its own, so they run at once: each run mostly waits.
describe.concurrent('petstore-verify raises no false alarm on a correct deployment that chooses differently', () => {
  for (const [index, { name, choices, pact, observed }] of ALTERNATIVES.entries()) {
    it(`passes (${pact ? 'spec and Pact suites' : 'spec suite'}${index === 0 ? ', the CLI' : ''}): ${name}`, async () => {
      const deployment: CorrectDeployment = await correctDeployment(choices);
      try {
        const report = await (index === 0 ? verifyCli : verifyIn)(deployment.url, pact ? 'all' : 'spec');
        expectPass(report);
        // What the verifier records of the deployment's choices, for a later run to learn a profile from.
        expect(mergeObservations(report.results.map((result) => result.observations))).toMatchObject(observed);
        // The choice was exercised, not avoided.
        if (choices.gzip) expect(deployment.served.gzipped).toBeGreaterThan(0);
        if (choices.categories && choices.categories !== 'any' && choices.count !== 0)
          expect(deployment.served.posts).toBeGreaterThan(deployment.served.refusedCategories);
      } finally {
        await deployment.close();
      }
    });
  }

  it('creates with the category given by --category-id, in both suites, when nothing else can be learned', async () => {
    const deployment = await correctDeployment({ count: 0, categories: [42n] });
    try {
      const report = await verifyCli(deployment.url, 'all', ['--category-id', '42']);
      expectPass(report);
      // Every create and provider state ran: none was skipped for want of a category (but the probe of a category beyond 2^53, which 42 cannot stand for).
      const skipped = report.results.filter((result) => result.outcome === 'skip' && /categor/.test(result.reason ?? '')).map((result) => result.id);
      expect(skipped).toEqual(['createPet.big-category']);
      expect(deployment.served.posts).toBeGreaterThan(deployment.served.refusedCategories + 10);
    } finally {
      await deployment.close();
    }
  });

  it('honours 429 Too Many Requests: sends again after waiting its Retry-After, in both suites, and raises no false alarm', async () => {
    const deployment = await correctDeployment({ limitEvery: 7 });
    const folder = await mkdtemp(join(tmpdir(), 'petstore-verify-429-'));
    const log = join(folder, 'waits.jsonl');
    try {
      const report = await verifyCli(deployment.url, 'all', [], instantWaitsEnv(log));
      expectPass(report);
      expect(deployment.served.limited).toBeGreaterThan(0);
      // Each 429 was sent again after one wait of its Retry-After: 1 s, and up to 1 s more so that requests limited together are not all sent again together.
      const waits = await waitsIn(log);
      expect(waits).toHaveLength(deployment.served.limited);
      for (const { ms } of waits) expect(ms >= 1_000 && ms < 2_000, `waited ${ms} ms`).toBe(true);
      // The spec suite waits in petstore-verify itself, the Pact suite in its worker.
      expect(new Set(waits.map((wait) => wait.script))).toEqual(new Set(['petstore-verify.js', 'worker.js']));
    } finally {
      await deployment.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('a deployment that keeps answering 429 is a run-level problem (exit 2, lower --rps), not a contract failure', async () => {
    const deployment = await correctDeployment({ limitEvery: 1 });
    const folder = await mkdtemp(join(tmpdir(), 'petstore-verify-429-'));
    const log = join(folder, 'waits.jsonl');
    try {
      // Its waits are instant: the deadline only bounds a hang, here one a busy machine cannot reach.
      const report = await verifyCli(deployment.url, 'spec', ['--deadline', '60000'], instantWaitsEnv(log));
      expect(failures(report)).toEqual([]);
      expect(report.exitCode).toBe(2);
      // The first request (the listing, before any check) is already limited: the run says so, and what to do.
      expect(report.fatal).toMatch(/rate limited: still answered 429 .*lower --rps/);
      // It gave up after its retries, each sent after the Retry-After.
      const waits = await waitsIn(log);
      expect(waits.map((wait) => wait.ms >= 1_000)).toEqual(Array(RATE_LIMIT_RETRIES).fill(true));
    } finally {
      await deployment.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('under --read-only against an empty listing, still checks that getPet refuses a missing key (no pet needs to exist for that)', async () => {
    const deployment = await correctDeployment({ count: 0 });
    try {
      const report = await verifyIn(deployment.url, 'spec', { readOnly: true });
      expectPass(report);
      expect(report.results.find((result) => result.id === 'auth.getPet.refused')?.outcome).toBe('pass');
      expect(deployment.served.posts).toBe(0);
    } finally {
      await deployment.close();
    }
  });

  it('sends no POST under --read-only', async () => {
    const deployment = await correctDeployment({ categories: [7n, 9n] });
    try {
      expectPass(await verifyIn(deployment.url, 'spec', { readOnly: true }));
      expect(deployment.served.posts).toBe(0);
    } finally {
      await deployment.close();
    }
  });
});

describe.concurrent("petstore-verify raises no false alarm on the project's own mock, in every mode", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'petstore-verify-modes-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const modes: readonly { name: string; args: (folder: string) => string[]; suite: 'spec' | 'all' }[] = [
    { name: 'defaults', args: () => [], suite: 'all' },
    // Both suites where ids pass 2^53 or the mock starts empty or large: the Pact Verifier gets each id exactly (exact-ids.test.ts).
    { name: '--big-ids', args: () => ['--big-ids'], suite: 'all' },
    { name: '--big-ids --self-check', args: () => ['--big-ids', '--self-check'], suite: 'all' },
    { name: '--self-check --coverage', args: () => ['--self-check', '--coverage'], suite: 'all' },
    { name: '--no-prefer', args: () => ['--no-prefer'], suite: 'spec' },
    { name: '--count 0', args: () => ['--count', '0'], suite: 'all' },
    { name: '--seed 7 --count 200', args: () => ['--seed', '7', '--count', '200'], suite: 'all' },
    { name: '--state <file>', args: (dir) => ['--state', join(dir, 'state.json')], suite: 'spec' },
    { name: '--max-sessions 0 --session-ttl 1', args: () => ['--max-sessions', '0', '--session-ttl', '1'], suite: 'spec' },
    { name: '--delay 5', args: () => ['--delay', '5'], suite: 'spec' },
  ];
  for (const { name, args, suite } of modes) {
    it(`passes (${suite === 'all' ? 'spec and Pact suites' : 'spec suite'}): petstore-mock ${name}`, async () => {
      const mock = await startMockCli(['--port', '0', '--quiet', ...args(folder)]);
      try {
        expectPass(await verifyIn(mock.url, suite));
      } finally {
        await mock.stop();
      }
    });
  }
});
