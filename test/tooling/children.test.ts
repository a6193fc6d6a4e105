/**
 * Every process a test starts is stopped when its run ends, however it ends: a vitest run of
 * test/tooling/children/leftovers.fixture.ts (a redis-server, a mock cluster of two workers on it, a bare
 * mock, none of them stopped by the test; Prism, Chromium and petstore-verify with its Pact worker too in
 * the run killed with SIGKILL) is stopped or killed, or its test fails, and then no process of its
 * worker's tree may run. And every test starts its processes through
 * test/support/children.ts, which makes that so.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from '../support/children.js';
import { type ProcessId, running } from './children/process-tree.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** How long the processes may take to go once the run has: they go at once; this bounds a hang, not a speed. */
const GONE_WITHIN_MS = 30_000;

async function gone(tree: readonly ProcessId[]): Promise<ProcessId[]> {
  const until = performance.now() + GONE_WITHIN_MS;
  let left = tree.filter(running);
  while (left.length > 0 && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = left.filter(running);
  }
  return left;
}

describe.runIf(process.platform === 'linux')('a test run that ends while its processes run', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-children-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(['SIGINT', 'SIGTERM', 'SIGKILL', 'a failed test'] as const)('leaves none of them running when it ends by %s', async (end) => {
    const file = join(dir, `${end}.json`);
    const vitest = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/tooling/children/vitest.config.ts'], {
      cwd: root,
      env: { ...process.env, LEFTOVERS_FILE: file, LEFTOVERS_END: end === 'a failed test' ? 'fail' : 'wait', LEFTOVERS_ALL: end === 'SIGKILL' ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    vitest.stdout?.on('data', (chunk) => (output += chunk));
    vitest.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => vitest.once('exit', resolve));
    // The fixture writes its tree once everything runs; until then the run is only starting.
    while (!existsSync(file) && vitest.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(file), output).toBe(true);
    const tree = JSON.parse(await readFile(file, 'utf8')) as ProcessId[];
    // The worker, redis-server, the cluster's primary and two workers, the bare mock (and Prism, Chromium's
    // processes, petstore-verify and its Pact worker).
    expect(tree.length, JSON.stringify(tree)).toBeGreaterThanOrEqual(end === 'SIGKILL' ? 10 : 6);
    if (end !== 'a failed test') vitest.kill(end);
    await exited;
    expect(
      (await gone(tree)).map((left) => `${left.pid} ${left.command}`),
      output,
    ).toEqual([]);
  });
});

describe('every process a test starts', () => {
  async function sources(dir: string): Promise<string[]> {
    const entries = await readdir(join(root, dir), { withFileTypes: true, recursive: true });
    return entries
      .filter((entry) => entry.isFile() && /\.(ts|mts|mjs|js)$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name).slice(root.length))
      .filter((path) => !path.includes('node_modules/'));
  }

  it('is started through test/support/children.ts, so that it dies with the test process', async () => {
    const asynchronous = /import\s*\{[^}]*\b(spawn|execFile|exec|fork)\b[^}]*\}\s*from\s*'node:child_process'/;
    const files = [...(await sources('test')), ...(await sources('bench')), ...(await sources('examples'))];
    const direct = [];
    for (const file of files) if (file !== 'test/support/children.ts' && asynchronous.test(await readFile(join(root, file), 'utf8'))) direct.push(file);
    // bench/servers.ts forks the bare baseline, which leaves when the channel to its parent closes;
    // installed-mock.mjs runs in a project of its own, where test/support is not, and asks setpriv itself.
    expect(direct.sort()).toEqual(['bench/servers.ts', 'test/package/downstream/installed-mock.mjs']);
  });
});
