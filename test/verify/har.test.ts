/**
 * The HAR file of a run (`--har`), from the outside: it is HAR 1.2 (checked with a JSON Schema
 * written here from the HAR 1.2 spec, and with har-validator when it is installed), it holds every
 * request of both suites, and no form of the key, nor of any near miss of it the verifier sent,
 * is anywhere in it, although the deployment echoes each credential it gets, in bodies and
 * headers, as sent, in hex, base64, percent-encoded and in halves. Against a deployment that answers
 * megabytes to every request, it keeps its bodies within its byte cap, and says so.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAR_BODY_BYTES, HAR_BYTES, HAR_ENTRIES, HarExchanges } from '../../src/contracts/reporters/har.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { runCli } from '../support/cli.js';
import { type Deployment, json, serve } from '../support/deployments.js';

const KEY = 'sk_live_9fQ2xZ7pLm4R8tVwq3';
const folder = mkdtempSync(join(tmpdir(), 'petstore-verify-har-'));

const hex = (text: string) => Buffer.from(text).toString('hex');
const base64 = (text: string) => Buffer.from(text).toString('base64');
const percent = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');
const swapCase = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** The forms the deployment echoes a credential in, and the test looks for, by name. */
function forms(token: string): Record<string, string> {
  const half = Math.floor(token.length / 2);
  return {
    raw: token,
    hex: hex(token),
    HEX: hex(token).toUpperCase(),
    b64: base64(token),
    b64url: Buffer.from(token).toString('base64url'),
    pct: percent(token),
    half1: token.slice(0, half),
    half2: token.slice(half),
  };
}

/** What the verifier sends as a credential: the key, and each near miss it builds from it. */
const SENT_TOKENS = [KEY, swapCase(KEY), `${KEY}x`, KEY.slice(0, -1), base64(`${KEY}:`), base64(KEY)];

const echoOf = (token: string) =>
  Object.entries(forms(token))
    .map(([name, form]) => `${name}=${form};`)
    .join(' ');

/** The project's mock with the key, echoing every credential it gets in each form, in a header of every response and in the body of its errors. */
function echoingDeployment(): Promise<Deployment> {
  const mock = createMockApi({ count: 30, apiKeys: [KEY] });
  return serve(async (request) => {
    const response = await mock.fetch(request);
    const token = (request.headers.get('authorization') ?? '').replace(/^\S+\s+/, '');
    const headers = new Headers(response.headers);
    headers.set('x-echo', echoOf(token));
    // An answer to HEAD has no body to echo into (the verifier sends HEAD too).
    if (response.status < 400 || request.method === 'HEAD') return new Response(response.body, { status: response.status, headers });
    const error = (await response.json()) as Record<string, unknown>;
    return Response.json({ ...error, message: `${String(error.message)} ${echoOf(token)}` }, { status: response.status, headers });
  });
}

/** HAR 1.2's required members, from the spec (http://www.softwareishard.com/blog/har-12-spec/), as JSON Schema. */
const nameValue = { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } };
const HAR_SCHEMA = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: { type: 'object', required: ['name', 'version'], properties: { name: { type: 'string' }, version: { type: 'string' } } },
        pages: {
          type: 'array',
          items: { type: 'object', required: ['startedDateTime', 'id', 'title', 'pageTimings'], properties: { id: { type: 'string' } } },
        },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            properties: {
              startedDateTime: { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)$' },
              time: { type: 'number', minimum: 0 },
              request: {
                type: 'object',
                required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
                properties: {
                  headers: { type: 'array', items: nameValue },
                  queryString: { type: 'array', items: nameValue },
                  cookies: { type: 'array', items: nameValue },
                  postData: { type: 'object', required: ['mimeType'], properties: { mimeType: { type: 'string' }, text: { type: 'string' } } },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              response: {
                type: 'object',
                required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  headers: { type: 'array', items: nameValue },
                  content: { type: 'object', required: ['size', 'mimeType'], properties: { size: { type: 'integer' }, text: { type: 'string' } } },
                  redirectURL: { type: 'string' },
                },
              },
              cache: { type: 'object' },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                properties: Object.fromEntries(
                  ['blocked', 'dns', 'connect', 'ssl', 'send', 'wait', 'receive'].map((name) => [name, { type: 'number', minimum: -1 }]),
                ),
              },
            },
          },
        },
      },
    },
  },
};

