/**
 * The key never appears in anything petstore-verify prints or writes, whatever the deployment
 * echoes back (raw, JSON-escaped, URL-encoded, base64) and whatever the user mistypes; and a key so
 * short that it turns up by chance (`1`, `a`) does not mangle the reports.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const MOCK_KEY = 'petstore-dev-key';
const folder = mkdtempSync(join(tmpdir(), 'petstore-verify-secrets-'));

/** Each form a deployment might echo `key` in. */
function echoes(key: string): string[] {
  const json = JSON.stringify(key).slice(1, -1);
  return [key, json, json.replaceAll('/', '\\/'), encodeURIComponent(key), Buffer.from(key).toString('base64')];
}

/**
 * The project's mock behind a gateway that takes `key`, and echoes it back in every form: in a
 * header of every answer, and in the body of every getPet answer, which it breaks (`id` a string)
 * so that both suites quote the body in their failures.
 */
function echoingDeployment(key: string): Promise<Deployment> {
  const mock = createMockApi();
  const echo = echoes(key)
    .map((form, i) => `form${i}=${form};`)
    .join(' ');
  return serve(async (request) => {
    const headers = new Headers(request.headers);
    if (request.headers.get('authorization') === `Bearer ${key}`) headers.set('authorization', `Bearer ${MOCK_KEY}`);
    else headers.delete('authorization');
    const answer = await mock.fetch(new Request(request, { headers }));
    const isGet = request.method === 'GET' && /\/pets\/\d+$/.test(new URL(request.url).pathname);
    const body = isGet && answer.status === 200 ? JSON.stringify({ id: echo, name: echo, categoryId: 1, echo }) : await answer.text();
    const echoed = new Headers(answer.headers);
    echoed.set('x-echo', echo);
    echoed.delete('content-length');
    // A 204 (a preflight) has no body, not an empty one: the Response constructor refuses one.
    return new Response(body === '' ? null : body, { status: answer.status, headers: echoed });
  });
}

const KEYS: [string, string][] = [
  ['a one-character digit', '1'],
  ['a one-character letter', 'a'],
  ['a realistic key', 'sk_live_9fQ2xZ7pLm4R8tVwq3'],
  ['a key with / + = %', 'k3y/with+plus=eq%25pct/'],
];

describe.each(KEYS)('the key is never printed: %s', (_, key) => {
  let deployment: Deployment;
  let outputs: string[];
  beforeAll(async () => {
    deployment = await echoingDeployment(key);
    const junit = join(folder, `${encodeURIComponent(key)}.xml`);
    const [consoleRun, jsonRun] = await Promise.all([
      runCli('petstore-verify', ['--base-url', deployment.url, '--reporter', 'junit', '--output', junit], { PETSTORE_API_KEY: key }),
      runCli('petstore-verify', ['--base-url', deployment.url, '--reporter', 'json'], { PETSTORE_API_KEY: key }),
    ]);
    expect(consoleRun.code).toBe(1);
    expect(jsonRun.code).toBe(1);
    outputs = [consoleRun.stdout, consoleRun.stderr, readFileSync(junit, 'utf8'), jsonRun.stdout, jsonRun.stderr];
  });
  afterAll(() => deployment.close());

  it('the echoes reached the reports, redacted', () => {
    // The failures quote what the deployment sent: the getPet body, with the key's place marked.
    const [consoleOut, , junit, json, jsonProgress] = outputs;
    for (const output of [consoleOut, junit, json, jsonProgress]) expect(output).toContain('form0=$PETSTORE_API_KEY;');
  });

  it('in no form, in the console, the JUnit file or the JSON report', () => {
    for (const output of outputs) for (const [i, form] of echoes(key).entries()) expect(output).not.toContain(`form${i}=${form};`);
    if (key.length >= 8) for (const output of outputs) for (const form of echoes(key)) expect(output).not.toContain(form);
  });

  it('without mangling the base URL, the ids or the counts the reports carry', () => {
    for (const output of [outputs[0], outputs[3]]) expect(output).toContain(deployment.url);
    expect(outputs.join('\n')).not.toMatch(/\$PETSTORE_API_KEY[0-9a-z.]/);
  });
});

// Usage errors end before any request: the runs share nothing, so they go at once.
describe.concurrent('a usage error never echoes the key', () => {
  const secret = 'sk_live_typo_9fQ2xZ7pLm4R8';
  it.each([
    [['--base-url', 'http://127.0.0.1:9/v1', `--api-kye=${secret}`]],
    [['--base-url', 'http://127.0.0.1:9/v1', '--api-key', secret, '--timeout', secret]],
    [['--base-url', 'http://127.0.0.1:9/v1', `-k${secret}`, '--suite', secret]],
    [['--base-url', secret, '--api-key', secret]],
  ])('%j', async (args) => {
    const run = await runCli('petstore-verify', args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^petstore-verify: /);
    expect(run.stdout + run.stderr).not.toContain(secret);
  });
});

describe.concurrent('a key or a base URL that cannot be used is a usage error (exit 2), said without the secret', () => {
  it.each([
    ['an empty key', ['--api-key', ''], /--api-key is required/],
    ['a key with a line break', ['--api-key', 'sk-line\nbreak-4242'], /the key cannot be sent in an HTTP header/],
    ['a key with a non-ASCII character', ['--api-key', 'sk-clé-4242'], /the key cannot be sent in an HTTP header/],
  ])('%s', async (_, args, message) => {
    const run = await runCli('petstore-verify', ['--base-url', 'http://127.0.0.1:9/v1', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    for (const part of ['sk-line', 'break-4242', 'sk-clé']) expect(run.stdout + run.stderr).not.toContain(part);
  });

  it('a password in --base-url is never printed', async () => {
    const run = await runCli('petstore-verify', ['--base-url', 'http://ops:hunter2-Pa55@127.0.0.1:9/v1', '--api-key', 'k-12345678']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--base-url http:\/\/\*\*\*@127\.0\.0\.1:9\/v1 carries credentials/);
    expect(run.stdout + run.stderr).not.toContain('hunter2');
    expect(run.stdout + run.stderr).not.toContain('ops');
  });
});
