/**
 * A test that starts what the suites start (a redis-server, a mock cluster of two workers on it, a bare
 * mock, and with LEFTOVERS_ALL=1 Prism, Chromium, and petstore-verify with its Pact worker) and never
 * stops any of it, for test/tooling/children.test.ts. It writes the process tree of its vitest worker
 * to LEFTOVERS_FILE once all of it runs, then fails (LEFTOVERS_END=fail) or waits for its run to be stopped.
 */
import { rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { spawn } from '../../support/children.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../../support/chromium.js';
import { startMockCli } from '../../support/cli.js';
import { FULL_PAGE } from '../../support/page-size.js';
import { startPrism } from '../../support/prism.js';
import { startRedis } from '../../support/redis.js';
import { processTree } from './process-tree.js';

/** petstore-verify's Pact suite against a deployment that answers its first listing and nothing after: its worker waits. */
async function verifierInPactSuite(): Promise<void> {
  const deployment = createServer((request, response) => {
    if (request.url === `/v1/pets?${FULL_PAGE}`) response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => deployment.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(deployment.address() as AddressInfo).port}/v1`;
  const verifier = spawn(process.execPath, ['bin/petstore-verify.js', '--base-url', url, '--suite', 'pact', '--timeout', '600000'], {
    cwd: new URL('../../../', import.meta.url),
    env: { ...process.env, PETSTORE_API_KEY: 'petstore-dev-key', PACT_DO_NOT_TRACK: 'true' },
    stdio: 'ignore',
  });
  while (processTree(verifier.pid as number).length < 2) await setTimeout(100);
}

it('starts a redis-server, a mock cluster, a mock, Prism, Chromium and the verifier, and leaves them running', async () => {
  const redis = await startRedis();
  const all = process.env.LEFTOVERS_ALL === '1';
  await Promise.all([
    startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--workers', '2']),
    startMockCli(['--port', '0', '--quiet']),
    all ? startPrism('mock') : undefined,
    all && CHROMIUM !== undefined ? chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }) : undefined,
    all ? verifierInPactSuite() : undefined,
  ]);
  // Written whole, then renamed into place: the test reads the file as soon as it exists.
  const file = String(process.env.LEFTOVERS_FILE);
  await writeFile(`${file}.partial`, JSON.stringify(processTree(process.pid)));
  await rename(`${file}.partial`, file);
  if (process.env.LEFTOVERS_END === 'fail') expect('a test that failed').toBe('before it stopped what it started');
  else await new Promise(() => {});
});
