/**
 * The redactor's passes that replace match by match (`replaceEach`, `escapesUndone`) give what
 * `String.prototype.replace` gives, on texts made of the characters their patterns read: they exist
 * for their memory (a replacer held every match of a 4 MB text at once), never for another result.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replaceEach } from './each-match.js';
import { escapesUndone } from './key-patterns.js';

/** Texts of the characters escapes are made of, long enough to cross `replaceEach`'s pieces of 4,096 now and then. */
const escapeText = (length: number) =>
  fc
    .array(fc.constantFrom('%', '2', '5', '4', '1', 'a', 'F', 'g', '\\', 'u', 'U', '0', 'n', '"', '/', 'x', ' '), { maxLength: length, size: 'max' })
    .map((characters) => characters.join(''));

describe('replaceEach', () => {
  it('replaces as String.prototype.replace with a replacer does, groups and all', () => {
    const pattern = /(\d)(x)?|%([0-9a-f]{2})/g;
    const replacer = (match: (string | undefined)[]) => `<${match.map((group) => group ?? '-').join(',')}>`;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('1', 'x', '%', 'a', '0', 'z'), { maxLength: 40_000, size: 'max' }).map((characters) => characters.join('')),
        (text) => {
          expect(replaceEach(text, pattern, (match) => replacer([...match]))).toBe(text.replace(pattern, (...args) => replacer(args.slice(0, 4))));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('reads a text from its start whatever the pattern was left at, and gives back the text itself when nothing matches', () => {
    const pattern = /a/g;
    const long = `a${'b'.repeat(100_000)}a`;
    for (const text of ['aXa', long]) {
      pattern.lastIndex = 2;
      expect(replaceEach(text, pattern, () => 'c')).toBe(`c${text.slice(1, -1)}c`);
    }
    const text = 'b'.repeat(100_000);
    expect(replaceEach(text, pattern, () => 'c')).toBe(text);
  });
});

describe('escapesUndone', () => {
  it('undoes what the forms’ escapes pattern reads, as a global replace of it does', () => {
    const escapes = /%(?:25)*([0-9a-fA-F]{2})|\\+[uU]([0-9a-fA-F]{4})|\\+([bfnrt/"\\])/g;
    const short: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', '/': '/', '"': '"', '\\': '\\' };
    const byRegExp = (text: string) =>
      text.replace(escapes, (_, byte?: string, unit?: string, letter?: string) => {
        const digits = byte ?? unit;
        return digits === undefined ? (short[letter ?? ''] ?? '') : String.fromCharCode(Number.parseInt(digits, 16));
      });
    fc.assert(
      fc.property(escapeText(12_000), (text) => {
        expect(escapesUndone(text)).toBe(byRegExp(text));
      }),
      { numRuns: 100 },
    );
    expect(escapesUndone('%2525%41\\\\u0042\\\\x\\n%zz')).toBe('%AB\\x\n%zz');
  });
});
