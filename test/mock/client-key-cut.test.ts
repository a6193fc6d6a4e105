/**
 * The typed client's own key in what it says of an answer: hidden before an excerpt is cut (a key across
 * the cut showed its first half), and in every field of an Error body, not only code and message (a test
 * runner prints an error's own properties). Red team 14 #5.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../src/client/index.js';
import { serve } from '../support/deployments.js';

const KEY = 's3cretKEYvalue42-Zq9';
const BASE64 = Buffer.from(KEY).toString('base64');

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call resolved');
}

describe("the typed client's key in an answer it quotes", () => {
  it('is hidden wherever an excerpt of an answer that is no Error body is cut', async () => {
    let pad = 0;
    const server = await serve(
      async () => new Response(`${'A'.repeat(pad)}${KEY}${'B'.repeat(50)}`, { status: 502, headers: { 'content-type': 'text/plain' } }),
    );
    try {
      const client = createClient({ baseUrl: server.url, apiKey: KEY });
      for (pad = 170; pad <= 200; pad++) {
        const error = await failure(client.listPets());
        expect(error.message, `pad ${pad}`).not.toContain(KEY.slice(0, 6));
        expect(JSON.stringify(error.body), `pad ${pad}`).not.toContain(KEY.slice(0, 6));
      }
    } finally {
      await server.close();
    }
  });

  it('is hidden in every field of an Error body, in any form', async () => {
    const body = { code: 'bad_request', message: 'no', status: 400, detail: `key ${KEY}`, errors: [BASE64, { [KEY]: KEY }] };
    const server = await serve(async () => Response.json(body, { status: 400 }));
    try {
      const error = await failure(createClient({ baseUrl: server.url, apiKey: KEY }).listPets());
      const seen = JSON.stringify(error.body);
      expect(seen).toContain('"detail"');
      expect(seen).not.toContain(KEY);
      expect(seen).not.toContain(BASE64);
    } finally {
      await server.close();
    }
  });
});
