/**
 * The Redis store against memory with wrk, the load generator issue 23 measured with: a C program that
 * takes far less of the machine than autocannon in the benchmark's own process, so that on a small
 * machine the ratio says more of the mock and Redis than of the load generator. The in-memory mock, the
 * mock on Redis and two workers on Redis, each scenario measured in alternating rounds; the ratio is the
 * median of the rounds' ratios. Needs `wrk` on PATH (`apt-get install wrk`); never in `npm test`.
 *
 *   npm run bench:wrk -- [--rounds 5] [--seconds 3]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { execFile } from '../test/support/children.js';
import { startMockCli } from '../test/support/cli.js';
import { startRedis } from '../test/support/redis.js';

const run = promisify(execFile);
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '3' } } });
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const KEY = 'petstore-dev-key';

const POST_SCRIPT = `wrk.method = "POST"
wrk.body = '{"name":"Rex","categoryId":1}'
wrk.headers["Content-Type"] = "application/json"
`;

interface Scenario {
  readonly title: string;
  readonly path: string;
  readonly post?: true;
}

const SCENARIOS: readonly Scenario[] = [
  { title: 'GET /v1/pets?limit=20', path: '/pets?limit=20' },
  { title: 'GET /v1/pets/7', path: '/pets/7' },
  { title: 'POST /v1/pets', path: '/pets', post: true },
];

async function requestsPerSecond(url: string, script: string | undefined): Promise<number> {
  const args = ['-t', '1', '-c', '32', '-d', `${SECONDS}s`, '-H', `Authorization: Bearer ${KEY}`, ...(script ? ['-s', script] : []), url];
  const { stdout } = await run('wrk', args);
  const found = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (errors) throw new Error(`wrk saw ${errors[1]} responses that were not 2xx at ${url}: the figures would mean nothing`);
  return Number(found?.[1] ?? Number.NaN);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const folder = await mkdtemp(join(tmpdir(), 'petstore-wrk-'));
const postScript = join(folder, 'post.lua');
await writeFile(postScript, POST_SCRIPT);
const redis = await startRedis();
const mocks = {
  memory: await startMockCli(['--port', '0', '--quiet']),
  redis: await startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--namespace', 'wrk-one']),
  'two workers': await startMockCli(['--port', '0', '--quiet', '--store', redis.url, '--namespace', 'wrk-two', '--workers', '2']),
};
try {
  console.log(`wrk, 1 thread, 32 connections, ${ROUNDS} rounds of ${SECONDS} s per deployment, alternating; req/s medians, ratios to memory per round`);
  for (const scenario of SCENARIOS) {
    const seen: Record<string, number[]> = { memory: [], redis: [], 'two workers': [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? Object.entries(mocks) : Object.entries(mocks).reverse();
      for (const [name, mock] of order) seen[name]?.push(await requestsPerSecond(`${mock.url}${scenario.path}`, scenario.post ? postScript : undefined));
    }
    const ratio = (name: string) => median((seen[name] ?? []).map((rps, i) => rps / (seen.memory?.[i] ?? Number.NaN))).toFixed(2);
    console.log(
      `${scenario.title.padEnd(24)} memory ${Math.round(median(seen.memory ?? []))}, Redis ${Math.round(median(seen.redis ?? []))} (${ratio('redis')} ×), two workers ${Math.round(median(seen['two workers'] ?? []))} (${ratio('two workers')} ×)`,
    );
  }
} finally {
  await Promise.all(Object.values(mocks).map((mock) => mock.stop()));
  await redis.stop();
  await rm(folder, { recursive: true, force: true });
}
