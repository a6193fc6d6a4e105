/**
 * Text from outside (a deployment's pet name, an Error's message, a file's line) as a terminal may
 * show it: every character a terminal would act on instead of showing is written as its `\u` escape.
 * That is the C0 controls (ESC starts the sequences that move the cursor, clear the screen, set the
 * window's title or write to the clipboard; CR and LF would forge lines of a log), DEL, the C1
 * controls (U+009B is a one-character CSI to many terminals), the line and paragraph separators, and
 * the bidirectional overrides and isolates that reorder what is shown. The mock's CLI and the
 * verifier's console reporter print outside text only through it; colours they add themselves are
 * added after it.
 */

/**
 * What a terminal acts on, or draws as nothing, besides the C0 controls, by Unicode's properties rather
 * than a list: DEL and C1 (`Cc`), the line and paragraph separators (`Zl`, `Zp`), every format character
 * (`Cf`: the bidirectional marks, overrides and isolates of `Bidi_Control`, zero-width ones, tag
 * characters that carry hidden ASCII) and what else is default-ignorable (Hangul fillers, variation
 * selectors). A hand list of the overrides and isolates let LRM, RLM, ALM and 16 invisible ones through.
 */
const ACTING_BEYOND_C0 = '\\u007f-\\u009f\\p{Cf}\\p{Zl}\\p{Zp}\\p{Default_Ignorable_Code_Point}';
const ACTING = new RegExp(`[\\u0000-\\u001f${ACTING_BEYOND_C0}]`, 'gu');
/** `ACTING` without its global flag, whose `test` would start where the last one stopped. */
const HOLDS_ACTING = new RegExp(ACTING.source, 'u');

/** One character as its escape, as a terminal shows it without acting on it: `\u200f`, or `\u{e0041}` past U+FFFF. */
function escaped(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character a terminal acts on written as `\uXXXX`; the rest as it is.
 * @example
 * terminalText('Rex\u001b[2J'); // 'Rex\\u001b[2J', shown as Rex\u001b[2J, the screen left alone
 */
export function terminalText(text: string): string {
  // Most text holds none (every line of the request log): a test, without `replace`'s global search, costs half as much.
  if (!HOLDS_ACTING.test(text)) return text;
  return text.replace(ACTING, escaped);
}

/** What a report file (XML, HTML) cannot hold or should not show: C0 controls but tab, LF and CR; DEL, C1 and the reordering marks; U+FFFE, U+FFFF and lone surrogates. */
const NOT_IN_A_REPORT = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]|[${ACTING_BEYOND_C0}]|[\\ufffe\\uffff]|[\\ud800-\\udfff]`, 'gu');

/**
 * Text from outside as a report file holds it (the verifier's JUnit and HTML): lines kept, the C0
 * controls XML 1.0 forbids dropped, the characters a terminal acts on written as their `\u` escape
 * (a report is read with `cat` too), and what is no character of XML (U+FFFE, U+FFFF, half a
 * surrogate pair) as U+FFFD: one such character made a whole JUnit file one a CI rejects.
 * @example
 * reportText('a\u0085b\uffff'); // 'a\\u0085b\ufffd'
 */
export function reportText(text: string): string {
  return text.replace(NOT_IN_A_REPORT, (character) => {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x20) return '';
    if ((code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) return '\ufffd';
    return escaped(character);
  });
}
