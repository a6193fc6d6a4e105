/**
 * `unescaped`, the decoded forms' one pass over a text's escapes, undoes what a global pattern of them
 * replaces, character for character: it reads the text itself, without a match of each escape (a 4 MB
 * text of `\u0041` made 777,000 of them, most of the time it took to redact).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unescaped } from './decoded-forms.js';

/** The escapes as a pattern: `\U0001F600` before `\u0070`, whose 4 digits it starts with. */
const ESCAPES =
  /\\(["\\/])|&#(\d{1,7});?|&#[xX]([0-9a-fA-F]{1,6});?|&([a-zA-Z]{2,6});|\\[xX]([0-9a-fA-F]{2})|\\u\{([0-9a-fA-F]{1,6})\}|\\U([0-9a-fA-F]{8})|[\\%][uU]([0-9a-fA-F]{4})|((?:%[0-9a-fA-F]{2})+)/g;
const NAMED: Readonly<Record<string, string>> = { amp: '&', period: '.', lt: '<', sol: '/' };

function codePoint(value: number): string {
  return Number.isInteger(value) && value >= 0 && value <= 0x10ffff && (value < 0xd800 || value > 0xdfff) ? String.fromCodePoint(value) : '';
}

/** What the pattern makes of `text`: the rule `unescaped` keeps. */
function byPattern(text: string): string {
  return text.replace(
    ESCAPES,
    (whole, quoted?: string, decimal?: string, hex?: string, name?: string, byte?: string, braced?: string, wide?: string, unit?: string, percent?: string) => {
      if (quoted !== undefined) return quoted;
      if (decimal !== undefined) return codePoint(Number(decimal));
      if (name !== undefined) return NAMED[name] ?? whole;
      if (percent !== undefined) return new TextDecoder().decode(Uint8Array.from(percent.slice(1).split('%'), (pair) => Number.parseInt(pair, 16)));
      return codePoint(Number.parseInt(hex ?? byte ?? braced ?? wide ?? unit ?? '', 16));
    },
  );
}

/** Texts of what escapes are made of, and of whole escapes. */
const escapeText = fc
  .array(
    fc.constantFrom(
      ...['\\', '&', '#', '%', ';', '{', '}', 'x', 'X', 'u', 'U', 'a', 'F', 'g', '0', '1', '7', 'e', '"', '/'],
      ...['&amp;', '&period;', '&sol;', '&nbspx;', '&#112;', '&#x70', '\\u{1F600}', '\\U0001F600', '%E2%82%AC', '%u0041', '\\x41', '%ZZ', '%d8'],
    ),
    { maxLength: 300 },
  )
  .map((pieces) => pieces.join(''));

describe('unescaped', () => {
  it('undoes each escape as a global pattern of them replaces it', () => {
    fc.assert(
      fc.property(escapeText, (text) => {
        expect(unescaped(text)).toBe(byPattern(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads a text of 90,000 escapes into the same text the pattern makes', () => {
    const text = `${'\\u0041%42&#67;'.repeat(30_000)}&period;\\U0001F600`;
    expect(unescaped(text)).toBe(byPattern(text));
  });
});
