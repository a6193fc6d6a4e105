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

/** What a terminal acts on besides the C0 controls: DEL, C1, the line and paragraph separators, the bidirectional marks. */
const ACTING_BEYOND_C0 = '\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const ACTING = new RegExp(`[\\u0000-\\u001f${ACTING_BEYOND_C0}]`, 'g');
/** `ACTING` without its global flag, whose `test` would start where the last one stopped. */
const HOLDS_ACTING = new RegExp(ACTING.source);

/** One character as its `\u` escape, as a terminal shows it without acting on it. */
const escaped = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

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
const NOT_IN_A_REPORT = new RegExp(
  `[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]|[${ACTING_BEYOND_C0}]|[\\ufffe\\uffff]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`,
  'g',
);

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
    const code = character.charCodeAt(0);
    if (code < 0x20) return '';
    if (code >= 0xd800 || code === 0xfffe || code === 0xffff) return '\ufffd';
    return escaped(character);
  });
}
