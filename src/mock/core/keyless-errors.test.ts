/**
 * An Error that quotes a long word of the client's (a path, a `Content-Type`) is redacted in time linear
 * in its length: the userinfo rule once tried a scheme at every letter, 15,000 letters costing 0.24 s a
 * 404 (red team 7, #3). Measured in CPU time, as a ratio, which load does not change much.
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../create-mock-api.js';

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
