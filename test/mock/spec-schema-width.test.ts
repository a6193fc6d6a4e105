/**
 * The schemas a value is checked against, bounded where the spec is read: an `anyOf` of ten `$ref`s to an
 * `anyOf` of ten, six deep (24 KB of spec), made one create a million checks and held the mock for seconds
 * to minutes, past SIGTERM, and the verifier past its deadline (red team 13 #6); an `anyOf` of 20,000
 * `const`s took 30 s to load (#4). Both commands refuse them (exit 2, a sentence); a spec within the bound
 * is served. Needs `dist/`.
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
  dir = await mkdtemp(join(tmpdir(), 'petstore-width-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The variant with NewPet.name's schema replaced by `name`, and `schemas` added to its components. */
async function variant(file: string, name: unknown, schemas: Record<string, unknown> = {}): Promise<string> {
  const doc = variantSpec();
  nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties').name = name;
  Object.assign(nodeAt(doc, 'components', 'schemas'), schemas);
  const path = join(dir, file);
  await writeFile(path, stringify(doc));
  return path;
}

/** Levels `L0`…`L{levels}`, each an anyOf of ten $refs to the next, the last a string of at most 20 characters. */
function laugh(levels: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = { [`L${levels}`]: { type: 'string', maxLength: 20 } };
  for (let level = 0; level < levels; level++)
    schemas[`L${level}`] = { anyOf: Array.from({ length: 10 }, () => ({ $ref: `#/components/schemas/L${level + 1}` })) };
  return schemas;
}

describe('the schemas a value is checked against', () => {
  it('refuses a $ref fan-out and a wide anyOf at load: both commands, exit 2, a sentence', async () => {
    const fanned = await variant('laugh-6.yaml', { $ref: '#/components/schemas/L0' }, laugh(6));
    const wide = await variant('wide.yaml', { anyOf: Array.from({ length: 20_000 }, (_, index) => ({ const: `n${index}` })) });
    for (const [cli, flags] of [
      ['petstore-mock', ['--port', '0', '--spec']],
      ['petstore-verify', VERIFY],
    ] as const) {
      for (const file of [fanned, wide]) {
        const refused = await runCli(cli, [...flags, file]);
        expect([refused.code, refused.stderr], `${cli} ${file}`).toEqual([
          2,
          expect.stringMatching(
            /a value of \w+ may be checked against \d+ schemas.*: at its place and at one place inside it, each allOf, anyOf, oneOf and \$ref counted each time it is reached, more than 1000; /,
          ),
        ]);
      }
    }
  });

  it("refuses a list's items checked against many schemas, whose items a body holds millions of: both commands (red team 14 #1)", async () => {
    // Within the 1,000 a place: a 30 KB create of such tags held the mock 47 s at 5.3 GB.
    const doc = variantSpec();
    nodeAt(doc, 'components', 'schemas', 'NewPet', 'properties').tags = {
      type: 'array',
      items: { anyOf: Array.from({ length: 990 }, (_, index) => ({ const: index })) },
    };
    const path = join(dir, 'items-990.yaml');
    await writeFile(path, stringify(doc));
    for (const [cli, flags] of [
      ['petstore-mock', ['--port', '0', '--spec']],
      ['petstore-verify', VERIFY],
    ] as const) {
      const refused = await runCli(cli, [...flags, path]);
      expect([refused.code, refused.stderr], cli).toEqual([
        2,
        expect.stringMatching(/the items or members of a value of \w+ may ask for \d+ checks in one body.*give the list a maxItems/),
      ]);
    }
  });

  it('serves a fan-out within the bound, a name checked through every branch', async () => {
    const path = await variant('laugh-1.yaml', { $ref: '#/components/schemas/L0', 'x-faker': { 'string.alpha': { length: 8 } } }, laugh(1));
    const mock = await startMockCli(['--port', '0', '--quiet', '--spec', path, '--api-key', 'width-key-0123']);
    try {
      const create = (name: string) =>
        fetch(`${mock.url}/pets`, {
          method: 'POST',
          headers: { authorization: 'Bearer width-key-0123', 'content-type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
      expect((await create('Rex')).status).toBe(201);
      expect((await create('z'.repeat(30))).status).toBe(400);
    } finally {
      await mock.stop();
    }
  });
});