interface HarFile {
  log: {
    pages: { id: string }[];
    entries: {
      pageref: string;
      time: number;
      timings: Record<string, number>;
      request: { method: string; url: string; headers: { name: string; value: string }[] };
      response: { status: number; content: { text: string; size: number } };
    }[];
  };
}

/** har-validator (which checks HAR against har-schema), when this machine has it. */
function harValidator(): { har(data: unknown): Promise<unknown> } | undefined {
  try {
    return createRequire(import.meta.url)('har-validator');
  } catch {
    return undefined;
  }
}

describe('--har against a deployment that echoes every credential it gets', () => {
  let deployment: Deployment;
  let text: string;
  let stdout: string;
  beforeAll(async () => {
    deployment = await echoingDeployment();
    const file = join(folder, 'run.har');
    const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--har', file], { PETSTORE_API_KEY: KEY });
    stdout = run.stdout;
    expect(run.code, run.stderr).toBe(0);
    text = readFileSync(file, 'utf8');
  });
  afterAll(() => deployment.close());

  it('is HAR 1.2 by the JSON Schema written from its spec', () => {
    const validate = new Ajv({ allErrors: true }).compile(HAR_SCHEMA);
    const har: unknown = JSON.parse(text);
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
  });

  it.skipIf(harValidator() === undefined)('is HAR by har-validator', async () => {
    // It resolves with the HAR when valid, and rejects naming each violation otherwise.
    await expect(harValidator()?.har(JSON.parse(text))).resolves.toMatchObject({ log: { version: '1.2' } });
  });

  it('holds every request of both suites, in one page, each time the sum of its timings', () => {
    const { log } = JSON.parse(text) as HarFile;
    expect(log.entries).toHaveLength(Number(/(\d+) requests/.exec(stdout)?.[1]));
    expect(stdout).toMatch(/✓ pact\./);
    expect(log.entries.every((entry) => entry.pageref === log.pages[0]?.id)).toBe(true);
    for (const { time, timings } of log.entries)
      expect(
        Object.values(timings)
          .filter((ms) => ms >= 0)
          .reduce((a, b) => a + b, 0),
      ).toBeCloseTo(time, 3);
  });

  it('shows where the key went as $PETSTORE_API_KEY, and the echoes of it redacted', () => {
    const { log } = JSON.parse(text) as HarFile;
    const authorizations = new Set(log.entries.flatMap((entry) => entry.request.headers.filter((h) => h.name === 'authorization').map((h) => h.value)));
    expect(authorizations).toContain('Bearer $PETSTORE_API_KEY');
    expect(authorizations).toContain('Bearer <$PETSTORE_API_KEY, case changed>');
    expect(text).toContain('hex=$PETSTORE_API_KEY;');
    expect(text).toContain('pct=$PETSTORE_API_KEY;');
    expect(log.entries.some((entry) => entry.response.status === 401 && entry.response.content.text.includes('b64=$PETSTORE_API_KEY;'))).toBe(true);
  });

  it.each(SENT_TOKENS.map((token, i) => [i, token]))('sent credential #%i: in no form, anywhere in the file', (_, token) => {
    for (const [name, form] of Object.entries(forms(token))) expect(text.includes(form), `${name} ${form}`).toBe(false);
    // A JSON string may escape any character (`\u0073`): the strings a HAR reader decodes hold none either.
    const strings: string[] = [];
    JSON.parse(text, (key, value: unknown) => {
      strings.push(key, typeof value === 'string' ? value : '');
      return value;
    });
    const decoded = strings.join('\n');
    for (const [name, form] of Object.entries(forms(token))) expect(decoded.includes(form), `${name} ${form}`).toBe(false);
  });
});

