/**
 * docs/mock.md's tables of flag defaults and admin endpoints, checked against the one place each is
 * written: the CLI's options (which read MOCK_DEFAULTS) and ADMIN_ENDPOINTS.
 */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { ADMIN_ENDPOINTS } from '../../src/mock/admin/endpoints.js';
import { MOCK_DEFAULTS } from '../../src/mock/core/defaults.js';
import { mockCommand } from '../../src/mock/hosts/cli.js';

const doc = await readFile(new URL('../../docs/mock.md', import.meta.url), 'utf8');

/** The rows of the first table after `heading`, as cells. */
function table(heading: string): string[][] {
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start, `docs/mock.md has a section "${heading}"`).toBeGreaterThan(-1);
  const lines = doc.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

it("lists each flag's default as the CLI has it from MOCK_DEFAULTS", () => {
  const documented = new Map(table('## `petstore-mock` flags').map(([flag = '', value = '']) => [flag.replace(/^`|`$/g, ''), value]));
  const options = mockCommand().options.filter((option) => option.defaultValue !== undefined && typeof option.defaultValue !== 'boolean');
  expect(options.length).toBeGreaterThan(5);
  for (const option of options) {
    expect(documented.get(option.flags), `docs/mock.md's default of ${option.flags}`).toBe(`\`${String(option.defaultValue)}\``);
  }
  expect(documented.get('-k, --api-key <key>')).toBe(`\`${MOCK_DEFAULTS.apiKey}\``);
});

it('lists every admin endpoint of ADMIN_ENDPOINTS, and no other', () => {
  const documented = table('### Admin endpoints').flatMap(([endpoints = '']) =>
    [...endpoints.matchAll(/`([A-Z]+ \/__mock\/[^`]*)`/g)].map((match) => match[1]),
  );
  const endpoints = ADMIN_ENDPOINTS.map(({ method, path }) => `${method} ${path.replace('{name}', '<name>')}`);
  expect([...documented].sort()).toEqual([...endpoints].sort());
});
