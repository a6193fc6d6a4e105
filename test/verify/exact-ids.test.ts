/**
 * Ids beyond 2^53 must reach the Pact Verifier exactly: a provider state that creates a pet hands
 * its id to the Verifier, which puts it in the request path and the expected body. Rounded once
 * (by JSON.stringify, JSON.parse or a double), the Verifier asks for another pet and reports a 404
 * that the deployment never deserved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonValue, parseJson, stringifyJson } from '../../src/json/lossless.js';
import { runCli } from '../support/cli.js';
import { type Deployment, serve } from '../support/deployments.js';
import { LIMIT, LIMIT_RANGE_MESSAGE } from '../support/page-size.js';

const KEY = 'petstore-dev-key';
const STATUSES = ['available', 'pending', 'sold'];
const INT64_MAX = 2n ** 63n - 1n;

interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: string;
}

/**
 * A correct deployment written for this test: ids and category ids start beyond 2^53, the oldest
 * pet first, `status` left out when it was not sent, and a category it does not know refused with
 * 400 (so a category id rounded on its way, 2^53 + 1 to 2^53, is refused).
 */
function bigIdDeployment(): Promise<Deployment> {
  const first = 2n ** 53n + 1n;
  let next = first;
  const pets: Pet[] = [];
  for (let i = 0; i < 25; i++) pets.push({ id: next++, name: `Pet ${i}`, categoryId: first + BigInt(i % 3), status: STATUSES[i % 3] as string });
  const categories = new Set([first, first + 1n, first + 2n]);
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(stringifyJson(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  const error = (status: number, code: string, message: string) => reply(status, { code, message, status });
  const isInt64 = (value: JsonValue | undefined): value is number | bigint =>
    (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'bigint' && value >= -INT64_MAX - 1n && value <= INT64_MAX);

  return serve(async (request) => {
    if (request.headers.get('authorization') !== `Bearer ${KEY}`) return error(401, 'unauthorized', 'a valid bearer key is needed');
    const url = new URL(request.url);
    if (url.pathname === '/v1/pets' && request.method === 'GET') {
      const limitText = url.searchParams.get('limit') ?? String(LIMIT.default);
      const limit = Number(limitText);
      if (!/^\d+$/.test(limitText) || limit < LIMIT.minimum || limit > LIMIT.maximum) return error(400, 'bad_request', LIMIT_RANGE_MESSAGE);
      const status = url.searchParams.get('status');
      if (status !== null && !STATUSES.includes(status)) return error(400, 'bad_request', 'status must be available, pending or sold');
      return reply(200, pets.filter((pet) => status === null || pet.status === status).slice(0, limit));
    }
    if (url.pathname === '/v1/pets' && request.method === 'POST') {
      if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) return error(415, 'unsupported_media_type', 'send application/json');
      let body: JsonValue;
      try {
        body = parseJson(await request.text());
      } catch {
        return error(400, 'malformed_json', 'the body is not JSON');
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return error(400, 'bad_request', 'the body must be a NewPet object');
      const { name, categoryId, status } = body;
      if (typeof name !== 'string') return error(400, 'bad_request', 'name is required, a string');
      if (!isInt64(categoryId)) return error(400, 'bad_request', 'categoryId is required, an int64');
      if (!categories.has(BigInt(categoryId))) return error(400, 'bad_request', `no category has the id ${categoryId}`);
      if (status !== undefined && (typeof status !== 'string' || !STATUSES.includes(status))) return error(400, 'bad_request', 'status is not a PetStatus');
      const pet: Pet = { id: next++, name, categoryId: BigInt(categoryId), ...(status === undefined ? {} : { status }) };
      pets.push(pet);
      // The spec: the 201 carries the new pet's path in Location.
      return reply(201, pet, { location: `/v1/pets/${pet.id}` });
    }
    const id = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname)?.[1];
    if (id !== undefined && request.method === 'GET') {
      // An int64 is one spelling: digits without a leading zero (`09007199254740993` is no id, issue 26).
      const pet = /^(0|[1-9]\d*)$/.test(id) ? pets.find((candidate) => candidate.id === BigInt(id)) : undefined;
      return pet ? reply(200, pet) : error(404, 'not_found', `no pet has the id ${id}`);
    }
    return error(404, 'not_found', 'no such operation');
  });
}

describe('petstore-verify hands ids beyond 2^53 to the Pact Verifier exactly', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await bigIdDeployment();
  });
  afterAll(() => deployment.close());

  it('passes a correct deployment whose ids and category ids start at 2^53 + 1', async () => {
    const run = await runCli('petstore-verify', ['--base-url', deployment.url, '--suite', 'all', '--reporter', 'json'], { PETSTORE_API_KEY: KEY });
    const report = JSON.parse(run.stdout) as { results: { id: string; outcome: string }[] };
    expect(report.results.filter((result) => result.outcome !== 'pass' && result.outcome !== 'skip')).toEqual([]);
    expect(report.results.some((result) => result.id === 'pact.petstore-web.a-request-for-an-existing-pet' && result.outcome === 'pass')).toBe(true);
    expect(run.code).toBe(0);
  });
});

// Against the project's own mock in each mode (--big-ids, with --self-check, --count 0, --seed 7 --count 200), both suites
// pass quietly: test/verify/alternatives.test.ts, which runs each mode once for both files.
