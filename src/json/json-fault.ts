/**
 * Why a text is not JSON, in words that quote none of it. `JSON.parse` quotes the text it fails on
 * (`Unexpected token 'P', "PETSTORE_A"... is not valid JSON`) and lossless-json the character, so an
 * error about a file given by mistake (`--pact /proc/self/environ`, `--state ~/.env`) would print the
 * secrets it holds. Files are named in errors, and where they break JSON; never quoted.
 */
/**
 * What is wrong with a text a JSON parser refused, from the parser's `error`, without its content:
 * the line and column, or the character's place, when the parser says it.
 * @example
 * jsonFault(new SyntaxError('Unexpected token \'P\', "PETSTORE_A"... is not valid JSON')); // 'it is not JSON'
 * jsonFault(new SyntaxError('Bad control character in JSON at position 2 (line 1 column 3)')); // 'it is not JSON: it breaks at line 1, column 3'
 */
export function jsonFault(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/nest deeper than/.test(message)) return `it is not JSON: its ${message}`;
  const line = /line (\d+) column (\d+)/.exec(message);
  if (line) return `it is not JSON: it breaks at line ${line[1]}, column ${line[2]}`;
  const position = /position (\d+)/.exec(message);
  if (position) return `it is not JSON: it breaks at character ${Number(position[1]) + 1}`;
  if (/end of (JSON )?(input|text)|unexpected end/i.test(message)) return 'it is not JSON: it ends before its value does';
  return 'it is not JSON';
}
