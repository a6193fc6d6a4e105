/**
 * The pacts of a run are bounded together, and what a run says of them is bounded and keyless (red
 * team 6, #3 and #4): eight pact files each under the 16 MiB file cap once held the verifier at
 * 1.78 GB and wrote a report of 243 MB, an interaction's description of 10,000 characters was kept
 * whole in every result's id, and a key written in a `--pact` URL was printed on stderr and in the
 * report. Each through the real CLI, against a real HTTP deployment.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACT_FILE } from '../../src/contracts/pact/names.js';
import { BUNDLED_PACTS, PACTS_BOUND } from '../../src/contracts/pact/pacts.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const KEY = 'VerifierKey-55667788';
const folder = mkdtempSync(join(tmpdir(), 'petstore-verify-pact-bounds-'));
const bundledPact = JSON.parse(readFileSync(join(BUNDLED_PACTS, PACT_FILE), 'utf8')) as { interactions: { description: string }[] };

function pactFile(name: string, change: (pact: typeof bundledPact) => unknown): string {
  const file = join(folder, name);
  writeFileSync(file, JSON.stringify(change(structuredClone(bundledPact))));
  return file;
}

let deployment: Deployment;
let served = 0;
beforeAll(async () => {
  const mock = createMockApi({ apiKey: KEY });
  deployment = await serve((request) => {
    served++;
    return mock.fetch(request);
  });
});
afterAll(() => deployment.close());

function verifyCli(args: readonly string[]) {
  return runCli('petstore-verify', ['--base-url', deployment.url, '--suite', 'pact', ...args], { PETSTORE_API_KEY: KEY });
}

describe('the pacts of a run, together', () => {
  it(`hold at most ${PACTS_BOUND.totalBytes} bytes: three pacts of 6 MB, each under the file cap, are refused at start with exit 2 and a sentence`, async () => {
    const padding = 'x'.repeat(6 * 1024 * 1024);
    const files = [1, 2, 3].map((n) => pactFile(`padded-${n}.json`, (pact) => ({ ...pact, padding })));
    const run = await verifyCli(files.flatMap((file) => ['--pact', file]));
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain(
      `the pacts to verify (--pact, with the bundled ones) hold more than ${PACTS_BOUND.totalBytes} bytes (16 MiB) together, past ${files[2]}`,
    );
  });

  it(`hold at most ${PACTS_BOUND.totalCount} interactions, refused at start with exit 2 and a sentence`, async () => {
    const file = pactFile('many.json', (pact) => ({ ...pact, interactions: Array.from({ length: PACTS_BOUND.totalCount }, () => pact.interactions[0]) }));
    const before = served;
    const run = await verifyCli(['--pact', file]);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain(
      `the pacts to verify (--pact, with the bundled ones) hold more than ${PACTS_BOUND.totalCount} interactions together, past ${file}`,
    );
    expect(served - before).toBe(0);
  });

  it('name each result by an excerpt of a description of 10,000 characters, in the JSON report and on the console', async () => {
    const file = pactFile('long-descriptions.json', (pact) => ({
      ...pact,
      consumer: { name: 'long' },
      interactions: pact.interactions.slice(0, 3).map((interaction, n) => ({ ...interaction, description: `i${n} ${'x'.repeat(10_000)}` })),
    }));
    const output = join(folder, 'long.json');
    const json = await verifyCli(['--pact', file, '--reporter', 'json', '--output', output]);
    const report = JSON.parse(readFileSync(output, 'utf8')) as { results: { id: string; title: string }[] };
    const long = report.results.filter((result) => result.id.startsWith('pact.long.'));
    expect(long).toHaveLength(3);
    for (const { id, title } of long) {
      expect(id).toMatch(/^pact\.long\.i\d-x+… \(10013 characters\)$/);
      expect(id.length).toBeLessThan(250);
      expect(title.length).toBeLessThan(2_100);
    }
    const console = await verifyCli(['--pact', file]);
    expect(Math.max(...(console.stdout + console.stderr).split('\n').map((line) => line.length))).toBeLessThan(2_200);
    expect(json.stdout.length + console.stdout.length).toBeLessThan(100_000);
  }, 60_000);
});

describe('a key in a --pact URL is never printed', () => {
  const base64 = Buffer.from(`u:${KEY}`).toString('base64');
  it.each([
    ['in the path of a URL that answers 404', () => `${deployment.url}/${KEY}.json`],
    ['as base64 in the path', () => `${deployment.url}/${base64}.json`],
    ['in the path of a URL nobody answers', () => `http://127.0.0.1:9/p/${KEY}.json`],
  ])('%s: exit 2, a sentence naming --pact, no key on the terminal or in the report', async (_, url) => {
    const output = join(folder, 'key.json');
    const run = await verifyCli(['--pact', url(), '--reporter', 'json', '--output', output]);
    expect(run.code).toBe(2);
    const said = run.stdout + run.stderr + readFileSync(output, 'utf8');
    expect(said).toMatch(/--pact/);
    expect(said).not.toContain(KEY);
    expect(said).not.toContain(base64);
  });

  it('in the userinfo: refused at start with a sentence, as --base-url is, never a raw fetch error', async () => {
    const run = await verifyCli(['--pact', `http://u:${KEY}@127.0.0.1:9/pact.json`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'petstore-verify: --pact http://***@127.0.0.1:9/pact.json carries credentials ("user:password@"), which petstore-verify neither sends nor shows: give the URL without them, or download the pact and give the file',
    );
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });
});
