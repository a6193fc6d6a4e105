/**
 * The code API holds values to the depth rule of the files the CLI reads (red team 6, #8): `data` in
 * `createMockApi`, `startMockServer` and `createHandlers`, and the document of `compileSpec`, once
 * ended in "Maximum call stack size exceeded" (a pet holding itself, 100,000 levels) and took 200
 * levels that `--data` refuses. Each through the package's entry points, as a user calls them.
 */
import { describe, expect, it } from 'vitest';
import { compileSpec, createMockApi, loadSpecFile, startMockServer } from '../../src/index.js';
import { createHandlers } from '../../src/mock/hosts/msw.js';

/** A pet with a field `levels` objects deep. */
function deepPet(levels: number): Record<string, unknown> {
  let value: unknown = 'end';
  for (let level = 0; level < levels; level++) value = { a: value };
  return { id: 1, name: 'Rex', categoryId: 1, deep: value };
}

const TOO_DEEP = 'data: its arrays and objects nest deeper than 128 levels; give pets as JSON would hold them';

describe('pets given as values (data)', () => {
  it.each([[200], [100_000]])('%i levels deep: a TypeError with the rule, in every entry that takes data', async (levels) => {
    const data = [deepPet(levels)] as never;
    expect(() => createMockApi({ data })).toThrow(TOO_DEEP);
    expect(() => createHandlers({ data })).toThrow(TOO_DEEP);
    await expect(startMockServer({ port: 0, data })).rejects.toThrow(TOO_DEEP);
  });

  it('a pet that holds itself: a TypeError saying so, not a stack overflow', () => {
    const pet: Record<string, unknown> = { id: 1, name: 'Rex', categoryId: 1 };
    pet.tags = [pet];
    expect(() => createMockApi({ data: [pet] as never })).toThrow('data: it holds itself (an object or array inside itself), which would make it endless');
  });
});

describe('a spec given as a value (compileSpec)', () => {
  it('refuses a schema inside itself, and one 200 or 20,000 levels deep, with a SpecError; compiles the bundled one', async () => {
    const spec = await loadSpecFile('spec/openapi.yaml');
    expect(compileSpec(structuredClone(spec)).model.basePath).toBe('/v1');
    const looped = structuredClone(spec) as unknown as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    const newPet = looped.components.schemas.NewPet as { properties: Record<string, unknown> };
    newPet.properties.self = newPet;
    expect(() => compileSpec(looped as never)).toThrow('it holds itself');
    for (const levels of [200, 20_000]) {
      const deep = structuredClone(spec) as unknown as typeof looped;
      let schema: unknown = { type: 'string' };
      for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { a: schema } };
      (deep.components.schemas.NewPet as { properties: Record<string, unknown> }).properties.deep = schema;
      expect(() => compileSpec(deep as never)).toThrow('its arrays and objects nest deeper than 128 levels');
    }
  });
});

describe('a spec with a large enum (red team 10 #11)', () => {
  it('answers a value outside it with a 400 naming the first 20 values and how many more, never the whole enum', async () => {
    const spec = structuredClone(await loadSpecFile('spec/openapi.yaml')) as unknown as { components: { schemas: { PetStatus: { enum: string[] } } } };
    const values = [...spec.components.schemas.PetStatus.enum, ...Array.from({ length: 5_000 }, (_, index) => `v${index}`)];
    spec.components.schemas.PetStatus.enum = values;
    const mock = createMockApi({ spec: compileSpec(spec as never) });
    const headers: Record<string, string> = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' };
    const ask = (method: string, target: string, body = '') => mock.respond({ method, target, header: (name) => headers[name], text: async () => body });
    const listed = `must be one of ${values.slice(0, 20).join(', ')} and ${values.length - 20} more`;
    for (const answer of [await ask('GET', '/v1/pets?status=zzz'), await ask('POST', '/v1/pets', '{"name":"Rex","categoryId":1,"status":"zzz"}')]) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).message).toContain(`status ${listed}`);
    }
  });
});

describe('a step after the answer that throws (red team 11 #1)', () => {
  it("is the spec's 500 Error, never a throw out of respond(): the hosts call it as one that never throws", async () => {
    const mock = createMockApi();
    // A request the journal cannot read (no header function): the journal's step throws, as the redactor's once did on an 8 MB name.
    const broken = { method: 'GET', target: '/v1/pets', header: undefined, text: async () => '' } as unknown as Parameters<typeof mock.respond>[0];
    const answer = await mock.respond(broken);
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'internal_error', status: 500 });
  });
});

describe('a spec given as a value past the size of a spec file (red team 11 #4)', () => {
  it('is a SpecError at once, as --spec refuses a file past 16 MiB: an enum of 3,000,000 values, a description of 20 MB', async () => {
    const spec = await loadSpecFile('spec/openapi.yaml');
    const wide = structuredClone(spec) as unknown as { components: { schemas: { PetStatus: { enum: string[] } } } };
    wide.components.schemas.PetStatus.enum = Array.from({ length: 3_000_000 }, (_, index) => `v${index}`);
    const long = structuredClone(spec) as unknown as { info: { description: string } };
    long.info.description = 'x'.repeat(20 * 1024 * 1024);
    for (const doc of [wide, long])
      expect(() => compileSpec(doc as never)).toThrow(
        `the spec given to compileSpec is more than ${16 * 1024 * 1024} bytes as JSON, the most a --spec file holds`,
      );
  });
});

describe('a spec too wide for a validator to be compiled (red team 12 #4)', () => {
  it("is a SpecError with a sentence, not V8's RangeError: a oneOf of 3,000 consts", async () => {
    const spec = structuredClone(await loadSpecFile('spec/openapi.yaml')) as unknown as { components: { schemas: Record<string, unknown> } };
    spec.components.schemas.PetStatus = { type: 'string', oneOf: Array.from({ length: 3_000 }, (_, index) => ({ const: `v${index}` })) };
    // Refused before a validator is compiled: more schemas at one place than the 1,000 a value is checked against (schema-cost.ts).
    expect(() => compileSpec(spec as never)).toThrow(
      /^a value of \w+ may be checked against \d+ schemas.*: at its place and at one place inside it, .* \(a list of values is an enum\)$/,
    );
  });
});
