/**
 * A change of the interface is an edit of spec/openapi.yaml alone. A copy of the real spec is edited as
 * its owners would (an optional `tag` of at most 32 characters on NewPet; `limit` capped at 50, its
 * prose and example with it), what `npm run generate` makes is made again from the copy, and the mock
 * serves the copy (`petstore-mock --spec` and `createMockApi({ spec })`) with no other file edited:
 * the tag kept and refused past its length, drawn from its schema in the seed and the fixtures; the
 * new bound in the 400's message and in a profile's clamp.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedFiles, root } from '../../scripts/generated-files.js';
import { compileSpec, createMockApi, loadSpecFile } from '../../src/index.js';
import { compiledValidators } from '../../src/openapi/ajv.js';
import { BUNDLED_MODEL } from '../../src/openapi/bundled-model.js';
import { operationOfKind, type PageSize } from '../../src/openapi/resource-model.js';
import { startMockCli } from '../support/cli.js';
import { type VariantCall, variantCall } from '../support/variant-replace.js';

const TAG_MAX_LENGTH = 32;
const LIMIT_MAXIMUM = 50;
/** The real spec's page size, whose bound the copy changes: its text names it, so the edits find it there. */
const REAL = pageSizeOf();

function pageSizeOf(): PageSize {
  const pageSize = operationOfKind(BUNDLED_MODEL, 'list')?.pageSize;
  if (pageSize === undefined) throw new Error('the spec has no page size on its list');
  return pageSize;
}

let dir: string;
let real: string;

