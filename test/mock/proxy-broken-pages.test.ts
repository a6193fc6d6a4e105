/**
 * `petstore-mock --proxy` in front of a deployment whose pages break the schema in many places, or hold
 * ids no order can read (red team 8, #13 and #14): a page of 33,000 empty objects wrote 99,000 log lines
 * (18 MB, 55 s for one answer), and two pets without an id made the proxy answer its own 500 ("Cannot
 * convert undefined to a BigInt") instead of relaying the deployment's answer with its violations.
 * The real CLI (needs `dist/`) on a free port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_PROBLEMS_TOLD } from '../../src/openapi/conformance.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';

/** What the deployment lists for each `limit` the test asks: a page that breaks the schema its own way. */
const PAGES: Record<string, string> = {
  '2': '[{},{}]',
  '3': '[{"id":1.5,"name":"a","categoryId":1},{"id":"abc","name":"b","categoryId":1},{"id":null,"name":"c","categoryId":1}]',
  '4': '[{"name":"x","categoryId":1},"junk"]',
  '5': `[${Array(5_000).fill('{}').join(',')}]`,
};

let deployment: Deployment;
let proxy: RunningMock;
beforeAll(async () => {
  deployment = await serve(async (request) => {
    const page = PAGES[new URL(request.url).searchParams.get('limit') ?? ''] ?? '[]';
    return new Response(page, { headers: { 'content-type': 'application/json' } });
  });
  proxy = await startMockCli(['--port', '0', '--proxy', deployment.url]);
});
afterAll(async () => {
  await proxy?.stop();
  await deployment?.close();
});

const list = (limit: string) => fetch(`${proxy.url}/pets?limit=${limit}`, { headers: { authorization: 'Bearer petstore-dev-key' } });

describe('--proxy: a deployment whose page breaks the schema', () => {
  it.each(['2', '3', '4'])('relays a page whose ids no order can read (limit=%s) as the deployment answered it, with its violations', async (limit) => {
    const response = await list(limit);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(PAGES[limit]);
    expect(response.headers.get('x-contract-violation')).toMatch(/breaks its schema/);
  });

  it(`tells at most ${SCHEMA_PROBLEMS_TOLD} schema problems of one answer, and says in one more line that there are more`, async () => {
    const response = await list('5');
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await expect.poll(() => proxy.stderr(), { timeout: 30_000 }).toMatch(/in more places than the 20 above \(the rest not looked for\)/);
    const lines = proxy
      .stderr()
      .split('\n')
      .filter((line) => line.includes('GET /v1/pets?limit=5:'));
    // 5,000 pets lacking three required fields each: 15,000 problems, of which the first 20 are looked for and told, and one line says there are more.
    expect(lines.filter((line) => line.includes('breaks its schema')).length).toBe(SCHEMA_PROBLEMS_TOLD + 1);
  });
});
