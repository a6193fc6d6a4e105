/**
 * What `expectRequests` says of requests from outside reaches a test runner's terminal: each character a
 * terminal acts on (a right-to-left override, DEL, ESC) is written as its `\u` escape, as in the mock's
 * log and the verifier's reports (red team 13 #7: JSON's escaping left U+202E and DEL raw).
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { expectRequests } from '../../src/testing/index.js';
import { serve } from '../support/deployments.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';

/** Characters a terminal acts on: C0 and C1 controls, DEL, and format characters (bidi overrides). */
const ACTING = /[\p{Cc}\p{Cf}]/u;

async function missOf(check: PromiseLike<unknown>): Promise<string> {
  try {
    await check;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the check passed');
}

describe('expectRequests, on a terminal', () => {
  it('escapes what a request held in the nearest requests of a miss: path, query, body', async () => {
    const mock = createMockApi();
    const send = (path: string, init: RequestInit = {}) => mock.fetch(new Request(`http://mock.test/v1${path}`, { headers: AUTH, ...init }));
    await send('/pets?status=%E2%80%AEsold%1B%5B31m');
    await send('/pets', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name: '\u202eraw\u007f', categoryId: 1 }) });
    const message = await missOf(expectRequests(mock).toInclude({ method: 'POST', query: { status: 'x' }, body: { name: 'Rex' } }));
    expect(message).toContain('\\u202e');
    expect(message).toContain('\\u007f');
    for (const line of message.split('\n')) expect(line).not.toMatch(ACTING);
  });

  it('escapes the excerpt of an answer that is no journal', async () => {
    const server = await serve(async () => new Response('\u001b]0;PWNED\u0007\u202eX\u001b[2J'));
    try {
      const message = await missOf(expectRequests(server.url).toInclude({ method: 'GET' }));
      expect(message).toMatch(/its body is not JSON/);
      expect(message).toContain('\\u202e');
      expect(message).not.toMatch(ACTING);
    } finally {
      await server.close();
    }
  });
});

describe('expectRequests, and the key it was given', () => {
  it('hides its key in any form in what it quotes of an answer that is no journal (red team 14 #7)', async () => {
    const key = 'expect-own-key-0123456789';
    const forms = [key, Buffer.from(key).toString('base64'), encodeURIComponent(`${key}/`)];
    const server = await serve(async () => new Response(`not a journal: ${forms.join(' ')}`));
    try {
      const message = await missOf(expectRequests(server.url, { apiKey: key }).toInclude({ method: 'GET' }));
      expect(message).toMatch(/its body is not JSON/);
      for (const form of forms) expect(message).not.toContain(form.slice(0, 20));
    } finally {
      await server.close();
    }
  });
});
