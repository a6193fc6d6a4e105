/**
 * The key never appears in a report in a form the verifier can tell: not as hex, not in halves, and
 * no near miss of it the verifier built and sent (the key with a suffix, its case changed, under
 * Basic...) in any form either, base64 of it included. The deployment here echoes whatever
 * credential it gets in those forms, in failing responses, so that both suites quote them.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const KEY = 'sk_live_9fQ2xZ7pLm4R8tVwq3';
const folder = mkdtempSync(join(tmpdir(), 'petstore-verify-echoes-'));

const hex = (text: string) => Buffer.from(text).toString('hex');
const base64 = (text: string) => Buffer.from(text).toString('base64');
const swapCase = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** The forms the deployment echoes a token in, by name. */
function forms(token: string): Record<string, string> {
  const half = Math.floor(token.length / 2);
  return { hex: hex(token), HEX: hex(token).toUpperCase(), half1: token.slice(0, half), half2: token.slice(half), b64: base64(token) };
}

const echoOf = (token: string) =>
  Object.entries(forms(token))
    .map(([name, form]) => `${name}=${form};`)
    .join(' ');

/** What the verifier sends as a credential: the key, and each near miss it builds from it. */
const SENT_TOKENS = [KEY, swapCase(KEY), `${KEY}x`, KEY.slice(0, -1), base64(`${KEY}:`), base64(KEY)];

/**
 * The project's mock with the key: a credential it refuses is refused with 403 (not documented, so
 * each refusal is a failure that quotes its body) echoing the credential; with the key, getPet's
 * body is broken (`id` a string) and echoes the key.
 */
function echoingDeployment(): Promise<Deployment> {
  const mock = createMockApi({ count: 30, apiKeys: [KEY] });
  return serve(async (request) => {
    const response = await mock.fetch(request);
    const token = (request.headers.get('authorization') ?? '').replace(/^\S+\s+/, '');
    if (response.status === 401) return Response.json({ code: 'forbidden', message: `refused: ${echoOf(token)}`, status: 403 }, { status: 403 });
    const isGet = request.method === 'GET' && /\/pets\/\d+$/.test(new URL(request.url).pathname);
    if (!isGet || response.status !== 200) return response;
    const echo = echoOf(token);
    return Response.json({ id: echo, name: echo, categoryId: 1, echo });
  });
}

describe('no echo of the key or of a near miss of it, in any form, reaches a report', () => {
  let deployment: Deployment;
  let outputs: string[];
  beforeAll(async () => {
    deployment = await echoingDeployment();
    const junit = join(folder, 'report.xml');
    const [consoleRun, jsonRun] = await Promise.all([
      runCli('petstore-verify', ['--base-url', deployment.url, '--reporter', 'junit', '--output', junit], { PETSTORE_API_KEY: KEY }),
      runCli('petstore-verify', ['--base-url', deployment.url, '--reporter', 'json'], { PETSTORE_API_KEY: KEY }),
    ]);
    expect(consoleRun.code).toBe(1);
    expect(jsonRun.code).toBe(1);
    outputs = [consoleRun.stdout, consoleRun.stderr, readFileSync(junit, 'utf8'), jsonRun.stdout, jsonRun.stderr];
  });
  afterAll(() => deployment.close());

  it('the echoes reached the console, the JUnit file and the JSON report, redacted', () => {
    const [consoleOut, , junit, json] = outputs;
    for (const output of [consoleOut, junit, json]) for (const name of Object.keys(forms(KEY))) expect(output).toContain(`${name}=$PETSTORE_API_KEY;`);
    // The near misses were sent, and their refusals quoted: the auth checks fail on the 403s.
    expect(json).toContain('Bearer <$PETSTORE_API_KEY, case changed>');
    expect(json).toMatch(/answered 403 to the key with a suffix/);
  });

  it.each(SENT_TOKENS.map((token, i) => [i, token]))('sent credential #%i: in no form, in any output', (_, token) => {
    for (const output of outputs) for (const [name, form] of Object.entries(forms(token))) expect(output, name).not.toContain(form);
  });

  it('leaves no part of a form beside the placeholder', () => {
    // `$PETSTORE_API_KEYx` alone is the template the suffixed near miss is recorded as.
    expect(outputs.join('\n')).not.toMatch(/\$PETSTORE_API_KEY(?!x[^0-9A-Za-z])[0-9A-Za-z]/);
  });
});
