import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { SESSION_PETS_BYTES } from '../../src/mock/state/store.js';
import { runCli, startMockCli } from '../support/cli.js';
import { AUTH } from '../support/http-facts.js';
import { variantSpec } from '../support/variant-spec.js';

/** A state file as a user or another tool may hand it over: pets created after the default seed of 50. */
function stateWith(names: readonly string[]): string {
  const created = names.map((name, i) => ({ id: 51 + i, name, categoryId: 1, status: 'available' }));
  return JSON.stringify({ format: 'petstore-mock-state', version: 1, seed: 1, count: 50, created });
}

// A state file is a file of pets, as `--data` is: each pet within what a create accepts (1 MiB of JSON,
// counted in bytes, where `\u0001` is six), and all of them within what a session holds (red team 13 #1).
describe('a --state file is held to the rules of a file of pets and of a session', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'petstore-state-bounds-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('refuses a pet larger than a create accepts, in bytes of JSON, and leaves the file untouched', async () => {
    const path = join(folder, 'one-large-pet.json');
    const text = stateWith(['\u0001'.repeat(1_000_000)]);
    await writeFile(path, text);
    const result = await runCli('petstore-mock', ['--port', '0', '--state', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `petstore-mock: ${path} is not a usable petstore-mock state file: created[0] takes 6000043 bytes of JSON text, more than the 1048576 bytes a create accepts. It was left untouched: fix it, or move it away to start afresh.\n`,
    );
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('refuses pets that together pass what a session holds, each within a create', async () => {
    const path = join(folder, 'many-pets.json');
    // Each 1,020,043 bytes of JSON (under 1 MiB), counted by a session as 2 a character: nine pass 16 MiB.
    await writeFile(path, stateWith(Array.from({ length: 9 }, () => '\u0001'.repeat(170_000))));
    const result = await runCli('petstore-mock', ['--port', '0', '--state', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `is not a usable petstore-mock state file: its pets take \\d+ bytes as a session counts them, more than the ${SESSION_PETS_BYTES} a session holds \\(SESSION_PETS_BYTES`,
      ),
    );
  });

  it('keeps only the fields the spec names, as a file of pets is kept', async () => {
    const path = join(folder, 'extra-fields.json');
    const deep = JSON.parse(`${'['.repeat(120)}${']'.repeat(120)}`);
    const pet = { id: 51, name: 'Rex', categoryId: 1, status: 'available', note: 'x'.repeat(1000), deep };
    await writeFile(path, JSON.stringify({ format: 'petstore-mock-state', version: 1, seed: 1, count: 50, created: [pet] }));
    const mock = await startMockCli(['--port', '0', '--quiet', '--state', path, '--self-check']);
    try {
      const answer = await fetch(`${mock.url}/pets/51`, { headers: AUTH });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ id: 51, name: 'Rex', categoryId: 1, status: 'available' });
    } finally {
      await mock.stop();
    }
  });

  it('says in its start line what a state file restored: created pets, and seeded ones removed (red team 14 #10)', async () => {
    const spec = join(folder, 'variant.yaml');
    await writeFile(spec, stringify(variantSpec()));
    const variant = join(folder, 'removed-variant.json');
    await writeFile(variant, JSON.stringify({ format: 'petstore-mock-state', version: 2, seed: 1, count: 50, created: [], removed: [1, 2], creates: 0 }));
    const mock = await startMockCli(['--port', '0', '--quiet', '--spec', spec, '--state', variant]);
    try {
      // A count of the store's pets less the seed's said "-2 created".
      expect(mock.stdout()).toContain(`state in ${variant}: 0 created pet(s) restored, 2 seeded removed`);
    } finally {
      await mock.stop();
    }
  });

  it('holds the code API’s restore option to the same cap', () => {
    const pets = Array.from({ length: 9 }, (_, i) => ({ id: 51 + i, name: '\u0001'.repeat(170_000), categoryId: 1, status: 'available' as const }));
    expect(() => createMockApi({ restore: { created: pets, removed: [], creates: 9 } })).toThrow(
      new RegExp(`^restore holds \\d+ bytes of pets as a session counts them, more than the ${SESSION_PETS_BYTES} a session holds`),
    );
  });
});
