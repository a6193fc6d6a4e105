/**
 * A deployment that echoes the key in every encoding of test/support/key-echoes.ts (base64 at each
 * offset, as `Basic` writes it; percent-encoded, nested; JSON `\u` escapes; hex) reaches no report of
 * petstore-verify with it: not the console, the JSON, JUnit or HTML report, the HAR, the coverage file
 * or the GitHub step summary. The check decodes every output (key-echoes.ts), it does not look for the
 * forms the redactor makes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';
import { keyEncodings, keysRevealed } from '../support/key-echoes.js';

const KEY = 'sk_live_9fQ2xZ7pLm4R8tVwq3';
const folder = mkdtempSync(join(tmpdir(), 'petstore-verify-encodings-'));

/** Every encoding of the key, each after its name, in one text the deployment puts in its answers. */
const ECHO = Object.entries(keyEncodings(KEY))
  .map(([name, form]) => `${name}=${form};`)
  .join(' ');

/**
 * The project's mock with the key, behind a gateway that echoes the key in every encoding: in a header
 * of every answer, and in a broken getPet body (`id` a string), which both suites quote in their failures.
 */
function echoingDeployment(): Promise<Deployment> {
  const mock = createMockApi({ count: 30, apiKeys: [KEY] });
  return serve(async (request) => {
    const answer = await mock.fetch(request);
    const isGet = request.method === 'GET' && /\/pets\/\d+$/.test(new URL(request.url).pathname);
    const body = isGet && answer.status === 200 ? JSON.stringify({ id: ECHO, name: ECHO, categoryId: 1, echo: ECHO }) : await answer.text();
    const headers = new Headers(answer.headers);
    headers.set('x-echo', ECHO.replace(/[^\x20-\x7e]/g, ''));
    headers.delete('content-length');
    // A 204 (a preflight) has no body, not an empty one: the Response constructor refuses one.
    return new Response(body === '' ? null : body, { status: answer.status, headers });
  });
}

describe('no encoding of the key a deployment echoes reaches any report', () => {
  let deployment: Deployment;
  let outputs: Record<string, string>;
  beforeAll(async () => {
    deployment = await echoingDeployment();
    const file = (name: string) => join(folder, name);
    const env = { PETSTORE_API_KEY: KEY, GITHUB_STEP_SUMMARY: file('summary.md') };
    const base = ['--base-url', deployment.url];
    const runs = await Promise.all([
      runCli('petstore-verify', [...base, '--har', file('run.har'), '--coverage', file('coverage.json')], env),
      runCli('petstore-verify', [...base, '--reporter', 'json'], env),
      runCli('petstore-verify', [...base, '--reporter', 'junit', '--output', file('report.xml')], env),
      runCli('petstore-verify', [...base, '--reporter', 'html', '--output', file('report.html')], env),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(1);
    const [console, json, junit, html] = runs as [(typeof runs)[0], (typeof runs)[0], (typeof runs)[0], (typeof runs)[0]];
    outputs = {
      console: console.stdout + console.stderr,
      json: json.stdout + json.stderr,
      junit: readFileSync(file('report.xml'), 'utf8') + junit.stdout + junit.stderr,
      html: readFileSync(file('report.html'), 'utf8') + html.stdout + html.stderr,
      har: readFileSync(file('run.har'), 'utf8'),
      coverage: readFileSync(file('coverage.json'), 'utf8'),
      summary: readFileSync(file('summary.md'), 'utf8'),
    };
  }, 180_000);
  afterAll(async () => {
    await deployment?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the echo reached the reports, each encoding replaced', () => {
    for (const name of ['console', 'json', 'junit', 'html', 'har']) expect(outputs[name], name).toContain('percent every byte=');
    expect(outputs.har).toContain('$PETSTORE_API_KEY');
  });

  it.each(['console', 'json', 'junit', 'html', 'har', 'coverage', 'summary'])('%s: reveals the key in no encoding', (name) => {
    expect(keysRevealed(outputs[name] ?? '', [KEY])).toEqual([]);
  });
});
