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

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it escapes
const ACTING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** `ACTING` without its global flag, whose `test` would start where the last one stopped. */
const HOLDS_ACTING = new RegExp(ACTING.source);

/**
 * `text` with every character a terminal acts on written as `\uXXXX`; the rest as it is.
 * @example
 * terminalText('Rex\u001b[2J'); // 'Rex\\u001b[2J', shown as Rex\u001b[2J, the screen left alone
 */
export function terminalText(text: string): string {
  // Most text holds none (every line of the request log): a test, without `replace`'s global search, costs half as much.
  if (!HOLDS_ACTING.test(text)) return text;
  return text.replace(ACTING, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
