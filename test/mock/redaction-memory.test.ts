/**
 * The key redactor (src/redact/) costs a bounded multiple of reading a text, in memory as in time: a
 * body of 4 MB of any shape is redacted, by the mock's journal and by the verifier, within a heap a
 * few times the body's size. Red team 12 #3: a 4 MB body of `%41` took the mock from 93 to 885 MB
 * (some 200 bytes a byte of body: every match of a global pattern held at once for a replacer) and
 * the verifier to 1.28 GB. Each run is a child process with V8's heap capped, so that a redactor
 * holding more than the cap dies of it; its peak RSS is printed, not compared (GC timing varies).
 */
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { execFile } from '../support/children.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The heap a run may use, in MiB: the body is 4 MB (the text, then its JSON, both held by the run), the
 * redactor's copies of it a few times that, and the patterns and modules some 40 MB.
 */
const HEAP_MIB = 96;

describe('the key redactor on a 4 MB body, within a heap of 96 MiB', () => {
  it.each([
    ['plain', 'journal'],
    ['plain', 'verifier'],
    ['base64', 'journal'],
    ['base64', 'verifier'],
    ['percent', 'journal'],
    ['percent', 'verifier'],
    ['u-escapes', 'journal'],
    ['u-escapes', 'verifier'],
    ['numbers', 'journal'],
    ['words', 'journal'],
  ])('a %s run, as the %s redacts it: the key hidden', async (shape, reader) => {
    const { stdout } = await run(
      process.execPath,
      [`--max-old-space-size=${HEAP_MIB}`, `--max-semi-space-size=16`, '--import', 'tsx', 'test/support/redaction-run.ts', shape, reader],
      { cwd: root, maxBuffer: 1024 * 1024 },
    );
    const redacted = JSON.parse(stdout) as { ms: number; peakRssBytes: number; rssBefore: number; bodyBytes: number; keyShown: boolean };
    expect(redacted.keyShown).toBe(false);
    console.info(
      `${shape} (${reader}): ${(redacted.ms / 1000).toFixed(2)} s, peak RSS ${(redacted.peakRssBytes / 1e6).toFixed(0)} MB (${(redacted.rssBefore / 1e6).toFixed(0)} MB before) for a body of ${(redacted.bodyBytes / 1e6).toFixed(1)} MB`,
    );
  });
});
