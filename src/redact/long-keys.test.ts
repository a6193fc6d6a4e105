/**
 * A key longer than 512 characters (a JWT of several KB is an ordinary bearer key) is found as its parts
 * (`KeyRedactor#add`): what of it is hidden when only a piece of it appears, and what it costs. Red team
 * 9 #9: a 7.7 KB key made the verifier's run against a mock with the same key time out (15.8 s of CPU,
 * 0.9 s with a short key); each text with a `%` or `\` ran every pattern, 0.3 s each in V8's interpreter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyRedactor } from './key-redactor.js';

/** A JWT as an identity provider signs one: a header, 700 roles, a 256-byte signature; 7,736 characters. */
function longJwt(): string {
  const url = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');
  const header = url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const payload = url(JSON.stringify({ sub: 'ci', roles: Array.from({ length: 700 }, (_, i) => `r${i}`) }));
  const signature = url(Uint8Array.from({ length: 256 }, (_, i) => (i * 151 + 7) % 256));
  return `${header}.${payload}.${signature}`;
}

const JWT = longJwt();
/** How many characters each part of JWT holds: it is cut into parts of at most 512, of equal length. */
const PART = Math.ceil(JWT.length / Math.ceil(JWT.length / 512));

function cpuMicros(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(start);
  return user + system;
}

describe('a key of 7,736 characters', () => {
  it(`hides every piece of it of ${PART} characters or more (a part's length), wherever it is cut, in any case, but for 7 characters at most`, () => {
    const redactor = new KeyRedactor([JWT]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: JWT.length - PART }), fc.integer({ min: 0, max: 2 * PART }), fc.boolean(), (start, more, upper) => {
        const piece = JWT.slice(start, start + PART + more);
        const shown = redactor.text(`log: ${upper ? piece.toUpperCase() : piece} (cut)`);
        // At most 7 characters of it beside the placeholder: fewer than 8, ordinary text holds by chance.
        expect(shown).toMatch(/^log: \S{0,7}\*\*\* \(cut\)$/);
      }),
      { numRuns: 100 },
    );
  });

  it('hides the longer piece of the key cut anywhere in two (two headers, two lines), as of any key', () => {
    const redactor = new KeyRedactor([JWT]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: JWT.length - 1 }), (cut) => {
        const [first, second] = [JWT.slice(0, cut), JWT.slice(cut)];
        const longer = first.length >= second.length ? first : second;
        expect(redactor.text(`x-part: ${longer}`)).toMatch(/^x-part: \S{0,7}\*\*\*$/);
      }),
      { numRuns: 100 },
    );
  });

  it('costs a text with escapes but no key what a short key costs: no pattern runs where no needle is, escapes undone', () => {
    const texts = Array.from({ length: 200 }, (_, i) => [`GET /v1%2Fpets/${i}?name=%22Rex%22`, `{"message":"no pet \\"${i}\\" here\\u0021"}`]).flat();
    const cost = (key: string) => {
      const redactor = new KeyRedactor([key]);
      return cpuMicros(() => {
        for (const text of texts) {
          redactor.holds(text);
          redactor.text(text);
        }
      });
    };
    cost('s3cretKEYvalue42'); // warm
    const short = cost('s3cretKEYvalue42');
    const long = cost(JWT);
    // Before: 0.3 s a text (8,000 texts: a mock past every time-out); now within a few times a short key's, and a wide bound for a loaded machine.
    expect(long).toBeLessThan(10 * short + 500_000);
  });

  it('adds no pattern for a near miss its parts already hide (the key with its case changed, a character more or less)', () => {
    const redactor = new KeyRedactor([JWT], { placeholder: '$K' });
    const swapped = [...JWT].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    const cpu = cpuMicros(() => {
      for (const near of [swapped, `${JWT}x`, JWT.slice(0, -1)]) redactor.know(near);
    });
    // Each part's patterns (100 KB and more) made again for each near miss took about a second; nothing to make takes milliseconds.
    expect(cpu).toBeLessThan(500_000);
    for (const near of [swapped, `${JWT}x`, JWT.slice(0, -1)]) expect(redactor.text(`echo ${near}`)).toBe('echo $K');
  });
});
