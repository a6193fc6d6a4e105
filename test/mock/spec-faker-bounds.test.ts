/**
 * What a spec's `x-faker` may ask of the mock, bounded before anything is drawn: an argument that counts
 * more characters, words or items than a create accepts is refused where the spec is read, by both
 * commands (exit 2, a sentence naming the hint's place, the argument and the limit); a count only the
 * draw tells (a `{ min, max }` count, counts inside counts) is refused as faker asks for it. Each command
 * runs with a heap of 128 MB: the red team's `length: 1e9` exhausted 1.5 GB before any sentence.
 * Needs `dist/`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli, startMockCli } from '../support/cli.js';
import { nodeAt, variantSpec } from '../support/variant-spec.js';

/** A heap well under what one drawn name of 10^8 characters takes: the command must refuse without drawing. */
const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=128' };

const VERIFY = ['-u', 'http://127.0.0.1:1/v1', '-k', 'some-key-0123456789', '--suite', 'spec', '--spec'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-faker-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The variant with NewPet's `field` drawn by `hint`, written to a file. */
async function withHint(name: string, hints: Record<string, unknown>): Promise<string> {
  const doc = variantSpec();
  const properties = nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties');
  for (const [field, hint] of Object.entries(hints)) properties[field] = { ...nodeAt(properties, field), 'x-faker': hint };
  const file = join(dir, name);
  await writeFile(file, stringify(doc));
  return file;
}

describe('x-faker arguments, bounded before the draw', () => {
  it('refuses a length or a count written in the arguments, by both commands, at load: the place, the argument, the limit (exit 2)', async () => {
    for (const [name, hint, asked] of [
      ['alpha-1e9.yaml', { 'string.alpha': { length: 1_000_000_000 } }, /1000000000 characters, words or items \(string\.alpha\(0\)\.length 1000000000\)/],
      ['regexp-1e8.yaml', { 'helpers.fromRegExp': 'a{100000000}' }, /100000000 characters, words or items \(helpers\.fromRegExp\(0\) 100000000\)/],
      ['sample-bare.yaml', { 'string.sample': 2_000_000 }, /2000000 characters, words or items \(string\.sample\(0\) 2000000\)/],
    ] as const) {
      const file = await withHint(name, { name: hint });
      for (const [cli, flags] of [
        ['petstore-mock', ['--port', '0', '--count', '3', '--spec']],
        ['petstore-verify', VERIFY],
      ] as const) {
        const refused = await runCli(cli, [...flags, file], SMALL_HEAP);
        expect([refused.code, refused.stderr], `${cli} ${name}`).toEqual([
          2,
          expect.stringContaining('#/components/schemas/NewPet/properties/name/x-faker asks faker for'),
        ]);
        expect(refused.stderr, `${cli} ${name}`).toMatch(asked);
        expect(refused.stderr, `${cli} ${name}`).toMatch(/more than the 1048576 bytes createPet accepts \(x-max-body-bytes\)/);
      }
    }
  });

  it('refuses a count only the draw tells (a { min, max } count, counts of two fields in one record) as faker asks for it, before making it (exit 2)', async () => {
    const range = { min: 600_000, max: 600_000 };
    for (const [name, hints, field] of [
      ['sample-range.yaml', { name: { 'string.sample': [{ min: 2_000_000, max: 2_000_000 }] } }, 'name'],
      ['two-fields.yaml', { name: { 'string.sample': [range] }, tag: { 'string.fromCharacters': ['ab', range] } }, 'tag'],
    ] as const) {
      const refused = await runCli('petstore-mock', ['--port', '0', '--count', '3', '--spec', await withHint(name, hints)], SMALL_HEAP);
      expect([refused.code, refused.stderr], name).toEqual([
        2,
        expect.stringMatching(
          new RegExp(
            `a seeded record's ${field} \\(x-faker .*\\) asked faker for \\d+ characters, words or items, more than the 1048576 bytes a create accepts`,
          ),
        ),
      ]);
    }
  });

  it('refuses a faker method that cannot draw (its locale data missing, its arguments wrong) as a spec error naming the field (exit 2)', async () => {
    for (const [name, hint] of [
      ['lorem.yaml', { 'lorem.words': 3 }],
      ['reversed.yaml', { 'string.alpha': { length: { min: 9, max: 1 } } }],
    ] as const) {
      const refused = await runCli('petstore-mock', ['--port', '0', '--count', '3', '--spec', await withHint(name, { name: hint })]);
      expect([refused.code, refused.stderr], name).toEqual([
        2,
        expect.stringMatching(/the x-faker of name \(.*\) cannot draw a value: .*; name a faker method and arguments it takes/),
      ]);
    }
  });

  it('serves a spec whose x-faker counts little and names its values as options (a max of 5,000,000 is a value, not a count)', async () => {
    const file = await withHint('fits.yaml', { name: { 'string.alpha': 8 }, categoryId: { 'number.int': { min: 1, max: 5_000_000 } } });
    const mock = await startMockCli(['--port', '0', '--count', '3', '--quiet', '--spec', file], SMALL_HEAP);
    try {
      const answer = await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toHaveLength(3);
    } finally {
      await mock.stop();
    }
  });
});
