/**
 * The spec-coverage report, from the outside: the example GitHub Actions workflow's own command,
 * run against the project's mock with $GITHUB_STEP_SUMMARY set, writes an HTML page, a coverage
 * JSON and a step summary that list every status the spec documents (read here as plain YAML),
 * mark what the run exercised, and list the enum values; a hostile deployment's answers stay text.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Coverage, totalsText } from '../../src/contracts/reporters/coverage-reporter.js';
import { verifyCommand } from '../../src/contracts/verify-cli.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { execFile } from '../support/children.js';
import { CHROMIUM, CHROMIUM_ARGS, skipWithoutChromium } from '../support/chromium.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';
const root = new URL('../../', import.meta.url);
const HOSTILE = '<img src=x onerror=alert(1)>';

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}
const workflow = parse(readFileSync(new URL('examples/ci/petstore-verify.yml', root), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const VERIFY = 'npx --package petstore-mock petstore-verify ';
const verifyStep = steps.find((step) => step.run?.startsWith(VERIFY));
const verifyArgs = verifyStep?.run?.slice(VERIFY.length).trim().split(/\s+/) ?? [];

/** What each operation of the spec documents, read as plain YAML rather than through src/openapi. */
const spec = parse(readFileSync(new URL('spec/openapi.yaml', root), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: { schemas: { PetStatus: { enum: string[] } } };
};
const DOCUMENTED = Object.values(spec.paths).flatMap((item) => Object.values(item).map((op) => ({ id: op.operationId, statuses: Object.keys(op.responses) })));

/** The args of the workflow's verify step, its files put in `folder`. */
function argsIn(folder: string): string[] {
  return verifyArgs.map((arg, i) => (['--output', '--har', '--coverage'].includes(verifyArgs[i - 1] ?? '') ? join(folder, arg) : arg));
}

/** The value after `flag` in the workflow's verify step. */
function fileOf(flag: string): string {
  return verifyArgs[verifyArgs.indexOf(flag) + 1] ?? '';
}

/** One operation's section of the HTML page: from its heading to the next. */
function section(html: string, operationId: string): string {
  const start = html.indexOf(`<h3>${operationId}:`);
  return html.slice(start, html.indexOf('<h3>', start + 1) === -1 ? undefined : html.indexOf('<h3>', start + 1));
}

describe('examples/ci/petstore-verify.yml', () => {
  it('parses, and its verify step uses flags petstore-verify has, with the reports it keeps', () => {
    const flags = verifyCommand().options.map((option) => option.long);
    expect(verifyStep, 'a step runs npx --package petstore-mock petstore-verify').toBeDefined();
    for (const arg of verifyArgs.filter((word) => word.startsWith('--'))) expect(flags, arg).toContain(arg);
    expect(verifyArgs.join(' ')).toContain('--reporter html');
    expect(verifyStep?.env).toMatchObject({ PETSTORE_BASE_URL: expect.stringMatching(/\/v1$/), PETSTORE_API_KEY: expect.stringContaining('secrets.') });
    const kept = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))?.with?.path ?? '';
    for (const flag of ['--output', '--har', '--coverage']) expect(kept.split('\n'), flag).toContain(fileOf(flag));
  });
});

