/**
 * `petstore-mock --proxy` in front of a deployment that answers a number of a million digits: reading
 * it took the proxy most of a second at each step that parsed it (ten seconds in all, every other
 * request waiting), and its violation read `/0/id must be integer`. Now the number is found before the
 * body is parsed, and the proxy answers its own 503 Error naming it, as for a body over 5 MiB. The real
 * CLI (needs `dist/`) on a free port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as validators from '../../src/generated/validators.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

const DIGITS = 1_000_000;

let deployment: Deployment;
let proxy: RunningMock;
beforeAll(async () => {
  deployment = await serve(async (request) => {
    const path = new URL(request.url).pathname;
    const id = path === '/v1/pets' ? '9'.repeat(DIGITS) : '1';
    return new Response(`[{"id":${id},"name":"a","categoryId":1}]`, { headers: { 'content-type': 'application/json' } });
  });
  proxy = await startMockCli(['--port', '0', '--proxy', deployment.url]);
});
afterAll(async () => {
  await proxy?.stop();
  await deployment?.close();
});

describe('--proxy: a deployment answering a number longer than any of the spec', () => {
  it('is answered with the proxy’s own 503 Error naming the number, and the drift log says the same', async () => {
    const response = await fetch(`${proxy.url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    const body = await response.json();
    expect(response.status).toBe(503);
    expect(validators.Error(body), JSON.stringify(body)).toBe(true);
    expect(body.message).toBe(
      `The deployment answered 200 with a number of ${DIGITS} characters (at character 7 of its body), longer than any number of the spec (at most 100), which the proxy does not read.`,
    );
    const report = JSON.stringify(await (await fetch(new URL('/__mock/drift', proxy.url))).json());
    expect(report).toContain(`a number of ${DIGITS} characters`);
    expect(report).not.toContain('must be integer');
  });

  it('relays the next answer, with ordinary numbers, as before', async () => {
    const response = await fetch(`${proxy.url}/pets/1`, { headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(response.status).toBe(200);
  });
});
