/**
 * An Error that quotes a long word of the client's (a path, a `Content-Type`) is redacted in time linear
 * in its length: the userinfo rule once tried a scheme at every letter, 15,000 letters costing 0.24 s a
 * 404 (red team 7, #3). Measured in CPU time, as a ratio, which load does not change much.
 */
import { describe, expect, it } from 'vitest';
import { KeyRedactor } from '../../redact/key-redactor.js';
import { createMockApi } from '../create-mock-api.js';
import { ERROR_BODY_BYTES, keylessErrors } from './keyless-errors.js';
import { errorResponse } from './messages.js';

const KEY = 'keyless-linear-key-42';
const mock = createMockApi({ apiKey: KEY });

/** A word of `length` letters no rule shortens (not one letter repeated), a new one each call: an Error's redacted body is remembered. */
let words = 0;
function word(length: number): string {
  words++;
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(97 + ((i * 7919 + words) % 26));
  return text;
}

async function cpuMsOf(request: () => Request): Promise<number> {
  const start = process.cpuUsage();
  const answer = await mock.fetch(request());
  await answer.text();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('an Error quoting a long word of the client', () => {
  const cases: [string, (text: string) => Request, number][] = [
    ['a 404 for a path', (text) => new Request(`http://mock.test/v1/${text}`, { headers: { authorization: `Bearer ${KEY}` } }), 404],
    [
      'a 415 for a Content-Type',
      (text) =>
        new Request('http://mock.test/v1/pets', {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': `application/${text}` },
          body: '{}',
        }),
      415,
    ],
  ];
  it.each(cases)('%s takes time linear in its length', async (_, request, status) => {
    expect((await mock.fetch(request(word(4_000)))).status).toBe(status);
    // The smaller twice, the faster kept: the first also warms the code up.
    const smallMs = Math.max(0.5, Math.min(await cpuMsOf(() => request(word(4_000))), await cpuMsOf(() => request(word(4_000)))));
    const largeMs = await cpuMsOf(() => request(word(32_000)));
    // Linear is 8 times; the square was 64.
    expect(largeMs / smallMs, `${smallMs} ms for 4,000 letters, ${largeMs} ms for 32,000`).toBeLessThan(24);
  });
});

describe('an Error quoting input of any length', () => {
  const auth = { authorization: `Bearer ${KEY}` };

  it(`is at most ERROR_BODY_BYTES: its start and its end kept, the key hidden before the cut, the JSON whole`, async () => {
    // The code API and MSW bound no request's head: a path of 100,000 letters, the key at its end.
    const path = await mock.fetch(new Request(`http://mock.test/v1/${word(100_000)}${KEY}`, { headers: auth }));
    const text = await path.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ERROR_BODY_BYTES);
    const error = JSON.parse(text) as { code: string; message: string; status: number };
    expect(error).toMatchObject({ code: 'not_found', status: 404 });
    expect(error.message).toMatch(/^No operation is served at \/v1\/[a-z]+…[a-z]*\*\*\*\. The operations are GET \/v1\/pets/);
    expect(text).not.toContain(KEY.slice(0, 8));
    // A message of characters of 4 bytes (surrogate pairs) or of 6-byte escapes, cut anywhere: never half of a pair.
    const keyless = keylessErrors(new KeyRedactor([KEY]));
    for (const filler of ['😀', '\u0001', 'é😀', 'a😀', 'ab😀'])
      for (const odd of ['', 'x']) {
        const { body } = keyless(errorResponse('bad_request', `Got ${odd}${filler.repeat(3_001)}; send JSON.${odd}`));
        expect(Buffer.byteLength(body)).toBeLessThanOrEqual(ERROR_BODY_BYTES);
        expect((JSON.parse(body) as { message: string }).message).toMatch(/^Got .+….+; send JSON\.x?$/u);
        expect(body).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
      }
  });

  it('keeps a body within the bound as it is', async () => {
    const body = await (await mock.fetch(new Request('http://mock.test/v1/nothing-here', { headers: auth }))).text();
    expect(body).toBe(
      '{"code":"not_found","message":"No operation is served at /v1/nothing-here. The operations are GET /v1/pets, POST /v1/pets, GET /v1/pets/{petId}.","status":404}',
    );
  });
});