/** Writes `text` with each edit made once, exactly where it is meant, and returns the copy's path. */
async function editedCopy(name: string, edits: readonly (readonly [string, string])[]): Promise<string> {
  let text = real;
  for (const [from, to] of edits) {
    expect(text.split(from).length - 1, `the spec holds ${JSON.stringify(from)} once`).toBe(1);
    text = text.replace(from, to);
  }
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** The tag, as its owners would add it under NewPet's status: optional, at most 32 characters. */
const addTag = (): Promise<string> =>
  editedCopy('tag.yaml', [
    [
      '          x-server-default: available\n',
      `          x-server-default: available\n        tag:\n          type: string\n          maxLength: ${TAG_MAX_LENGTH}\n          description: A free label for the animal.\n`,
    ],
  ]);

/** `limit` capped at 50, with the prose and the example that name its bound. */
const capLimit = (): Promise<string> =>
  editedCopy('limit.yaml', [
    [`(\`limit\` from ${REAL.minimum} to ${REAL.maximum})`, `(\`limit\` from ${REAL.minimum} to ${LIMIT_MAXIMUM})`],
    [`(${REAL.minimum} to ${REAL.maximum}, default ${REAL.default})`, `(${REAL.minimum} to ${LIMIT_MAXIMUM}, default ${REAL.default})`],
    [`            maximum: ${REAL.maximum}\n`, `            maximum: ${LIMIT_MAXIMUM}\n`],
    [`"limit: must be <= ${REAL.maximum}"`, `"limit: must be <= ${LIMIT_MAXIMUM}"`],
  ]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-spec-copy-'));
  real = await readFile(new URL('spec/openapi.yaml', root), 'utf8');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A call to a mock over HTTP at `url`. */
const overHttp = (url: string): VariantCall => variantCall(() => url);

/** A call to a mock in this process. */
const inProcess = (mock: ReturnType<typeof createMockApi>): VariantCall =>
  variantCall(
    () => 'http://mock.test/v1',
    (request) => mock.fetch(request),
  );

interface TaggedPet {
  readonly id: number;
  readonly tag?: unknown;
}

/** The tag kept (201 echo, read back, listed), one too long refused naming the field, and every seeded pet tagged from the schema. */
async function expectTagServed(call: VariantCall): Promise<void> {
  const seeded = (await call('GET', '/pets?limit=20')).json as TaggedPet[];
  expect(seeded.length).toBe(20);
  for (const pet of seeded) expect(typeof pet.tag === 'string' && pet.tag.length <= TAG_MAX_LENGTH, JSON.stringify(pet)).toBe(true);
  const tag = '🐕'.repeat(TAG_MAX_LENGTH);
  const created = await call('POST', '/pets', { name: 'Rex', categoryId: 3, status: 'sold', tag });
  expect(created).toMatchObject({ status: 201, json: { name: 'Rex', categoryId: 3, status: 'sold', tag } });
  const { id } = created.json as TaggedPet;
  expect(await call('GET', `/pets/${id}`)).toEqual({ status: 200, json: created.json });
  expect(((await call('GET', `/pets?status=sold&limit=${REAL.maximum}`)).json as TaggedPet[]).filter((pet) => pet.id === id)).toEqual([created.json]);
  const tooLong = await call('POST', '/pets', { name: 'Rex', categoryId: 3, tag: 'x'.repeat(TAG_MAX_LENGTH + 1) });
  expect(tooLong).toEqual({
    status: 400,
    json: { code: 'bad_request', status: 400, message: `tag must be at most ${TAG_MAX_LENGTH} characters long.` },
  });
}

describe('a copy of spec/openapi.yaml with an optional tag, and nothing else edited', () => {
  it('regenerates: its types name the tag, and the fixtures draw it from its schema, each pet valid by the copy', async () => {
    const path = await addTag();
    const files = await generatedFiles(path);
    expect(files['src/generated/spec-types.ts']).toMatch(/\btag\?: string/);
    const validate = compiledValidators(await loadSpecFile(path));
    for (const [file, schema] of [
      ['fixtures/pets.json', 'Pet'],
      ['fixtures/new-pets.json', 'NewPet'],
    ] as const) {
      const pets = JSON.parse(files[file] ?? '[]') as TaggedPet[];
      expect(pets.length, file).toBeGreaterThan(0);
      for (const pet of pets) expect([validate(schema)?.(pet), typeof pet.tag], `${file}: ${JSON.stringify(pet)}`).toEqual([true, 'string']);
    }
  });

  it('is served by createMockApi({ spec }): the tag kept, seeded, and refused past its length', async () => {
    await expectTagServed(inProcess(createMockApi({ spec: compileSpec(await loadSpecFile(await addTag())), selfCheck: true })));
  });

  it('is served by petstore-mock --spec: the tag kept, seeded, and refused past its length', async () => {
    const mock = await startMockCli(['--port', '0', '--spec', await addTag(), '--self-check', '--quiet']);
    try {
      await expectTagServed(overHttp(mock.url));
      expect(mock.stderr()).not.toContain('self-check');
    } finally {
      await mock.stop();
    }
  });
});

describe('a copy of spec/openapi.yaml with limit capped at 50, and nothing else edited', () => {
  const over = `/pets?limit=${LIMIT_MAXIMUM + 1}`;
  const message = `limit must be an integer from 1 to ${LIMIT_MAXIMUM}.`;

  it('is served by petstore-mock --spec: the 400 names the new bound, and a full page is 50', async () => {
    const mock = await startMockCli(['--port', '0', '--spec', await capLimit(), '--count', '80', '--self-check', '--quiet']);
    try {
      const call = overHttp(mock.url);
      expect(await call('GET', over)).toEqual({ status: 400, json: { code: 'bad_request', status: 400, message } });
      expect(((await call('GET', `/pets?limit=${LIMIT_MAXIMUM}`)).json as unknown[]).length).toBe(LIMIT_MAXIMUM);
    } finally {
      await mock.stop();
    }
  });

  it('is served by createMockApi({ spec }): the 400 names the new bound, and a profile that clamps clamps to it', async () => {
    const spec = compileSpec(await loadSpecFile(await capLimit()));
    expect(await inProcess(createMockApi({ spec, count: 80 }))('GET', over)).toEqual({ status: 400, json: { code: 'bad_request', status: 400, message } });
    const clamping = createMockApi({ spec, count: 80, profile: { version: 1, limitOutOfRange: 'clamp' } });
    expect(((await inProcess(clamping)('GET', `/pets?limit=${LIMIT_MAXIMUM + 1}`)).json as unknown[]).length).toBe(LIMIT_MAXIMUM);
  });
});
