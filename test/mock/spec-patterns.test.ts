/**
 * A `--spec` variant's `pattern` runs in time linear in the text it tests, in both CLIs (redteam9 #8:
 * `name: { pattern: "^(a+)+$" }` and one createPet of 29 `a` and `!` held the mock 26.8 s; each more
 * character doubled it). The pattern is the spec's author's, the text any client's or deployment's: a
 * name of 10,000 `a` and `!` costs the mock a few milliseconds of CPU, and the verifier judging a
 * deployment that answers it ends its run; a pattern no linear engine runs (a lookahead) stops both at
 * start, exit 2, with a sentence naming it. CPU is read from /proc, not the wall clock. Needs `dist/`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { VerificationReport } from '../../src/contracts/runner.js';
import { openapi } from '../../src/generated/openapi.js';
import { createMockApi } from '../../src/index.js';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { serve } from '../support/deployments.js';
import { cpuMsOf, runCliMeasured } from '../support/peak-rss.js';
import { nodeAt } from '../support/variant-spec.js';

const KEY = 'petstore-dev-key';
/** The text that holds V8's engine for ever on `^(a+)+$`, and so on the variants' patterns below. */
const ADVERSARIAL = `${'a'.repeat(10_000)}!`;
/** A pattern that nests a quantifier, as a spec's author may write one; the verifier's own names (`petstore-verify …`) match its second branch. */
const NESTED = '^(a+)+$|^petstore';

let dir: string;
let nested: string;
let lookahead: string;
let mock: RunningMock;

/** The bundled spec with `pattern` on a pet's name. */
async function specWithNamePattern(file: string, pattern: string): Promise<string> {
  const doc = structuredClone(openapi) as unknown as Record<string, unknown>;
  const name = nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties', 'name');
  name.pattern = pattern;
  const path = join(dir, file);
  await writeFile(path, stringify(doc));
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-spec-patterns-'));
  [nested, lookahead] = await Promise.all([specWithNamePattern('nested.yaml', NESTED), specWithNamePattern('lookahead.yaml', '^(?=[a-z])(a+)+$')]);
  mock = await startMockCli(['--port', '0', '--spec', nested, '--quiet']);
});
afterAll(async () => {
  await mock?.stop();
  await rm(dir, { recursive: true, force: true });
});

function createPet(name: string): Promise<Response> {
  return fetch(`${mock.url}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
}

describe('a --spec pattern that nests a quantifier', () => {
  it('costs the mock a few milliseconds of CPU on a name of 10,000 `a` and `!`, answered 400 naming the pattern', async () => {
    const pid = mock.child.pid ?? 0;
    expect((await createPet('petstore Rex')).status).toBe(201);
    const before = cpuMsOf(pid);
    const answer = await createPet(ADVERSARIAL);
    const spent = cpuMsOf(pid) - before;
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'bad_request', message: expect.stringContaining('name must match pattern') });
    // V8's engine: 27 s for 30 characters, doubling with each more. the automaton: a few ms; a second is a bound no loaded machine reaches.
    expect(spent).toBeLessThan(1_000);
    expect((await fetch(`${mock.url.replace(/\/v1$/, '')}/__mock/health`)).status).toBe(200);
  });

  it('lets the verifier judge a deployment answering such names, in time: its run ends and names the pattern', async () => {
    const api = createMockApi({ count: 20 });
    // Every `name` the deployment answers is the adversarial text.
    const deployment = await serve(async (request) => {
      const answer = await api.fetch(request);
      const text = await answer.text();
      const body = text.startsWith('{') || text.startsWith('[') ? text.replace(/"name":"[^"]*"/g, `"name":"${ADVERSARIAL}"`) : text;
      return new Response(body === '' ? null : body, { status: answer.status, headers: answer.headers });
    });
    try {
      const run = await runCliMeasured('petstore-verify', ['--base-url', deployment.url, '--suite', 'spec', '--spec', nested, '--reporter', 'json'], {
        PETSTORE_API_KEY: KEY,
      });
      expect(run.code, run.stderr).toBe(1);
      const report = JSON.parse(run.stdout) as VerificationReport;
      const messages = report.results.flatMap((result) => result.findings.map((finding) => finding.message));
      expect(messages.some((message) => message.includes('must match pattern'))).toBe(true);
      // The whole run, every check: seconds of CPU. One judging of one name by V8's engine would outlast the machine.
      expect(run.cpuMs).toBeLessThan(60_000);
    } finally {
      await deployment.close();
    }
  });

  it('refuses at start, in both CLIs, a pattern no linear engine runs, naming it and saying what to write', async () => {
    const sentence = `--spec ${lookahead}: the spec's pattern #/components/schemas/NewPet/properties/name/pattern "^(?=[a-z])(a+)+$": it cannot be run in time linear in the text it tests`;
    const [served, verified] = await Promise.all([
      runCli('petstore-mock', ['--port', '0', '--spec', lookahead]),
      runCli('petstore-verify', ['--base-url', 'http://127.0.0.1:9/v1', '--spec', lookahead], { PETSTORE_API_KEY: KEY }),
    ]);
    for (const { code, stderr } of [served, verified]) {
      expect(code).toBe(2);
      expect(stderr).toContain(sentence);
      expect(stderr).toContain('write the pattern without backreferences, lookahead or lookbehind');
    }
  });
});
