/**
 * Precision: a spelling a mainstream typed parser accepts, where the interface does not forbid it, is
 * advice under --strict, never a failure. Correct deployments read petId as real frameworks do by
 * default (pydantic, and so FastAPI; Go's strconv.ParseInt), measured in docs/verifier-checks.md, and
 * one writes every integer of its bodies with a zero fraction, an integer to JSON Schema: each passes
 * both suites quietly. What denotes no integer, or another, read as the id still fails
 * (test/verify/probes.test.ts: parseInt, a truncating float parse).
 */
import { describe, expect, it } from 'vitest';
import { type VerificationReport, verify } from '../../src/contracts/runner.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { correctDeployment, type Deployment, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';

/** The mock, its getPet reading the path's petId with `read` (the integer, or undefined to leave the text to the mock, which answers 400). */
function readingPetIdAs(read: (raw: string) => bigint | undefined): Promise<Deployment> {
  const mock = createMockApi({ count: 30 });
  return serve((request) => {
    const url = new URL(request.url);
    const match = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
    const id = match && request.method === 'GET' ? read(decodeURIComponent(match[1] as string)) : undefined;
    if (id !== undefined) url.pathname = `/v1/pets/${id}`;
    return mock.fetch(new Request(url, request));
  });
}

/** What the report says went wrong, for an assertion to explain itself. */
function problems(report: VerificationReport): unknown[] {
  return report.results
    .filter((result) => result.outcome === 'fail' || result.outcome === 'error')
    .map((result) => [result.id, result.reason, result.findings.map((finding) => finding.message)]);
}

const READERS: readonly [string, (raw: string) => bigint | undefined, RegExp][] = [
  // pydantic 2.13 in lax mode (FastAPI's path parameters): spaces stripped, a sign, underscores between digits, a zero fraction.
  [
    'pydantic (FastAPI, with a handler that answers 400 for what it refuses)',
    (raw) => (/^[+-]?\d+(_\d+)*(\.0+)?$/.test(raw.trim()) ? BigInt(raw.trim().replace(/_/g, '').replace(/\.0+$/, '')) : undefined),
    /with the pet the spelling denotes \(\d+ unless said\): "\+\d+" \(a plus sign\), " \d+" \(a space before it\), "\d+ " \(a space after it\), "0\d+" \(a leading zero\), "\d+\.0" \(a zero fraction\)\. Typed parsers/,
  ],
  // Go 1.19's strconv.ParseInt(s, 10, 64): a sign, leading zeros; no space, no fraction.
  [
    'Go (strconv.ParseInt)',
    (raw) => (/^[+-]?\d+$/.test(raw) ? BigInt(raw) : undefined),
    /\(\d+ unless said\): "\+\d+" \(a plus sign\), "0\d+" \(a leading zero\)\. Typed parsers/,
  ],
];

describe.concurrent('petstore-verify takes what a typed parser reads as the same integer for advice, never a failure', () => {
  it.each(READERS)('passes the mock reading petId as %s, quietly; --strict advises once', async (_name, read, advised) => {
    const deployment = await readingPetIdAs(read);
    try {
      const [quiet, strict] = await Promise.all([
        verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' }),
        verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec', warnings: 'all' }),
      ]);
      expect(problems(quiet)).toEqual([]);
      expect([quiet.exitCode, strict.exitCode]).toEqual([0, 0]);
      expect(quiet.advice).toEqual([]);
      expect(
        strict.advice.filter((advice) => advised.test(advice)),
        strict.advice.join('\n'),
      ).toHaveLength(1);
    } finally {
      await deployment.close();
    }
  });

  it('passes the mock reading petId as pydantic does with 40 fuzzed sequences, whose malformed ids include +id and " id"', async () => {
    const [, read] = READERS[0] as (typeof READERS)[number];
    const deployment = await readingPetIdAs(read);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'fuzz', fuzz: { runs: 40, seed: 7 } });
      expect(problems(report)).toEqual([]);
      expect(report.exitCode).toBe(0);
    } finally {
      await deployment.close();
    }
  });

  it('takes a 7.0 for an integer refused (as Go refuses it) for advice under --strict, never a failure', async () => {
    const deployment = await correctDeployment({ zeroFraction: 'refuse' });
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec', warnings: 'all' });
      expect(problems(report)).toEqual([]);
      expect(report.exitCode).toBe(0);
      expect(
        report.advice.filter((advice) => /^createPet refuses categoryId \d+\.0, an integer to JSON Schema \(as Go's encoding\/json refuses it/.test(advice)),
      ).toHaveLength(1);
    } finally {
      await deployment.close();
    }
  });

  it.each([
    ['ids from 2^31', 'from-2^31'],
    ['time-ordered ids beyond 2^53', 'time-ordered'],
  ] as const)(
    'passes both suites against a deployment writing every integer with a zero fraction (%s): the bundled pact demands no more than the spec',
    async (_name, ids) => {
      const deployment = await correctDeployment({ ids, zeroFractionIntegers: true });
      try {
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'all' });
        expect(problems(report)).toEqual([]);
        expect(report.results.filter((result) => result.suite === 'pact' && result.outcome === 'pass').length).toBeGreaterThan(8);
        expect(report.exitCode).toBe(0);
      } finally {
        await deployment.close();
      }
    },
  );
});