describe('the coverage report of a run against the project mock, as the example workflow runs it', () => {
  let mock: MockServer;
  let folder: string;
  let summaryFile: string;
  let stdout: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    folder = mkdtempSync(join(tmpdir(), 'petstore-verify-coverage-'));
    summaryFile = join(folder, 'summary.md');
    writeFileSync(summaryFile, '## An earlier step\n');
    const run = await runCli('petstore-verify', argsIn(folder), { PETSTORE_BASE_URL: mock.url, PETSTORE_API_KEY: KEY, GITHUB_STEP_SUMMARY: summaryFile });
    expect(run.code, run.stderr).toBe(0);
    stdout = run.stdout;
  });
  afterAll(() => mock.close());

  const read = (flag: string) => readFileSync(join(folder, fileOf(flag)), 'utf8');

  it('the HTML page lists every documented status of each operation, the exercised ones marked, and every enum value', () => {
    const html = read('--output');
    for (const { id, statuses } of DOCUMENTED)
      for (const status of statuses) expect(section(html, id), `${id} ${status}`).toContain(`<td>status ${status}</td>`);
    const list = section(html, 'listPets');
    expect(list).toContain('<tr class="pass"><td>✓</td><td>status 200</td>');
    expect(list).toContain('<tr class="pass"><td>✓</td><td>status 400</td>');
    expect(list).toContain('<tr class="unexercised"><td>·</td><td>status 503</td>');
    for (const value of spec.components.schemas.PetStatus.enum) {
      expect(list).toContain(`<tr class="pass"><td>✓</td><td>query status = ${value}</td>`);
      expect(section(html, 'createPet')).toContain(`<td>body status = ${value}</td>`);
    }
  });

  it('the coverage JSON says the same, and counts every request of both suites, the pact suite through its proxy', () => {
    const coverage = JSON.parse(read('--coverage')) as Coverage;
    expect(coverage.operations.map((op) => ({ id: op.operationId, statuses: op.statuses.filter((s) => s.documented).map((s) => String(s.status)) }))).toEqual(
      DOCUMENTED,
    );
    const requests = Number(/(\d+) requests/.exec(stdout)?.[1]);
    expect(coverage.operations.reduce((sum, op) => sum + op.requests, coverage.unmatched.requests)).toBe(requests);
    expect(stdout).toMatch(/✓ pact\./);
  });

  it("gives the totals docs/verifier.md shows for a run of both suites against the project's mock", () => {
    const page = readFileSync(new URL('docs/verifier.md', root), 'utf8');
    expect(page).toContain(`\n\`${totalsText(JSON.parse(read('--coverage')) as Coverage)}\`\n`);
  });

  it('the step summary is appended to what earlier steps wrote, with the verdict and a row per documented status', () => {
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary.startsWith('## An earlier step\n## petstore-verify\n')).toBe(true);
    expect(summary).toContain('**The deployment keeps the contract.**');
    for (const { id, statuses } of DOCUMENTED) {
      const part = summary.slice(summary.indexOf(`#### ${id}:`));
      for (const status of statuses) expect(part, `${id} ${status}`).toMatch(new RegExp(`\\| [✓·] \\| status ${status} \\|`));
    }
    expect(summary).toContain('| ✓ | query status = sold |');
  });
});

/** The project's mock, but every pet it reads back is named with markup and has a string id: getPet fails, quoting the body. */
function hostileDeployment(): Promise<Deployment> {
  const mock = createMockApi({ count: 30 });
  return serve(async (request) => {
    const response = await mock.fetch(request);
    const isGet = request.method === 'GET' && /\/pets\/\d+$/.test(new URL(request.url).pathname);
    if (!isGet || response.status !== 200) return response;
    const pet = (await response.json()) as Record<string, unknown>;
    return Response.json({ ...pet, id: String(pet.id), name: HOSTILE }, { headers: { 'x-note': HOSTILE } });
  });
}

/** The page as Chromium builds it: `--dump-dom` prints the DOM after load. */
function domOf(file: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(CHROMIUM ?? 'chromium', [...CHROMIUM_ARGS, '--dump-dom', `file://${file}`], { timeout: 60_000 }, (error, out) =>
      error ? reject(error) : resolve(out),
    ),
  );
}

describe('the reports of a deployment that answers with markup', () => {
  let deployment: Deployment;
  let folder: string;
  beforeAll(async () => {
    deployment = await hostileDeployment();
    folder = mkdtempSync(join(tmpdir(), 'petstore-verify-hostile-'));
    const run = await runCli(
      'petstore-verify',
      ['--suite', 'spec', '--reporter', 'html', '--output', join(folder, 'report.html'), '--har', join(folder, 'run.har')],
      { PETSTORE_BASE_URL: deployment.url, PETSTORE_API_KEY: KEY, GITHUB_STEP_SUMMARY: join(folder, 'summary.md') },
    );
    expect(run.code, run.stderr).toBe(1);
  });
  afterAll(() => deployment.close());

  it('the HTML page shows the pet name as text', () => {
    const html = readFileSync(join(folder, 'report.html'), 'utf8');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toMatch(/<img/i);
  });

  it.skipIf(skipWithoutChromium('the hostile HTML report'))('Chromium builds no image and no script from it', async () => {
    const dom = await domOf(join(folder, 'report.html'));
    expect(dom).toContain('getPet.');
    expect(dom).not.toMatch(/<img|<script/i);
  });

  it('the step summary shows it as text too', () => {
    const summary = readFileSync(join(folder, 'summary.md'), 'utf8');
    expect(summary).toContain('&lt;img src=x onerror=alert(1)>');
    expect(summary).not.toMatch(/<img/i);
  });
});
