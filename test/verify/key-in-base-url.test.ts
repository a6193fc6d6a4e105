/**
 * A deployment mounted under a secret path (`https://host/<key>/v1`, as some gateways route a tenant)
 * is verified with `--base-url` holding the key: no report shows it, in any encoding (the console, the
 * JSON report, the HAR, the coverage file), though each names the URL, with `$PETSTORE_API_KEY` in the
 * key's place; nor does the sentence for a deployment that cannot be reached. Needs `dist/`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';
import { keysRevealed } from '../support/key-echoes.js';

const KEY = 'sk_live_Tn4Wq8Zr2Ym6Kp';
const folder = mkdtempSync(join(tmpdir(), 'petstore-verify-key-path-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The project's mock with the key, served under `/<segment>/v1`: the gateway drops the segment before the mock sees the request. */
function mountedUnder(segment: string): Promise<Deployment> {
  const mock = createMockApi({ count: 20, apiKeys: [KEY] });
  return serve(async (request) => {
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(`/${segment}`, '');
    return mock.fetch(new Request(url, request));
  }, `/${segment}/v1`);
}

describe.each([
  ['the key', KEY],
  ['base64 of "u:" + key', Buffer.from(`u:${KEY}`).toString('base64url')],
])('a base URL holding %s in its path', (_, segment) => {
  let deployment: Deployment;
  let outputs: Record<string, string>;
  beforeAll(async () => {
    deployment = await mountedUnder(segment);
    const file = (name: string) => join(folder, `${segment.slice(0, 4)}-${name}`);
    const env = { PETSTORE_API_KEY: KEY };
    const base = ['--base-url', deployment.url, '--suite', 'spec'];
    const [consoleRun, jsonRun, unreachable] = await Promise.all([
      runCli('petstore-verify', [...base, '--har', file('run.har'), '--coverage', file('coverage.json')], env),
      runCli('petstore-verify', [...base, '--reporter', 'json', '--output', file('report.json')], env),
      // Port 9 (discard) has no listener: the run says it cannot reach the deployment, and where.
      runCli('petstore-verify', ['--base-url', `http://127.0.0.1:9/${segment}/v1`, '--suite', 'spec'], env),
    ]);
    outputs = {
      console: consoleRun.stdout + consoleRun.stderr,
      json: readFileSync(file('report.json'), 'utf8') + jsonRun.stdout + jsonRun.stderr,
      har: readFileSync(file('run.har'), 'utf8'),
      coverage: readFileSync(file('coverage.json'), 'utf8'),
      unreachable: unreachable.stdout + unreachable.stderr,
    };
  }, 180_000);
  afterAll(() => deployment?.close());

  it('each output names the URL with $PETSTORE_API_KEY in its place', () => {
    for (const name of ['console', 'json', 'har', 'coverage']) expect(outputs[name], name).toContain(`${new URL(deployment.url).origin}/`);
    for (const name of ['console', 'json', 'har', 'coverage', 'unreachable']) expect(outputs[name], name).toContain('$PETSTORE_API_KEY');
    expect(outputs.unreachable).toContain('cannot reach the deployment: GET http://127.0.0.1:9/');
  });

  it.each(['console', 'json', 'har', 'coverage', 'unreachable'])('%s: reveals the key in no encoding', (name) => {
    expect(keysRevealed(outputs[name] ?? '', [KEY])).toEqual([]);
  });
});

it('a base URL holding the key (a hyphen for each `_`) as a host name: the sentence for a host that does not resolve names it without the key', async () => {
  // `.invalid` never resolves (RFC 6761): the run says so, and where.
  const run = await runCli('petstore-verify', ['--base-url', `http://${KEY.toLowerCase().replaceAll('_', '-')}.invalid/v1`, '--suite', 'spec'], {
    PETSTORE_API_KEY: KEY,
  });
  const output = run.stdout + run.stderr;
  expect(output).toMatch(/cannot reach the deployment: GET http:\/\/\S*\$PETSTORE_API_KEY\S*\.invalid\/v1\/pets/);
  expect(keysRevealed(output, [KEY])).toEqual([]);
}, 60_000);
