/**
 * docs/mock.md's table of flag defaults and docs/mock-admin.md's of admin endpoints, checked against
 * the one place each is written: the CLI's options (which read MOCK_DEFAULTS) and ADMIN_ENDPOINTS.
 */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { ADMIN_ENDPOINTS } from '../../src/mock/admin/endpoints.js';
import { MOCK_DEFAULTS } from '../../src/mock/core/defaults.js';
import { mockCommand } from '../../src/mock/hosts/mock-cli.js';

const read = (page: string) => readFile(new URL(`../../${page}`, import.meta.url), 'utf8');
const pages = { 'docs/mock.md': await read('docs/mock.md'), 'docs/mock-admin.md': await read('docs/mock-admin.md') };

/** The rows of the first table after `heading` in `page`, as cells. */
function table(page: keyof typeof pages, heading: string): string[][] {
  const doc = `\n${pages[page]}`; // a heading on the first line follows a line break too
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start, `${page} has a section "${heading}"`).toBeGreaterThan(-1);
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
  const unquoted = (cell: string) => cell.replace(/^`|`$/g, '');
  const documented = new Map(
    table('docs/mock.md', '## `petstore-mock` flags').map(([flag = '', argument = '', value = '']) => [
      `${unquoted(flag)} ${unquoted(argument)}`.trim(),
      value,
    ]),
  );
  const options = mockCommand().options.filter((option) => option.defaultValue !== undefined && typeof option.defaultValue !== 'boolean');
  expect(options.length).toBeGreaterThan(5);
  for (const option of options) {
    expect(documented.get(option.flags), `docs/mock.md's default of ${option.flags}`).toBe(`\`${String(option.defaultValue)}\``);
  }
  expect(documented.get('-k, --api-key <key>')).toBe(`\`${MOCK_DEFAULTS.apiKey}\``);
});

it('lists every admin endpoint of ADMIN_ENDPOINTS, and no other', () => {
  const documented = table('docs/mock-admin.md', '# Admin endpoints').flatMap(([endpoints = '']) =>
    [...endpoints.matchAll(/`([A-Z]+ \/__mock\/[^`]*)`/g)].map((match) => match[1]),
  );
  const endpoints = ADMIN_ENDPOINTS.map(({ method, path }) => `${method} ${path.replace('{name}', '<name>')}`);
  expect([...documented].sort()).toEqual([...endpoints].sort());
});
