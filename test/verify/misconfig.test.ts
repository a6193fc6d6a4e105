/**
 * A misconfigured run is exit 2 with one sentence that says what to fix, found before the first
 * check (and, where no request is needed to see it, before the first request), never a run of
 * hundreds of failures. Each through the real CLI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACT_FILE } from '../../src/contracts/pact/names.js';
import { BUNDLED_PACTS } from '../../src/contracts/pact/pacts.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const KEY = 'petstore-dev-key';
const folder = mkdtempSync(join(tmpdir(), 'petstore-verify-misconfig-'));
const bundledPact = JSON.parse(readFileSync(join(BUNDLED_PACTS, PACT_FILE), 'utf8')) as {
  provider: { name: string };
  interactions: { description: string; providerStates?: { name: string }[] }[];
};

function pactFile(name: string, change: (pact: typeof bundledPact) => unknown): string {
  const file = join(folder, name);
  writeFileSync(file, JSON.stringify(change(structuredClone(bundledPact))));
  return file;
}

let received = 0;
let deployment: Deployment;
let root: string;
beforeAll(async () => {
  const mock = createMockApi();
  deployment = await serve((request) => {
    received++;
    return mock.fetch(request);
  });
  root = deployment.url.replace(/\/v1$/, '');
});
afterAll(() => deployment.close());

async function verifyCli(args: string[]) {
  received = 0;
  const run = await runCli('petstore-verify', args, { PETSTORE_API_KEY: KEY });
  return { ...run, output: run.stdout + run.stderr, received };
}

describe('petstore-verify says what to fix, exit 2', () => {
  it('a base URL without the /v1 prefix', async () => {
    const run = await verifyCli(['--base-url', root]);
    expect(run.code).toBe(2);
    expect(run.output).toContain(
      `--base-url ${root} lacks the API's version prefix /v1, and the listing is not there: give the URL the API's paths start from, like ${root}/v1`,
    );
    expect(run.output).not.toMatch(/✗/);
  });

  it('a base URL that goes on past /v1, to /v1/pets', async () => {
    const run = await verifyCli(['--base-url', `${deployment.url}/pets`]);
    expect(run.code).toBe(2);
    expect(run.output).toContain(
      `--base-url ${deployment.url}/pets goes past the API's version prefix /v1: give the URL the API's paths start from, ${deployment.url}`,
    );
    expect(run.received).toBe(0);
  });

  it('a web page for every path: a single-page app at the wrong URL', async () => {
    const spa = await serve(
      async () => new Response('<!doctype html><html><body><div id="app"></div></body></html>', { headers: { 'content-type': 'text/html' } }),
    );
    try {
      const run = await verifyCli(['--base-url', spa.url]);
      expect(run.code).toBe(2);
      expect(run.output).toMatch(/answered 200 with a web page \(text\/html\), not the API's JSON: --base-url must be the API's URL/);
      expect(run.output).not.toMatch(/✗/);
    } finally {
      await spa.close();
    }
  });

  it('an absent --pact file, named', async () => {
    const missing = join(folder, 'no-such-pact.json');
    const run = await verifyCli(['--base-url', deployment.url, '--pact', missing]);
    expect(run.code).toBe(2);
    expect(run.output).toContain(`cannot read the pact file ${missing} (--pact): there is no such file. Give the path of a pact JSON file.`);
    expect(run.received).toBe(0);
  });

  it('a --pact nesting past 128 levels (200, and 5,000 deep), refused with exit 2 and a sentence, never a stack overflow', async () => {
    for (const depth of [200, 5_000]) {
      const file = join(folder, `deep-${depth}.json`);
      const [interaction] = bundledPact.interactions;
      // Written as text: the test's own JSON.stringify would overflow its stack on 5,000 levels.
      const text = JSON.stringify({ ...bundledPact, interactions: [{ ...interaction, response: { status: 200, body: 'BODY' } }] });
      writeFileSync(file, text.replace('"BODY"', `${'['.repeat(depth)}${']'.repeat(depth)}`));
      const run = await verifyCli(['--base-url', deployment.url, '--pact', file]);
      expect([run.code, run.output], `${depth} levels`).toEqual([
        2,
        expect.stringContaining(`${file} (--pact): it is not JSON: its arrays and objects nest deeper than 128 levels; give a pact JSON file.`),
      ]);
      expect(run.output).not.toMatch(/RangeError|call stack/);
      expect(run.received).toBe(0);
    }
  });

  it('an unreadable --pact (a folder), named', async () => {
    const run = await verifyCli(['--base-url', deployment.url, '--pact', folder]);
    expect(run.code).toBe(2);
    expect(run.output).toContain(`cannot read the pact file ${folder} (--pact): it is a folder, not a file.`);
    expect(run.received).toBe(0);
  });

  it('a --pact URL that answers 404, named', async () => {
    const url = `${root}/pacts/missing.json`;
    const run = await verifyCli(['--base-url', deployment.url, '--pact', url]);
    expect(run.code).toBe(2);
    expect(run.output).toContain(`cannot fetch the pact ${url} (--pact): it answered 404.`);
  });

  it('a --pact URL whose host the host rule refuses (http:///x, which fetch would read as the host x), named, before any request', async () => {
    for (const [url, message] of [
      ['http:///pacts/p.json', '--pact: must name the host'],
      ['http://-evil.com/p.json', '--pact: "-evil.com" is no IP address nor host name'],
    ] as const) {
      const run = await verifyCli(['--base-url', deployment.url, '--pact', url]);
      expect([run.code, run.output], url).toEqual([2, expect.stringContaining(message)]);
      expect(run.received).toBe(0);
    }
  });

  it('a pact for another provider', async () => {
    const file = pactFile('other-provider.json', (pact) => ({ ...pact, provider: { name: 'orders-api' } }));
    const run = await verifyCli(['--base-url', deployment.url, '--pact', file]);
    expect(run.code).toBe(2);
    expect(run.output).toContain(`${file} is a pact for the provider "orders-api", not "petstore-api": give a pact whose provider is petstore-api.`);
    expect(run.received).toBe(0);
  });

  it('a pact with a provider state this verifier does not know', async () => {
    const file = pactFile('unknown-state.json', (pact) => {
      const [first] = pact.interactions;
      if (first) first.providerStates = [{ name: 'the pet has an owner' }];
      return pact;
    });
    const run = await verifyCli(['--base-url', deployment.url, '--pact', file]);
    expect(run.code).toBe(2);
    expect(run.output).toContain(`${file} needs the provider state "the pet has an owner"`);
    expect(run.output).toContain('which petstore-verify cannot set up; it knows: "pets exist"');
    expect(run.received).toBe(0);
  });

  it('--output into a folder that does not exist, before the first request', async () => {
    const output = join(folder, 'missing', 'report.xml');
    const run = await verifyCli(['--base-url', deployment.url, '--reporter', 'junit', '--output', output]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `petstore-verify: --output ${output}: the folder ${join(folder, 'missing')} does not exist; create it, or write the report elsewhere\n`,
    );
    expect(run.received).toBe(0);
  });

  it('--output naming a folder, before the first request', async () => {
    const run = await verifyCli(['--base-url', deployment.url, '--reporter', 'json', '--output', folder]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--output .* is a folder; give a file name in it/);
    expect(run.received).toBe(0);
  });

  it.runIf(process.platform === 'linux')(
    'a report or run file that is no regular file (a full disk: /dev/full, a named pipe nobody reads) is exit 2 with a sentence before the first request, never a crash, nor a run that never ends',
    async () => {
      const pipe = join(folder, 'report.fifo');
      execFileSync('mkfifo', [pipe]);
      for (const [flag, path, kind] of [
        ['--har', '/dev/full', 'character device'],
        ['--coverage', '/dev/full', 'character device'],
        ['--write-profile', pipe, 'named pipe'],
        ['--har', pipe, 'named pipe'],
      ] as const) {
        const run = await verifyCli(['--base-url', deployment.url, '--suite', 'spec', flag, path]);
        expect(run.code, flag).toBe(2);
        expect(run.stderr).toContain(`petstore-verify: ${flag} ${path}: it is a ${kind}`);
        expect(run.stderr).toContain('petstore-verify writes to regular files; give the path of one');
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(run.received, flag).toBe(0);
      }
      const output = await verifyCli(['--base-url', deployment.url, '--suite', 'spec', '--reporter', 'json', '--output', pipe]);
      expect([output.code, output.received]).toEqual([2, 0]);
    },
  );
});
