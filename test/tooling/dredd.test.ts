/**
 * Dredd, run unmodified as its users run it (`dredd spec/openapi.yaml <mock>/v1 --header
 * "Authorization: Bearer KEY"`), sends the spec's examples to the real mock and checks each answer
 * against the spec. test/tooling/dredd/hooks.cjs only provokes the documented error statuses.
 */
import { createRequire } from 'node:module';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { operationsOf } from '../../src/openapi/document.js';
import { loadSpecFile } from '../../src/openapi/load.js';
import { execFile } from '../support/children.js';
import { KEY } from '../support/http-facts.js';

const dredd = createRequire(import.meta.url).resolve('dredd/bin/dredd');

function runDredd(baseUrl: string): Promise<string> {
  const args = [dredd, 'spec/openapi.yaml', baseUrl, '--header', `Authorization: Bearer ${KEY}`, '--hookfiles', 'test/tooling/dredd/hooks.cjs'];
  return new Promise((resolve) => {
    // Dredd exits 1 when a transaction fails; the summary line says which, so it is what the test reads.
    execFile(process.execPath, args, { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout, stderr) =>
      resolve(stripVTControlCharacters(stdout + stderr)),
    );
  });
}

describe('Dredd against the mock', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
  });
  afterAll(() => mock?.close());

  it('passes every documented response of every operation, each with the example request or the one its hook provokes', async () => {
    const doc = await loadSpecFile('spec/openapi.yaml');
    const responses = operationsOf(doc).reduce((sum, { operation }) => sum + Object.keys(operation.responses).length, 0);
    const output = await runDredd(mock.url);
    const summary = output.match(/complete: (.*total)/)?.[1];
    expect(summary, output.slice(-4000)).toBe(`${responses} passing, 0 failing, 0 errors, 0 skipped, ${responses} total`);
  });
});
