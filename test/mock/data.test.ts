/**
 * Your own data (`--data FILE`, `createMockApi({ data })`, `POST /__mock/pets`), as a user and a
 * careless user meet it: exact int64 ids over real HTTP, a bad file refused naming every fault, and
 * the same pets in every mode: memory, `--state`, `--store redis://`, `--workers`.
 */

import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { ADMIN, AUTH, JSON_HEADERS } from '../support/http-facts.js';
import { FULL_PAGE } from '../support/page-size.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const MAX = '9223372036854775807';
const BEYOND = '9007199254740993';
const PETS_JSON = `[
  {"id": ${MAX}, "name": "Max", "categoryId": ${BEYOND}, "status": "sold"},
  {"id": ${BEYOND}, "name": "Big", "categoryId": 2, "status": "available"},
  {"id": 7, "name": "Seven", "categoryId": 3, "status": "pending"}
]`;
const PETS_YAML = `# the same pets, in YAML
- id: ${MAX}
  name: Max
  categoryId: ${BEYOND}
  status: sold
- {id: ${BEYOND}, name: Big, categoryId: 2, status: available}
- {id: 7, name: Seven, categoryId: 3, status: pending}
`;

const folder = () => mkdtemp(join(tmpdir(), 'petstore-data-'));
async function file(name: string, text: string): Promise<string> {
  const path = join(await folder(), name);
  await writeFile(path, text);
  return path;
}
const adminUrl = (url: string, path: string) => `${url.replace(/\/v1$/, '')}${path}`;

const running: RunningMock[] = [];
afterEach(async () => {
  for (const mock of running.splice(0)) await mock.stop('SIGKILL');
});
async function mock(args: readonly string[]): Promise<RunningMock> {
  const started = await startMockCli(['--port', '0', '--quiet', ...args]);
  running.push(started);
  return started;
}

