/**
 * A test that starts what the suites start (a redis-server, a mock cluster of two workers on it, a bare
 * mock, and with LEFTOVERS_ALL=1 Prism and Chromium) and never stops any of it, for
 * test/tooling/children.test.ts. It writes the process tree of its vitest worker to LEFTOVERS_FILE once
 * all of it runs, then fails (LEFTOVERS_END=fail) or waits for its run to be stopped.
 */
import { writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../../support/chromium.js';
import { startMockCli } from '../../support/cli.js';
import { startPrism } from '../../support/prism.js';
import { startRedis } from '../../support/redis.js';
import { processTree } from './process-tree.js';

it('starts a redis-server, a mock cluster, a mock, Prism and Chromium, and leaves them running', async () => {
  const redis = await startRedis();
  const all = process.env.LEFTOVERS_ALL === '1';
  await Promise.all([
    startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--workers', '2']),
    startMockCli(['--port', '0', '--quiet']),
    all ? startPrism('mock') : undefined,
    all && CHROMIUM !== undefined ? chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }) : undefined,
  ]);
  await writeFile(String(process.env.LEFTOVERS_FILE), JSON.stringify(processTree(process.pid)));
  if (process.env.LEFTOVERS_END === 'fail') expect('a test that failed').toBe('before it stopped what it started');
  else await new Promise(() => {});
});
