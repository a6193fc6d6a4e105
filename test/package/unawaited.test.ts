/**
 * An expectation of `petstore-mock/testing` that a test forgets to `await` still fails it: the check starts
 * when `toInclude()` is called, and its rejection goes unhandled. Shown with a real vitest run of small test
 * files in a new folder that imports the package by name, as a project does (dist/, which `npm test` builds,
 * through node_modules links); test/package/jest.test.ts shows the same with Jest.
 */

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from '../support/children.js';
import { root } from './projects.js';

/** Tests that forget to await an expectation the mock does not meet: the second runs after the first has returned. */
const FORGOTTEN = `import { createMockApi } from 'petstore-mock';
import { expectRequests } from 'petstore-mock/testing';
import { it } from 'vitest';

it('forgets to await an expectation the mock does not meet', () => {
  expectRequests(createMockApi()).toInclude({ method: 'POST', path: '/v1/pets' });
});

it('forgets to await an exact count the mock does not meet', () => {
  expectRequests(createMockApi()).toInclude({ method: 'GET' }).times(1);
});
`;

/** Expectations that hold, awaited or not: `.times(0)` replaces the check for at least one, which must not fail meanwhile. */
const KEPT = `import { createMockApi } from 'petstore-mock';
import { expectRequests } from 'petstore-mock/testing';
import { expect, it } from 'vitest';

const headers = { authorization: 'Bearer petstore-dev-key' };

it('passes with expectations that hold', async () => {
  const mock = createMockApi();
  await expectRequests(mock).toInclude({ method: 'POST' }).times(0);
  expectRequests(mock).toInclude({ method: 'POST' }).times(0);
  await mock.fetch(new Request('http://mock.test/v1/pets', { headers }));
  expectRequests(mock).toInclude({ path: '/v1/pets' });
  expect(await expectRequests(mock).toInclude({ path: '/v1/pets' })).toHaveLength(1);
});
`;

interface Ran {
  readonly code: number | null;
  readonly output: string;
}

function vitest(dir: string, file: string): Promise<Ran> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, file],
      { cwd: dir, env: { ...env, NO_COLOR: '1', CI: 'true' }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    );
  });
}

describe('an expectation left without await, in a vitest run', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-unawaited-'));
    await mkdir(join(dir, 'node_modules'));
    await symlink(root, join(dir, 'node_modules/petstore-mock'), 'dir');
    await symlink(join(root, 'node_modules/vitest'), join(dir, 'node_modules/vitest'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'unawaited', private: true, type: 'module' }));
    await writeFile(join(dir, 'forgotten.test.js'), FORGOTTEN);
    await writeFile(join(dir, 'kept.test.js'), KEPT);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('fails the run, naming what the mock did not receive', async () => {
    const ran = await vitest(dir, 'forgotten.test.js');
    expect(ran.code, ran.output).toBe(1);
    expect(ran.output).toMatch(/Unhandled Rejection/i);
    expect(ran.output).toContain('expected the mock to have received at least 1 request like POST /v1/pets, but it received 0');
    expect(ran.output).toContain('expected the mock to have received exactly 1 request like GET any path, but it received 0');
  });

  it('passes when the expectations hold, awaited or not, and `.times(0)` raises nothing of the check it replaces', async () => {
    const ran = await vitest(dir, 'kept.test.js');
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toMatch(/1 passed/);
  });
});
