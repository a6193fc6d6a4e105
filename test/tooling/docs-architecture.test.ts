/** docs/architecture.md lists the defaults and the admin endpoints from the one place each is written. */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { ADMIN_ENDPOINTS } from '../../src/mock/admin/endpoints.js';
import { MOCK_DEFAULTS } from '../../src/mock/core/defaults.js';

const doc = await readFile(new URL('../../docs/architecture.md', import.meta.url), 'utf8');

it('lists every default of MOCK_DEFAULTS with its value', () => {
  const rows = Object.entries(MOCK_DEFAULTS).map(([name, value]) => `| ${name} | \`${String(value)}\` |`);
  expect(doc).toContain(['| Option | Default |', '|---|---|', ...rows].join('\n'));
});

it('lists every admin endpoint of ADMIN_ENDPOINTS, with whether it changes saved state', () => {
  const rows = ADMIN_ENDPOINTS.map(
    ({ method, path, summary, changesSavedState }) => `| \`${method} ${path}\` | ${summary} | ${changesSavedState ? 'yes' : 'no'} |`,
  );
  expect(doc).toContain(['| Endpoint | What it does | Changes saved state |', '|---|---|---|', ...rows].join('\n'));
});