describe('--har against a deployment that answers megabytes', () => {
  it('keeps the bodies of the first exchanges within 16 MiB, the rest without theirs, and says so once', async () => {
    // Its first 8 answers 4.9 MB each, within what the verifier reads of one (18 such answers once made a
    // HAR of 90 MB); the rest small, so that the run is quick.
    let answered = 0;
    const refusal = (bytes: number) => json(400, { code: 'bad_request', message: 'y'.repeat(bytes), status: 400 });
    const deployment = await serve(async () => refusal(answered++ < 8 ? 4_900_000 : 2));
    try {
      const file = join(folder, 'large.har');
      const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--suite', 'spec', '--har', file], { PETSTORE_API_KEY: KEY });
      const text = readFileSync(file, 'utf8');
      const { log } = JSON.parse(text) as HarFile;
      const leftOut = log.entries.filter((entry) => entry.response.content.text === '' && entry.response.content.size > 0);
      expect(leftOut.length, run.stdout).toBeGreaterThan(0);
      // The bodies kept, and each entry's headers and timings besides.
      expect(Buffer.byteLength(text)).toBeLessThan(HAR_BODY_BYTES * 1.25 + log.entries.length * 4096);
      expect(run.stdout.split(`a HAR holds at most ${HAR_BODY_BYTES} bytes of bodies`)).toHaveLength(2);
    } finally {
      await deployment.close();
    }
  });
});

describe('--har of a long run', () => {
  it('holds the first exchanges within HAR_BYTES in all, headers included, the rest left out and said once, in the file and on the console', async () => {
    // An honest mock whose every answer carries 12 KB of headers: a fuzz run of 1,000 sequences (some 3,000
    // requests) would make a HAR of 40 MB; the red team's 10,000 made 95 MB and 1.2 GB of memory.
    const mock = createMockApi({ count: 5, apiKeys: [KEY] });
    const deployment = await serve(async (request) => {
      const response = await mock.fetch(request);
      const headers = new Headers(response.headers);
      headers.set('x-padding', 'p'.repeat(12_000));
      return new Response(response.body, { status: response.status, headers });
    });
    try {
      const file = join(folder, 'long.har');
      const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--suite', 'fuzz', '--fuzz-runs', '1000', '--seed', '1', '--har', file], {
        PETSTORE_API_KEY: KEY,
      });
      expect(run.code, run.stderr).toBe(0);
      const text = readFileSync(file, 'utf8');
      const { log } = JSON.parse(text) as HarFile & { log: { comment?: string } };
      const requests = Number(/(\d+) requests/.exec(run.stdout)?.[1]);
      expect(log.entries.length).toBeLessThan(requests);
      expect(log.comment).toContain(`${requests - log.entries.length} later exchanges are left out`);
      // What the bound counts, and HAR's own names and indentation besides.
      expect(Buffer.byteLength(text)).toBeLessThan(HAR_BYTES + log.entries.length * 2048);
      expect(run.stdout.split(`a HAR holds at most ${HAR_ENTRIES} responses and ${HAR_BYTES} bytes`)).toHaveLength(2);
    } finally {
      await deployment.close();
    }
  }, 120_000);

  it('holds at most HAR_ENTRIES exchanges, however small', () => {
    const kept = new HarExchanges(HAR_BODY_BYTES, 3);
    const exchange = { request: { method: 'GET', url: 'http://x/v1/pets', headers: {} }, status: 200, headers: [], text: '[]', startedAt: 0, ms: 1 };
    for (let i = 0; i < 5; i++) kept.observe(exchange);
    expect([kept.exchanges.length, kept.dropped]).toEqual([3, 2]);
  });
});
