/**
 * The run-wide model: faults no single check sees, because they show only across the run (an id
 * given again 64 creates later, pets gone after 80 more creates), in how pages agree with what was
 * read (a filter that lists pets of no status, or misses those of the default one), in a field
 * dropped from every create, or in a documented header whose value breaks its schema. Each is
 * caught (exit 1) by the run-wide check named for it, with the requests that show it.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/contracts/check.js';
import { MAX_WRITES, verify } from '../../src/contracts/runner.js';
import { type Fault, faultyDeployment, isGet, isList, json } from '../support/deployments.js';
import {
  dropsOptionalField,
  evictsAfter,
  filterLeaksNoStatus,
  filterMissesDefaultStatus,
  headerBroken,
  idsWrapEvery,
  retryAfterBroken,
} from '../support/model-faults.js';

const KEY = 'petstore-dev-key';

interface Case {
  readonly fault: Fault;
  readonly caughtBy: string;
  readonly message: RegExp;
  /** How many requests the finding names (the one answered wrong, and the one it contradicts). */
  readonly requests: number;
}

const CASES: Readonly<Record<string, Case>> = {
  'ids that wrap every 64 creates, kept by an upsert': {
    fault: idsWrapEvery(64, 1_000_000),
    caughtBy: 'run.ids-unique',
    message: /createPet gave the id 1000000 to two items: POST \S+ and POST \S+ both answered 201 with it/,
    requests: 2,
  },
  'created pets evicted after 80 more creates': {
    fault: evictsAfter(80),
    caughtBy: 'run.persisted',
    message: /getPet answered 404 for the item \d+ that POST \S+ acknowledged, (8\d|9\d|1\d\d) acknowledged creates later/,
    requests: 2,
  },
  'created pets evicted after 50 more creates': {
    fault: evictsAfter(50),
    caughtBy: 'run.persisted',
    message: /getPet answered 404 for the item \d+ that POST \S+ acknowledged/,
    requests: 2,
  },
  'an optional field dropped from created pets': {
    fault: dropsOptionalField('status'),
    caughtBy: 'run.fields',
    message: /createPet acknowledged a valid body with status "(available|pending|sold)" but its item has no status/,
    requests: 1,
  },
  'a filter that lists the pets of no status under every status': {
    fault: filterLeaksNoStatus(),
    caughtBy: 'run.pages',
    message: /listPets with status=(available|pending|sold) lists the item \d+, whose status is absent as POST \S+ showed it/,
    requests: 2,
  },
  'a filter that misses the pets given the default status': {
    fault: filterMissesDefaultStatus(),
    caughtBy: 'run.pages',
    message: /listPets with status=available answered \d+ items, fewer than its limit \d+, without the item \d+ that POST \S+ acknowledged/,
    requests: 2,
  },
  'Deprecation: yes': {
    fault: headerBroken('deprecation', 'yes'),
    caughtBy: 'run.headers',
    message: /getPet answered \d+ with deprecation: yes, which breaks the schema the spec documents for it \(must match pattern/,
    requests: 1,
  },
  'Sunset as an ISO date, not an HTTP-date': {
    fault: headerBroken('sunset', '2030-12-05T00:00:00Z'),
    caughtBy: 'run.headers',
    message: /with sunset: 2030-12-05T00:00:00Z, which breaks the schema/,
    requests: 1,
  },
  'Link without its angle brackets': {
    fault: headerBroken('link', '/v1/pets; rel="successor-version"', isGet),
    caughtBy: 'run.headers',
    message: /with link: \/v1\/pets; rel="successor-version", which breaks the schema/,
    requests: 1,
  },
  'Retry-After that is no number of seconds, on a 429 the verifier retries': {
    fault: retryAfterBroken(3, 'soon'),
    caughtBy: 'run.headers',
    message: /answered 429 with retry-after: soon, which breaks the schema/,
    requests: 1,
  },
};

function failedWith(report: { results: readonly CheckResult[] }, id: string): CheckResult | undefined {
  return report.results.find((result) => result.id === id && result.outcome === 'fail');
}

describe.concurrent('the run-wide model catches, naming the requests that show it', () => {
  for (const [name, { fault, caughtBy, message, requests }] of Object.entries(CASES)) {
    it(`${name} (${caughtBy})`, async () => {
      const deployment = await faultyDeployment(fault, 50);
      try {
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
        expect(report.exitCode, JSON.stringify(report.results.filter((r) => r.outcome !== 'pass').map((r) => [r.id, r.reason]))).toBe(1);
        const found = failedWith(report, caughtBy);
        const messages = found?.findings.map((finding) => finding.message) ?? [];
        const finding = found?.findings.find((one) => message.test(one.message));
        expect(finding, `${caughtBy}: ${messages.join('\n')}`).toBeDefined();
        expect(finding?.request).toBeDefined();
        expect(finding?.replay?.length ?? 1).toBe(requests);
        expect(report.writes).toBeLessThanOrEqual(MAX_WRITES);
      } finally {
        await deployment.close();
      }
    });
  }

  it('holds the Pact suite’s responses to the spec too: a page of more pets than its limit, one with a status outside the enum, which the pact does not look at (run.pact-responses, run.pages)', async () => {
    const deployment = await faultyDeployment(async (request, mock) => {
      const response = await mock(request);
      if (!isList(request) || new URL(request.url).search !== '?limit=2' || response.status !== 200) return response;
      const pets = (await response.json()) as Record<string, unknown>[];
      return json(200, [...pets, { ...pets[0], id: 999_999, status: 'lost' }]);
    }, 50);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'pact' });
      expect(report.exitCode).toBe(1);
      expect(failedWith(report, 'run.pact-responses')?.findings.map((finding) => finding.message)).toEqual([
        expect.stringMatching(/listPets answered 200 with a body that breaks its schema in the spec: \/2\/status must be equal to one of the allowed values/),
      ]);
      expect(failedWith(report, 'run.pages')?.findings.map((finding) => finding.message)).toEqual([
        expect.stringMatching(/listPets answered 3 items to a request for at most 2/),
      ]);
    } finally {
      await deployment.close();
    }
  });

  it('takes a Retry-After written as an HTTP-date, as RFC 9110 §10.2.3 allows and the spec documents', async () => {
    const deployment = await faultyDeployment(retryAfterBroken(3, new Date(Date.now() + 1_000).toUTCString()), 50);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
      expect(report.retries.byCause['429']).toBe(1);
      expect(report.results.find((result) => result.id === 'run.headers')?.outcome).toBe('pass');
    } finally {
      await deployment.close();
    }
  });

  it('passes the mock itself: every run-wide check passes, having judged something', async () => {
    const deployment = await faultyDeployment((request, mock) => mock(request), 50);
    try {
      const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
      expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.reason, result.findings])).toEqual([]);
      const run = report.results.filter((result) => result.suite === 'run').map((result) => result.id);
      expect(run).toEqual(['createPet.every-field', 'run.cross-caches', 'run.ids-unique', 'run.persisted', 'run.pages', 'run.fields', 'run.headers']);
    } finally {
      await deployment.close();
    }
  });
});
