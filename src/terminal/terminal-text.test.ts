import { describe, expect, it } from 'vitest';
import { reportText, terminalText } from './terminal-text.js';

describe('terminalText', () => {
  it('writes every control character, C0, DEL and C1, as its \\u escape', () => {
    for (let code = 0; code < 0x20; code++) expect(terminalText(String.fromCharCode(code))).toBe(`\\u${code.toString(16).padStart(4, '0')}`);
    for (let code = 0x7f; code <= 0x9f; code++) expect(terminalText(String.fromCharCode(code))).toBe(`\\u00${code.toString(16)}`);
  });

  it('escapes what forges a line or reorders one: CR, LF, the separators, bidirectional overrides and isolates', () => {
    expect(terminalText('a\r\nb\u2028c\u2029d')).toBe('a\\u000d\\u000ab\\u2028c\\u2029d');
    expect(terminalText('\u202egnp.exe\u2066x\u2069')).toBe('\\u202egnp.exe\\u2066x\\u2069');
  });

  it('escapes every format and default-ignorable character by its Unicode property, not a list (red team 11 #6)', () => {
    const invisible = [
      '\u200e',
      '\u200f',
      '\u061c',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u00ad',
      '\u180e',
      '\ufff9',
      '\ufffb',
      '\u115f',
      '\u3164',
      '\u034f',
      '\ufe0f',
    ];
    for (const character of invisible)
      expect(terminalText(`a${character}b`), escape(character)).toBe(`a\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}b`);
    // Past U+FFFF, one escape of the whole code point: the tag characters that smuggle ASCII, a musical format character.
    expect(terminalText('x\u{e0041}\u{e0001}\u{1d173}y')).toBe('x\\u{e0041}\\u{e0001}\\u{1d173}y');
    expect(reportText('x\u{e0041}y\u200f')).toBe('x\\u{e0041}y\\u200f');
  });

  it('leaves the rest as it is: ASCII, accents, emoji, CJK', () => {
    const shown = 'Rex Zoë 🐶 柴犬 {"id":1} ~!@#$%^&*()';
    expect(terminalText(shown)).toBe(shown);
  });

  it('takes out every escape sequence a hostile name can hold: no ESC, BEL or CSI is left', () => {
    const hostile = 'Rex\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;ZXZpbA==\u001b\\\u009b31m';
    expect(['\u001b', '\u0007', '\u009b'].filter((code) => terminalText(hostile).includes(code))).toEqual([]);
    expect(terminalText(hostile)).toBe('Rex\\u001b[2J\\u001b]0;pwned\\u0007\\u001b]52;c;ZXZpbA==\\u001b\\\\u009b31m');
  });
});

describe('reportText', () => {
  it('keeps lines, drops the C0 controls XML forbids, escapes what a terminal acts on, and makes no-characters of XML U+FFFD (red team 9, #7)', () => {
    expect(reportText('a\u0085b\uffff\u0001c\nd\t\ud800e\ud83d\ude00\u202e\ufffe')).toBe('a\\u0085b\ufffdc\nd\t\ufffde\ud83d\ude00\\u202e\ufffd');
    expect(reportText('plain text, with a line\r\nbreak')).toBe('plain text, with a line\r\nbreak');
  });
});
