/**
 * What a spec's patterns may cost together, bounded where the spec is read: a string is run through every
 * pattern at its place (its own, each `anyOf`, `allOf`, `oneOf`, `$ref`), so those patterns' states, summed,
 * are held to 1,024, one pattern's most, and the spec's patterns to 8,192 in all. Refused by both commands
 * (exit 2, a sentence); a spec within the bound is served. Needs `dist/`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli, startMockCli } from '../support/cli.js';
import { nodeAt, variantSpec } from '../support/variant-spec.js';

const VERIFY = ['-u', 'http://127.0.0.1:1/v1', '-k', 'some-key-0123456789', '--suite', 'spec', '--spec'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-patterns-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The variant with NewPet.name's schema given `extra` keywords, and `schemas` added to its components. */
async function variant(file: string, extra: Record<string, unknown>, schemas: Record<string, unknown> = {}): Promise<string> {
  const doc = variantSpec();
  const properties = nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties');
  properties.name = { ...nodeAt(properties, 'name'), ...extra };
  Object.assign(nodeAt(doc, 'components', 'schemas'), schemas);
  const path = join(dir, file);
  await writeFile(path, stringify(doc));
  return path;
}

/** `count` patterns of about `states` states each, all different. */
const patterns = (count: number, states: number) => Array.from({ length: count }, (_, index) => ({ pattern: `[ab]{${states + index}}c` }));

describe("the states of a spec's patterns, summed", () => {
  it('refuses a string run through patterns of more than 1,024 states in all, and a spec of more than 8,192: both commands (exit 2)', async () => {
    // The red team's spec: an anyOf of 400 such patterns held the mock 16.5 s on one 1 MB name.
    const many = await variant('anyof-400.yaml', { anyOf: patterns(400, 600) });
    const two = await variant('anyof-2.yaml', { anyOf: patterns(2, 600) });
    // 20 fields of a schema, each a place of its own under 1,024, and 18,000 states in the spec.
    const fields = Object.fromEntries(patterns(20, 900).map((schema, index) => [`f${index}`, { type: 'string', ...schema }]));
    const wide = await variant('wide.yaml', {}, { Notes: { type: 'object', properties: fields } });
    for (const [cli, flags] of [
      ['petstore-mock', ['--port', '0', '--spec']],
      ['petstore-verify', VERIFY],
    ] as const) {
      for (const [file, states] of [
        [many, 320_000],
        [two, 1_204],
      ] as const) {
        const refused = await runCli(cli, [...flags, file]);
        expect([refused.code, refused.stderr], `${cli} ${file}`).toEqual([
          2,
          expect.stringMatching(
            /a string of \w+ may be run through patterns of (\d+) states in all( \(as may one of .*\))?: its own, and those of each allOf, anyOf, oneOf and \$ref at its place, more than 1024/,
          ),
        ]);
        const counted = Number(/patterns of (\d+) states/.exec(refused.stderr)?.[1]);
        expect(counted, `${cli} ${file}`).toBeGreaterThanOrEqual(states);
      }
      const refused = await runCli(cli, [...flags, wide]);
      expect([refused.code, refused.stderr], `${cli} wide`).toEqual([
        2,
        expect.stringMatching(/the spec's 2\d patterns have \d+ states in all, more than 8192/),
      ]);
    }
  });

  it('serves a spec whose strings meet patterns of 1,024 states or fewer, each checked', async () => {
    const file = await variant('anyof-fits.yaml', { anyOf: patterns(2, 400) });
    const mock = await startMockCli(['--port', '0', '--quiet', '--spec', file]);
    try {
      const post = (name: string) =>
        fetch(`${mock.url}/pets`, {
          method: 'POST',
          headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
      expect((await post(`${'a'.repeat(401)}c`)).status).toBe(201);
      expect((await post('a'.repeat(100_000))).status).toBe(400);
    } finally {
      await mock.stop();
    }
  });
});
