/**
 * Run in a child process by test/mock/redaction-memory.test.ts: redacts one text of about 4 MB, of the
 * shape named by the first argument, as the mock's journal does (`textRedactor`) or as the verifier does
 * an answer (`KeyRedactor#parsedBody`, the second argument), and prints what it took as one JSON line.
 * The text holds the key in the same encoding as its run (a percent-encoded key after a run of `%41`).
 */
import { textRedactor } from '../../src/mock/pipeline/request-log.js';
import { KeyRedactor } from '../../src/redact/key-redactor.js';

const KEY = 's3cretKEYvalue42';
const BYTES = 4_000_000;
const percent = [...KEY].map((character) => `%${character.charCodeAt(0).toString(16)}`).join('');

/** The shapes of a 4 MB name: a plain run, a base64 run, a run of percent escapes, a run of JSON `\u` escapes, each ending with the key so encoded; a list of numbers, words. */
const SHAPES: Record<string, () => string> = {
  plain: () => 'x'.repeat(BYTES) + KEY,
  base64: () => 'QUFB'.repeat(BYTES / 4) + btoa(KEY),
  percent: () => '%41'.repeat(BYTES / 3) + percent,
  // Many short matches of the decoders' rules: a list of numbers (each a character in 3 radixes), words between spaces.
  numbers: () => '1,'.repeat(BYTES / 2) + KEY,
  words: () => 'ab '.repeat(BYTES / 3) + KEY,
  'u-escapes': () => '\\u0041'.repeat(BYTES / 6) + [...KEY].map((character) => `\\u00${character.charCodeAt(0).toString(16)}`).join(''),
};

const [shape = '', reader = ''] = process.argv.slice(2);
const name = SHAPES[shape]?.();
if (name === undefined) throw new Error(`no shape ${shape}`);
const body = JSON.stringify({ name, categoryId: 1 });
const before = process.memoryUsage().rss;
const started = performance.now();
const shown =
  reader === 'journal'
    ? textRedactor([KEY])(body)
    : new KeyRedactor([KEY], { placeholder: '$PETSTORE_API_KEY', shortAsToken: true }).parsedBody(body, JSON.parse(body));
const ms = performance.now() - started;
const forms = [KEY, btoa(KEY), percent, percent.toUpperCase(), KEY.slice(0, 12)];
console.log(
  JSON.stringify({
    ms,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    rssBefore: before,
    bodyBytes: body.length,
    keyShown: forms.some((form) => shown.includes(form)),
    shownChars: shown.length,
  }),
);
