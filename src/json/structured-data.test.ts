import { describe, expect, it } from 'vitest';
import { parseStructured, readsAsJson } from './structured-data.js';

describe('readsAsJson: one rule for every YAML-or-JSON file', () => {
  it('goes by the name first, then by the first character past white space', () => {
    expect(readsAsJson('openapi: 3.1.0', 'spec.JSON')).toBe(true);
    expect(readsAsJson('{"openapi": "3.1.0"}', 'spec.yml')).toBe(false);
    expect(readsAsJson(' \n\t{"openapi": "3.1.0"}', 'spec')).toBe(true);
    expect(readsAsJson('[{"id": 1}]', 'pets.txt')).toBe(true);
    expect(readsAsJson('- id: 1', 'pets')).toBe(false);
  });
});

describe('parseStructured', () => {
  it('reads JSON past the YAML node cap (100,000), and names JSON in its errors', async () => {
    const wide = JSON.stringify(Array.from({ length: 150_000 }, (_, index) => index));
    const read = parseStructured(wide, 'wide.json');
    expect(read.language).toBe('JSON');
    expect(((await read.value) as number[]).length).toBe(150_000);
    await expect(parseStructured('{"a": ', 'spec.json').value).rejects.toThrow(SyntaxError);
    await expect(parseStructured(`${'['.repeat(200)}${']'.repeat(200)}`, 'deep').value).rejects.toThrow(/nest deeper than 128 levels/);
  });

  it('reads integers past 2^53 exactly when asked, as numbers otherwise', async () => {
    expect(await parseStructured('[9007199254740993]', 'pets.json', { exactIntegers: true }).value).toEqual([9007199254740993n]);
    expect(await parseStructured('[9007199254740993]', 'spec.json').value).toEqual([9007199254740992]);
  });
});