describe('petstore-mock --data FILE', () => {
  for (const [kind, name, text] of [
    ['JSON', 'pets.json', PETS_JSON],
    ['YAML', 'pets.yaml', PETS_YAML],
  ] as const) {
    it(`serves the pets of a ${kind} file in place of seeded ones, ids beyond 2^53 exact`, async () => {
      const served = await mock(['--data', await file(name, text)]);
      const list = await (await fetch(`${served.url}/pets`, { headers: AUTH })).text();
      expect(list).toBe(
        `[{"id":7,"name":"Seven","categoryId":3,"status":"pending"},{"id":${BEYOND},"name":"Big","categoryId":2,"status":"available"},{"id":${MAX},"name":"Max","categoryId":${BEYOND},"status":"sold"}]`,
      );
      expect(await (await fetch(`${served.url}/pets/${MAX}`, { headers: AUTH })).text()).toContain(`"id":${MAX},"name":"Max","categoryId":${BEYOND}`);
      expect(await (await fetch(`${served.url}/pets/${BEYOND}`, { headers: AUTH })).text()).toContain('"name":"Big"');
      expect((await fetch(`${served.url}/pets/1`, { headers: AUTH })).status).toBe(404);
      expect(served.stdout()).toContain('3 pets from --data, sha256:');
    });
  }

  it('numbers a created pet after the largest id below 2^62, leaving the ids beyond to the data', async () => {
    const served = await mock(['--data', await file('pets.json', '[{"id": 41, "name": "Rex", "categoryId": 1, "status": "sold"}]')]);
    const created = await fetch(`${served.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Gus","categoryId":2}' });
    expect(await created.json()).toEqual({ id: 42, name: 'Gus', categoryId: 2, status: 'available' });
    const full = await mock(['--data', await file('pets.json', PETS_JSON)]);
    const next = await fetch(`${full.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Gus","categoryId":2}' });
    // 2^53 + 1 is below 2^62; the int64 maximum is beyond it, and stays last in id order.
    expect(await next.text()).toBe(`{"id":${BigInt(BEYOND) + 1n},"name":"Gus","categoryId":2,"status":"available"}`);
    expect(await (await fetch(`${full.url}/pets`, { headers: AUTH })).text()).toMatch(new RegExp(`"id":${BigInt(BEYOND) + 1n},.*"id":${MAX},`));
  });

  it('refuses a bad file with exit 2, naming every fault by index and field', async () => {
    const path = await file(
      'bad.yaml',
      `- {id: 1, name: Rex, categoryId: 1, status: lost}
- {name: 5, categoryId: x}
- {id: 1, name: Dup, categoryId: 1, status: sold}
`,
    );
    const result = await runCli('petstore-mock', ['--port', '0', '--data', path]);
    expect(result.code).toBe(2);
    for (const fault of [
      'pets[0].status must be one of available, pending, sold',
      'pets[1].name must be a string, not 5',
      'pets[1].categoryId must be an integer',
      'pets[1].id is required',
      'pets[2].id 1 is the id of pets[0] too',
    ])
      expect(result.stderr).toContain(fault);
  });

  it('caps a long list of faults with how many more there are', async () => {
    const pets = Array.from({ length: 15 }, (_, i) => ({ id: i + 1, name: 'Rex', categoryId: 1, status: 'lost' }));
    const result = await runCli('petstore-mock', ['--port', '0', '--data', await file('pets.json', JSON.stringify(pets))]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pets[9].status must be one of');
    expect(result.stderr).not.toContain('pets[10].status');
    expect(result.stderr).toContain('and 5 more');
  });

  it('refuses a file that is not there, not JSON or YAML, or not a list; and --data with --seed, --count or --big-ids', async () => {
    const missing = await runCli('petstore-mock', ['--data', join(await folder(), 'none.json')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('Cannot read it (ENOENT)')]);
    const notJson = await runCli('petstore-mock', ['--data', await file('pets.json', '[{"id": 1,')]);
    expect([notJson.code, notJson.stderr]).toEqual([2, expect.stringContaining('it is not JSON')]);
    const notList = await runCli('petstore-mock', ['--data', await file('pets.yaml', 'id: 1\n')]);
    expect([notList.code, notList.stderr]).toEqual([2, expect.stringContaining('pets must be a list of pets')]);
    const path = await file('pets.json', PETS_JSON);
    for (const flags of [['--seed', '7'], ['--count', '3'], ['--big-ids']]) {
      const both = await runCli('petstore-mock', ['--data', path, ...flags]);
      expect([both.code, both.stderr]).toEqual([2, expect.stringContaining(`--data replaces the seeded pets, so ${flags[0]} cannot go with it`)]);
    }
  });
});

describe('POST /__mock/pets', () => {
  it('adds or replaces pets of one session, answering with what it stored; every fault is a 400 naming index and field', async () => {
    const served = await mock([]);
    const put = (body: string, headers: Record<string, string> = {}) =>
      fetch(adminUrl(served.url, '/__mock/pets'), { method: 'POST', headers: { ...ADMIN, ...headers }, body });
    const one = await put(`{"id": ${MAX}, "name": "Max", "categoryId": 1, "status": "sold"}`, { 'x-mock-session': 'exact' });
    expect(one.status).toBe(200);
    expect(await one.text()).toBe(`{"session":"exact","stored":[{"id":${MAX},"name":"Max","categoryId":1,"status":"sold"}],"pets":51}`);
    const replaced = await put('[{"id": 3, "name": "Rex", "categoryId": 1, "status": "pending"}]', { 'x-mock-session': 'exact' });
    expect(await replaced.json()).toMatchObject({ pets: 51 });
    const session = { ...AUTH, 'x-mock-session': 'exact' };
    expect(await (await fetch(`${served.url}/pets/${MAX}`, { headers: session })).text()).toContain(`"id":${MAX}`);
    expect(await (await fetch(`${served.url}/pets/3`, { headers: session })).json()).toEqual({ id: 3, name: 'Rex', categoryId: 1, status: 'pending' });
    // Another session, and the default one, never see them.
    expect((await fetch(`${served.url}/pets/${MAX}`, { headers: AUTH })).status).toBe(404);
    expect(await (await fetch(`${served.url}/pets/3`, { headers: AUTH })).json()).not.toMatchObject({ name: 'Rex', status: 'pending' });
    // A create follows the largest id below 2^62 the session has: 50, the seed's.
    const created = await fetch(`${served.url}/pets`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'x-mock-session': 'exact' },
      body: '{"name":"Gus","categoryId":1}',
    });
    expect(await created.json()).toMatchObject({ id: 51 });
    // The session's reset puts the seed back.
    await fetch(adminUrl(served.url, '/__mock/reset'), { method: 'POST', headers: { ...ADMIN, 'x-mock-session': 'exact' } });
    expect((await fetch(`${served.url}/pets/${MAX}`, { headers: session })).status).toBe(404);

    const bad = await put('[{"id": 1, "name": "Rex", "categoryId": 1, "status": "lost"}, {"id": 1, "name": 7}]');
    expect(bad.status).toBe(400);
    const error = (await bad.json()) as { code: string; message: string; status: number };
    expect(error).toMatchObject({ code: 'bad_request', status: 400 });
    for (const fault of [
      'pets[0].status must be one of available, pending, sold',
      'pets[1].name must be a string',
      'pets[1].categoryId is required',
      'pets[1].id 1 is the id of pets[0] too',
    ])
      expect(error.message).toContain(fault);
    expect(await (await put('{"id": 1,')).json()).toMatchObject({ code: 'malformed_json', status: 400 });
  });

  it('is refused to a page on another origin (403), as every admin endpoint that acts', async () => {
    const served = await mock([]);
    const forged = await fetch(adminUrl(served.url, '/__mock/pets'), {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: '{"id": 1, "name": "Owned", "categoryId": 1, "status": "sold"}',
    });
    expect(forged.status).toBe(403);
    expect(await (await fetch(`${served.url}/pets/1`, { headers: AUTH })).json()).not.toMatchObject({ name: 'Owned' });
  });
});

describe('--data with --state', () => {
  it('records the data in the state file, restores over the same data, and refuses other pets with a sentence', async () => {
    const dir = await folder();
    const state = join(dir, 'state.json');
    const data = await file('pets.json', PETS_JSON);
    const first = await mock(['--data', data, '--state', state]);
    expect((await fetch(`${first.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Gus","categoryId":1}' })).status).toBe(201);
    const text = await readFile(state, 'utf8');
    const saved = JSON.parse(text) as { data: string };
    expect(saved.data).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(text).toContain(`"created":[{"id":${BigInt(BEYOND) + 1n},"name":"Gus","categoryId":1,"status":"available"}]`);
    await first.stop('SIGTERM');
    running.splice(0);

    const again = await mock(['--data', data, '--state', state]);
    expect(await (await fetch(`${again.url}/pets/${BigInt(BEYOND) + 1n}`, { headers: AUTH })).json()).toMatchObject({ name: 'Gus' });
    await again.stop('SIGTERM');
    running.splice(0);

    const other = await runCli('petstore-mock', [
      '--port',
      '0',
      '--data',
      await file('other.json', '[{"id": 5, "name": "Rex", "categoryId": 1}]'),
      '--state',
      state,
    ]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`${state} was written with --data (the pets of hash ${saved.data})`);
    const seeded = await runCli('petstore-mock', ['--port', '0', '--state', state]);
    expect(seeded.stderr).toContain('start with those, or move the file away to start afresh with --seed 1 --count 50');
  });
});

describe('--data with --store redis://', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it('serves one world: replicas with the same data share it, a replica with other pets is refused (exit 2)', async () => {
    const data = await file('pets.json', PETS_JSON);
    const store = ['--store', redis.url, '--namespace', 'data1'];
    const [a, b] = [await mock([...store, '--data', data]), await mock([...store, '--data', data])];
    const created = await fetch(`${a.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Gus","categoryId":1}' });
    expect(await created.text()).toContain(`"id":${BigInt(BEYOND) + 1n},"name":"Gus"`);
    expect(await (await fetch(`${b.url}/pets/${BigInt(BEYOND) + 1n}`, { headers: AUTH })).json()).toMatchObject({ name: 'Gus' });
    // The same id order as in memory: the created pet before the int64 maximum.
    expect(await (await fetch(`${b.url}/pets`, { headers: AUTH })).text()).toMatch(
      new RegExp(`"id":7,.*"id":${BEYOND},.*"id":${BigInt(BEYOND) + 1n},.*"id":${MAX},`),
    );
    expect(await (await fetch(`${b.url}/pets/${MAX}`, { headers: AUTH })).text()).toContain(`"id":${MAX},"name":"Max","categoryId":${BEYOND}`);
    expect(await (await fetch(`${b.url}/pets?limit=3`, { headers: AUTH })).text()).toContain(`{"id":7,"name":"Seven"`);

    const other = await runCli('petstore-mock', ['--port', '0', ...store, '--data', await file('other.json', '[{"id": 5, "name": "Rex", "categoryId": 1}]')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/namespace data1 in Redis holds the pets of --data of hash sha256:\w+, not those of this mock's --data of hash/);
    const seeded = await runCli('petstore-mock', ['--port', '0', ...store]);
    expect([seeded.code, seeded.stderr]).toEqual([2, expect.stringContaining("not those of this mock's --seed 1 --count 50")]);
  });

  it('seeds a namespace emptied under it (FLUSHALL) with the same data again, never a seed', async () => {
    const data = await file('pets.json', PETS_JSON);
    const store = ['--store', redis.url, '--namespace', 'data5'];
    const a = await mock([...store, '--data', data]);
    expect(await (await fetch(`${a.url}/pets/${MAX}`, { headers: AUTH })).json()).toMatchObject({ name: 'Max' });
    const client = new Redis(redis.url);
    try {
      await client.flushall();
    } finally {
      client.disconnect();
    }
    const created = await fetch(`${a.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: '{"name":"Gus","categoryId":1}' });
    expect(await created.text()).toContain(`"id":${BigInt(BEYOND) + 1n},"name":"Gus"`);
    expect(await (await fetch(`${a.url}/pets/${MAX}`, { headers: AUTH })).json()).toMatchObject({ name: 'Max' });
    // Seeded again with the data: a replica with the same data joins it, one without is refused.
    const b = await mock([...store, '--data', data]);
    expect(await (await fetch(`${b.url}/pets/${BigInt(BEYOND) + 1n}`, { headers: AUTH })).json()).toMatchObject({ name: 'Gus' });
    expect((await runCli('petstore-mock', ['--port', '0', ...store])).code).toBe(2);
  });

  it('with --workers: every worker serves the data', async () => {
    const data = await file('pets.yaml', PETS_YAML);
    const cluster = await mock(['--store', redis.url, '--namespace', 'data2', '--workers', '2', '--data', data]);
    expect(cluster.stdout()).toContain('2 workers, 3 pets from --data');
    for (let i = 0; i < 4; i++) expect(await (await fetch(`${cluster.url}/pets/${BEYOND}`, { headers: AUTH })).text()).toContain('"name":"Big"');
  });

  /**
   * The same steps against one mock in memory and against two replicas on one Redis (each step through
   * either replica): every answer must be the memory one. Puts go into the default session, which each
   * replica serves from memory while it may, and into a named one.
   */
  it('POST /__mock/pets: every replica serves what was put at once, as the mock in memory does, per session', async () => {
    const memory = await mock([]);
    const [a, b] = [await mock(['--store', redis.url, '--namespace', 'data3']), await mock(['--store', redis.url, '--namespace', 'data3'])];
    const put = async (url: string, body: string, session?: string) => {
      const response = await fetch(adminUrl(url, '/__mock/pets'), {
        method: 'POST',
        headers: { ...ADMIN, ...(session ? { 'x-mock-session': session } : {}) },
        body,
      });
      return `${response.status} ${await response.text()}`;
    };
    const create = async (url: string, session?: string) => {
      const headers = { ...JSON_HEADERS, ...(session ? { 'x-mock-session': session } : {}) };
      const response = await fetch(`${url}/pets`, { method: 'POST', headers, body: '{"name":"Gus","categoryId":2,"status":"sold"}' });
      return `${response.status} ${await response.text()}`;
    };
    const read = async (url: string, session?: string) => {
      const headers = { ...AUTH, ...(session ? { 'x-mock-session': session } : {}) };
      const answers: string[] = [];
      for (const path of [
        '/pets/3',
        `/pets/${MAX}`,
        '/pets/52',
        '/pets/4242',
        `/pets?${FULL_PAGE}`,
        '/pets?limit=5',
        `/pets?status=pending&${FULL_PAGE}`,
        `/pets?status=sold&${FULL_PAGE}`,
      ])
        answers.push(`${path} ${await (await fetch(`${url}${path}`, { headers })).text()}`);
      return answers;
    };
    const reset = async (url: string, session?: string) =>
      (await fetch(adminUrl(url, '/__mock/reset'), { method: 'POST', headers: { ...ADMIN, ...(session ? { 'x-mock-session': session } : {}) } })).status;
    // Each replica reads the seed first, so that it serves it from memory when the put comes.
    expect(await read(b.url)).toEqual(await read(memory.url));
    expect(await read(a.url)).toEqual(await read(memory.url));
    const steps: [string, (url: string) => Promise<unknown>][] = [
      ['create before', (url) => create(url)],
      ['put a seeded id', (url) => put(url, '{"id": 3, "name": "Rex", "categoryId": 1, "status": "pending"}')],
      [
        'put beyond 2^62, and a new id',
        (url) => put(url, `[{"id": ${MAX}, "name": "Max", "categoryId": ${BEYOND}, "status": "sold"}, {"id": 4242, "name": "New", "categoryId": 7}]`),
      ],
      ['put the created id', (url) => put(url, '{"id": 51, "name": "Put over created", "categoryId": 1, "status": "available"}')],
      ['create after the put', (url) => create(url)],
      ['put into a named session', (url) => put(url, '{"id": 3, "name": "Only here", "categoryId": 1, "status": "sold"}', 'exact')],
      ['create in the named session', (url) => create(url, 'exact')],
    ];
    for (const [i, [what, step]] of steps.entries()) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      const expected = await step(memory.url);
      expect(await step(writer.url), what).toEqual(expected);
      expect(await read(reader.url), what).toEqual(await read(memory.url));
      expect(await read(reader.url, 'exact'), what).toEqual(await read(memory.url, 'exact'));
      expect(await read(writer.url, 'other'), what).toEqual(await read(memory.url, 'other'));
    }
    expect(await read(b.url)).toContainEqual(expect.stringContaining('/pets/3 {"id":3,"name":"Rex"'));
    // Each session's reset puts the seed back, on every replica at once.
    for (const session of [undefined, 'exact']) {
      expect([await reset(a.url, session), await reset(memory.url, session)]).toEqual([200, 200]);
      expect(await read(b.url, session)).toEqual(await read(memory.url, session));
    }
    expect(await read(b.url)).toContainEqual(expect.stringMatching(/^\/pets\/3 \{"id":3,"name":"(?!Rex)/));
  });

  it('POST /__mock/pets with --workers: whichever worker answers serves the pets put', async () => {
    const cluster = await mock(['--store', redis.url, '--namespace', 'data4', '--workers', '2']);
    for (let i = 0; i < 4; i++) expect(await (await fetch(`${cluster.url}/pets/3`, { headers: AUTH })).json()).not.toMatchObject({ name: 'Rex' });
    const put = await fetch(adminUrl(cluster.url, '/__mock/pets'), {
      method: 'POST',
      headers: ADMIN,
      body: `[{"id": 3, "name": "Rex", "categoryId": 1}, {"id": ${MAX}, "name": "Max", "categoryId": 1}]`,
    });
    expect(await put.text()).toBe(`{"session":"default","stored":[{"id":3,"name":"Rex","categoryId":1},{"id":${MAX},"name":"Max","categoryId":1}],"pets":51}`);
    for (let i = 0; i < 4; i++) {
      expect(await (await fetch(`${cluster.url}/pets/3`, { headers: AUTH })).text()).toBe('{"id":3,"name":"Rex","categoryId":1}');
      expect(await (await fetch(`${cluster.url}/pets/${MAX}`, { headers: AUTH })).text()).toBe(`{"id":${MAX},"name":"Max","categoryId":1}`);
    }
  });
});

describe('createMockApi({ data })', () => {
  it('serves the pets given, leaves them as given, and throws a TypeError naming every fault', async () => {
    const pets = [{ id: 2n ** 63n - 1n, name: 'Max', categoryId: 1 }];
    const api = createMockApi({ data: pets });
    const response = await api.fetch(new Request(`http://mock.test/v1/pets/${MAX}`, { headers: AUTH }));
    expect(await response.text()).toBe(`{"id":${MAX},"name":"Max","categoryId":1}`);
    expect(pets[0]).toEqual({ id: 2n ** 63n - 1n, name: 'Max', categoryId: 1 });
    expect(() => createMockApi({ data: [{ id: 1, name: 'Rex', categoryId: 1, status: 'lost' as 'sold' }] })).toThrow(TypeError);
    expect(() => createMockApi({ data: [{ id: 1, name: 'Rex', categoryId: 1, status: 'lost' as 'sold' }] })).toThrow(
      /^data\[0\]\.status must be one of available, pending, sold$/,
    );
    expect(() => createMockApi({ data: [], seed: 7 })).toThrow(/data replaces the seeded pets, so seed cannot go with it/);
  });
});
