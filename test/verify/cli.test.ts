import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WRITES, verify } from '../../src/contracts/runner.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { runCli } from '../support/cli.js';
import { alternativeDeployment, type Deployment, FAULTS, faultyDeployment, serve } from '../support/deployments.js';
import { FULL_PAGE } from '../support/page-size.js';
import { startPrism } from '../support/prism.js';

const KEY = 'petstore-dev-key';

function failedIds(report: Awaited<ReturnType<typeof verify>>): string[] {
  return report.results.filter((result) => result.outcome === 'fail').map((result) => result.id);
}

describe('petstore-verify against the project mock', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
  });
  afterAll(() => mock.close());

  it('passes every check: mock and verifier agree', async () => {
    const report = await verify({ baseUrl: mock.url, apiKey: KEY, suite: 'spec' });
    expect(failedIds(report)).toEqual([]);
    expect(report.counts.errors).toBe(0);
    expect(report.counts.skipped).toBe(0);
    expect(report.exitCode).toBe(0);
    expect(report.results.length).toBeGreaterThanOrEqual(20);
  });

  it('advises, when asked (--strict), of the deprecation of getPet with the days left until 5 December 2030', async () => {
    const report = await verify({ baseUrl: mock.url, apiKey: KEY, now: new Date('2030-11-05T00:00:00Z'), suite: 'spec', warnings: 'all' });
    expect(report.advice).toContain('getPet is deprecated: 30 days left until its removal on 05 Dec 2030; move clients to listPets with the status filter');
    expect(report.advice.some((advice) => advice.includes('Sunset'))).toBe(false);
  });

  it('fills an almost empty deployment up to the default page size, within its write budget', async () => {
    const small = await startMockServer({ port: 0, count: 3 });
    try {
      const report = await verify({ baseUrl: small.url, apiKey: KEY, suite: 'spec' });
      expect(failedIds(report)).toEqual([]);
      expect(report.writes).toBeLessThanOrEqual(MAX_WRITES);
      const names = (await (await fetch(`${small.url}/pets?${FULL_PAGE}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { name: string }[];
      expect(names.slice(3).every((pet) => pet.name.startsWith(`petstore-verify ${report.runId} `))).toBe(true);
    } finally {
      await small.close();
    }
  });

  it('sends no POST with --read-only and reports the skipped checks with the reason', async () => {
    const methods: string[] = [];
    const recorder = await serve((request) => {
      methods.push(request.method);
      return mock.mock.fetch(request);
    });
    try {
      const report = await verify({ baseUrl: recorder.url, apiKey: KEY, readOnly: true, suite: 'spec' });
      expect(methods).not.toContain('POST');
      expect(report.exitCode).toBe(0);
      const skipped = report.results.filter((result) => result.outcome === 'skip');
      expect(skipped.map((result) => result.id)).toEqual(expect.arrayContaining(['createPet.echo', 'createPet.invalid', 'auth.createPet.refused']));
      expect(skipped.every((result) => result.reason?.includes('--read-only'))).toBe(true);
    } finally {
      await recorder.close();
    }
  });

  it('exits 2 and says it is configuration when the key is refused', async () => {
    const report = await verify({ baseUrl: mock.url, apiKey: 'not-the-key', suite: 'spec' });
    expect(report.exitCode).toBe(2);
    expect(report.fatal).toMatch(/refused the given key \(401.*configuration problem/);
    expect(JSON.stringify(report)).not.toContain('not-the-key');
  });
});

describe('petstore-verify against deployments that break the contract', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`catches: ${name}`, async () => {
      const deployment = await faultyDeployment(fault);
      try {
        const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
        expect(report.exitCode, JSON.stringify(report.results.map((r) => [r.id, r.outcome, r.reason]))).toBe(1);
        expect(failedIds(report).length).toBeGreaterThan(0);
      } finally {
        await deployment.close();
      }
    });
  }
});

describe('petstore-verify against a correct deployment with other allowed choices', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await alternativeDeployment();
  });
  afterAll(() => deployment.close());

  it('raises no false alarm', async () => {
    const report = await verify({ baseUrl: deployment.url, apiKey: KEY, suite: 'spec' });
    expect(report.results.filter((result) => result.outcome === 'fail').map((result) => [result.id, result.findings.map((f) => f.message)])).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it('advises, when asked (--strict), that the deployment sends no Sunset header', async () => {
    const report = await verify({ baseUrl: deployment.url, apiKey: KEY, readOnly: true, suite: 'spec', warnings: 'all' });
    expect(report.advice).toContain('the deployment sends no Sunset header on getPet (expected Thu, 05 Dec 2030 00:00:00 GMT)');
  });
});

describe("petstore-verify against Prism's stateless mock of the same spec", () => {
  it('fails, naming the stateful checks that caught it', async () => {
    const prism = await startPrism('mock');
    try {
      const report = await verify({ baseUrl: prism.url, apiKey: KEY, suite: 'spec' });
      expect(report.exitCode).toBe(1);
      expect(failedIds(report)).toEqual(expect.arrayContaining(['createPet.echo', 'createPet.unique-ids', 'auth.listPets.refused']));
    } finally {
      await prism.close();
    }
  });
});

describe('petstore-verify CLI', () => {
  let mock: MockServer;
  const secret = 'sk-live-0123456789abcdef';
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, apiKeys: [secret] });
  });
  afterAll(() => mock.close());

  it('quotes what a flag was given with its control and format characters escaped (red team 12 #6)', async () => {
    const hostile = `${tmpdir()}/\u001b]0;T\u0007\u202eX.yaml`;
    for (const flags of [
      ['--spec', hostile],
      ['--reporter', '\u001b]0;T\u0007\u202e'],
    ]) {
      const run = await runCli('petstore-verify', ['--base-url', mock.url, '--api-key', secret, ...flags]);
      expect(run.code, flags.join(' ')).toBe(2);
      expect(run.stderr).toContain('\\u001b]0;T\\u0007\\u202e');
      for (const raw of ['\u001b', '\u0007', '\u202e']) expect(run.stderr).not.toContain(raw);
    }
  });

  it('prints a live line per check and a summary, exits 0, and never prints the key', async () => {
    const result = await runCli('petstore-verify', ['--base-url', mock.url, '--api-key', secret, '--suite', 'spec']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^✓ listPets\.default-page \d+ ms$/m);
    // Quiet: the deprecation of getPet is advice, shown under --strict only.
    expect(result.stdout).toMatch(/^\d+ checks passed, 0 failed, 0 skipped, 0 errors, 0 warnings in \d+\.\d s$/m);
    expect(result.stdout).toContain('The deployment keeps the contract.');
    expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it('reads PETSTORE_BASE_URL and PETSTORE_API_KEY, writes JUnit XML to --output', async () => {
    const output = join(tmpdir(), `petstore-verify-${process.pid}.xml`);
    const result = await runCli('petstore-verify', ['--reporter', 'junit', '--output', output, '--read-only', '--suite', 'spec'], {
      PETSTORE_BASE_URL: mock.url,
      PETSTORE_API_KEY: secret,
    });
    expect(result.code).toBe(0);
    const xml = await readFile(output, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="petstore-verify" tests="\d+" failures="0"/);
    expect(xml).toContain('<skipped message="--read-only: this check needs to create pets"/>');
    expect(xml).not.toContain(secret);
  });

  it('prints the JSON report on stdout and progress on stderr', async () => {
    const result = await runCli('petstore-verify', ['--base-url', mock.url, '--api-key', secret, '--reporter', 'json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { exitCode: number; results: unknown[] };
    expect(report.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^✓ /m);
    expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it('shows each failure as a curl command with the key redacted, expected and actual, and exits 1', async () => {
    const deployment = await faultyDeployment(FAULTS['createPet answers 200 instead of 201'] as never);
    try {
      const result = await runCli('petstore-verify', ['--base-url', deployment.url, '--api-key', KEY, '--suite', 'spec']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('createPet answered 200, a status the spec does not document for it');
      expect(result.stdout).toMatch(/request: {2}curl -sS -i -X POST '[^']+\/v1\/pets' -H "authorization: Bearer \$\{PETSTORE_API_KEY\}"/);
      expect(result.stdout).toMatch(/expected: 201/);
      expect(result.stdout).not.toContain(`Bearer ${KEY}`);
      expect(result.stdout).toContain('The deployment breaks the contract');
    } finally {
      await deployment.close();
    }
  });

  const usage: [string[], Record<string, string>, RegExp][] = [
    [[], {}, /^petstore-verify: --base-url is required \(or set PETSTORE_BASE_URL\)/],
    [['--base-url', 'http://127.0.0.1:1/v1'], {}, /^petstore-verify: --api-key is required/],
    [['--base-url', 'not a url', '--api-key', 'k'], {}, /--base-url: is not a URL written scheme:\/\/host/],
    [['--base-url', 'http://x/v1', '--api-key', 'k', '--suite', 'nope'], {}, /option '--suite <suite>' argument 'nope' is invalid/],
    [['--bse-url', 'x'], {}, /unknown option '--bse-url' \(Did you mean --base-url\?\)/],
    [['--base-url', 'http://x/v1', '--api-key', 'k', '--timeout', '0'], {}, /--timeout <ms>' argument '0' is invalid/],
    // An empty path was taken for no file: the report, the HAR or the pact silently not written or read.
    [['--base-url', 'http://x/v1', '--api-key', 'k', '--har', ''], {}, /option '--har <file>' argument '' is invalid\. Expected the path of a file/],
    [['--base-url', 'http://x/v1', '--api-key', 'k', '--pact', ''], {}, /option '--pact <file or url>' argument '' is invalid\. Expected the path of a file/],
  ];
  for (const [args, env, message] of usage) {
    it(`exits 2 on a usage error: ${args.join(' ') || '(no flags)'}`, async () => {
      const result = await runCli('petstore-verify', args, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    });
  }

  it('exits 2 and says so when the deployment cannot be reached', async () => {
    const closed = await serve(async () => new Response(null));
    await closed.close();
    const result = await runCli('petstore-verify', ['--base-url', closed.url, '--api-key', 'k']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      `petstore-verify could not verify the deployment: cannot reach the deployment: GET ${closed.url}/pets?${FULL_PAGE}: connection refused`,
    );
  });
});
