/**
 * `expectRequests` (petstore-mock/testing) as a test uses it: against a mock in process and against a
 * running server by its URL, passing when the app sent what it should and otherwise throwing an Error
 * that names what was expected and the nearest requests the mock received, ranked.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/errors.js';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import type { JournalEntry } from '../../src/mock/state/journal.js';
import { expectRequests } from '../../src/testing/index.js';
import { type Deployment, serve } from '../support/deployments.js';
import { hostileDeployment } from '../support/hostile-servers.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';

/** What a miss threw, as text. */
async function missOf(check: PromiseLike<unknown>): Promise<string> {
  try {
    await check;
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  }
  throw new Error('expected the expectation to fail');
}

describe('expectRequests and a journal that cannot be read for a moment (Redis away, a replica not answering)', () => {
  /** A mock that answered one request, read through a source whose first `failures` reads fail as the mock's 503 does. */
  const flaky = async (failures: number) => {
    const mock = createMockApi();
    await mock.fetch(new Request('http://mock.test/v1/pets', { headers: AUTH }));
    let reads = 0;
    return {
      requests: async (): Promise<readonly JournalEntry[]> => {
        reads++;
        if (reads <= failures) throw new StoreUnavailableError('The request journal could not be read whole: 1 of the 2 replicas answered within 1 s.');
        return mock.requests();
      },
    };
  };

  it('reads again while `within` lasts', async () => {
    const entries = await expectRequests(await flaky(2), { within: 2_000 }).toInclude({ path: '/v1/pets' });
    expect(entries.map((entry) => [entry.method, entry.path, entry.status])).toEqual([['GET', '/v1/pets', 200]]);
  });

  it('fails at once with the cause without `within`, and with any other failure', async () => {
    await expect(expectRequests(await flaky(1)).toInclude({ path: '/v1/pets' })).rejects.toThrow(/could not be read whole/);
    const broken = { requests: async () => Promise.reject(new TypeError('The request journal is off')) };
    await expect(expectRequests(broken, { within: 2_000 }).toInclude({ path: '/v1/pets' })).rejects.toThrow(/is off/);
  });
});

describe('expectRequests against a mock in process', () => {
  const mock = createMockApi();
  const send = (path: string, init: RequestInit = {}) => mock.fetch(new Request(`http://mock.test/v1${path}`, { headers: AUTH, ...init }));

  beforeAll(async () => {
    await send('/pets?limit=5&status=sold');
    await send('/pets', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name: 'Rexy', categoryId: 1, tags: ['a'] }) });
    await send('/pets/3', { headers: { ...AUTH, prefer: 'code=404' } });
    await send('/pets/4', { headers: {} });
  });

  it('passes when a request matches: method, path (exact, * or RegExp), query, headers, body (JSON subset or text), status, operation', async () => {
    await expectRequests(mock).toInclude({ method: 'post', path: '/v1/pets', body: { name: 'Rexy', tags: ['a'] }, status: 201 });
    await expectRequests(mock)
      .toInclude({ path: '/v1/pets/*', headers: { Prefer: 'code=404' }, operation: 'getPet' })
      .times(1);
    await expectRequests(mock)
      .toInclude({ path: /^\/v1\/pets\/\d+$/ })
      .times(2);
    await expectRequests(mock).toInclude({ query: { status: 'sold' } });
    await expectRequests(mock).toInclude({ body: '{"name":"Rexy","categoryId":1,"tags":["a"]}' });
    await expectRequests(mock).toInclude({ method: 'DELETE' }).times(0);
    const [entry] = await expectRequests(mock).toInclude({ status: 401 });
    expect(entry).toMatchObject({ path: '/v1/pets/4', rule: 'auth' });
  });

  it('on a miss names the request expected and the nearest received, fewest differences first, each with how it differs', async () => {
    const message = await missOf(
      expectRequests(mock)
        .toInclude({ method: 'POST', path: '/v1/pets', body: { name: 'Rex' } })
        .times(1),
    );
    expect(message).toMatch(/^expected the mock to have received exactly 1 request like POST \/v1\/pets, body \{"name":"Rex"\}, but it received 0 \(of 4/);
    const lines = message.split('\n');
    expect(lines[1]).toMatch(/^ {2}#\d+ POST \/v1\/pets -> 201 \(createPet\), body \{"name":"Rexy"/);
    expect(lines[2]).toBe('    body.name is "Rexy", not "Rex"');
    expect(lines).toHaveLength(7); // the three nearest, two lines each
    expect(message).toContain('method is GET, not POST');
  });

  it('on a wrong count lists the matching requests', async () => {
    const message = await missOf(expectRequests(mock).toInclude({ method: 'GET' }).times(1));
    expect(message).toMatch(
      /exactly 1 request like GET any path, but it received 3 .* The matching ones:\n {2}#\d+ GET \/v1\/pets\?limit=5&status=sold -> 200 \(listPets\)/,
    );
  });

  it('says so when the journal is empty, and rejects a count that is no count', async () => {
    expect(await missOf(expectRequests(createMockApi()).toInclude({ method: 'GET' }))).toMatch(/The journal is empty: did the request reach this mock/);
    expect(() => expectRequests(mock).toInclude({}).times(-1)).toThrow(RangeError);
  });

  it('refuses at once a timeout or a within no timer can keep, naming the option and its range (red team 8, #1)', () => {
    for (const value of [2 ** 31, Number.POSITIVE_INFINITY, -5, Number.NaN, 0.5]) {
      expect(() => expectRequests(mock, { timeout: value }), String(value)).toThrow(
        new RangeError(`expectRequests: timeout must be a whole number from 1 to 86400000; got ${value}`),
      );
      expect(() => expectRequests(mock, { within: value }), String(value)).toThrow(
        new RangeError(`expectRequests: within must be a whole number from 0 to 86400000; got ${value}`),
      );
    }
    expect(() => expectRequests(mock, { timeout: '5' as unknown as number })).toThrow(TypeError);
    // Sent in headers: refused where they enter, the key never quoted (red team 9, #10).
    expect(() => expectRequests('http://127.0.0.1:9/v1', { apiKey: 'key\u0000with-NUL' })).toThrow(/apiKey is sent in an HTTP header.*not shown here/);
    expect(() => expectRequests(mock, { session: 'two words' })).toThrow(/expectRequests: session: A session name/);
  });

  it('never quotes the key in a refused session name, given as apiKey or held by the mock in process (red team 10 #4)', () => {
    const key = 's3cretKEYvalue42';
    const keyed = createMockApi({ apiKey: key });
    const names = [`${key}!`, `${key} `, `${'x'.repeat(60)}${key}`, `${Buffer.from(`u:${key}`).toString('base64')}=`];
    for (const session of names) {
      for (const attempt of [() => expectRequests('http://127.0.0.1:9/v1', { session, apiKey: key }), () => expectRequests(keyed, { session })]) {
        let message = '';
        try {
          attempt();
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message, session).toMatch(/^expectRequests: session: A session name/);
        expect(message).not.toContain(key);
        expect(message).not.toContain(Buffer.from(`u:${key}`).toString('base64'));
      }
    }
  });

  it('refuses at once a URL whose host the host rule refuses, naming expectRequests', () => {
    expect(() => expectRequests('http:///v1')).toThrow(/^expectRequests: must name the host/);
    expect(() => expectRequests('http://-evil.com/v1')).toThrow(/^expectRequests: "-evil\.com" is no IP address nor host name/);
  });

  it('reads a named session', async () => {
    await send('/pets', { headers: { ...AUTH, 'x-mock-session': 'w1' } });
    await expectRequests(mock, { session: 'w1' }).toInclude({ path: '/v1/pets' }).times(1);
    await expectRequests(mock, { session: 'w2' }).toInclude({ path: '/v1/pets' }).times(0);
  });
});

describe('expectRequests against a running server, by its URL', () => {
  let server: MockServer;
  const key = 'beyond-loopback-key';
  beforeAll(async () => {
    // Bound beyond loopback: /__mock/* needs the key.
    server = await startMockServer({ host: '0.0.0.0', apiKey: key });
  });
  afterAll(() => server.close());

  it('reads GET /__mock/requests with the key it needs, and says what the mock answered when it cannot', async () => {
    await fetch(`${server.url}/pets/2`, { headers: { authorization: `Bearer ${key}` } });
    await expectRequests(server.url, { apiKey: key }).toInclude({ path: '/v1/pets/2', status: 200 }).times(1);
    await expectRequests(server).toInclude({ path: '/v1/pets/2' });
    expect(await missOf(expectRequests(server.url).toInclude({ path: '/v1/pets/2' }))).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/__mock\/requests answered 401/);
  });

  it('keeps reading for `within` ms until the journal holds the request', async () => {
    // The expectation starts reading before the request is sent, and reads until it has come.
    const seen = Promise.resolve(expectRequests(server.url, { apiKey: key, within: 10_000 }).toInclude({ path: '/v1/pets/9' }));
    await fetch(`${server.url}/pets/9`, { headers: { authorization: `Bearer ${key}` } });
    expect(await seen).toHaveLength(1);
  });
});

describe('expectRequests against a URL that answers no journal, or never ends its answer', () => {
  /** A server that answers every request with `body` as JSON. */
  const answering = (body: string) => serve(async () => new Response(body, { headers: { 'content-type': 'application/json' } }), '');
  const servers: Deployment[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));
  const started = async (server: Promise<Deployment>) => {
    servers.push(await server);
    return servers[servers.length - 1]?.url ?? '';
  };

  it('stops an endless answer at 5 MiB, saying so', async () => {
    const url = await started(hostileDeployment('endless-body'));
    expect(await missOf(expectRequests(url).toInclude({ path: '/v1/pets' }))).toMatch(/answered more than 5242880 bytes, which no request journal holds/);
  });

  it('stops an answer that trickles past its timeout, saying so', async () => {
    const url = await started(hostileDeployment('slow-drip'));
    expect(await missOf(expectRequests(url, { timeout: 1_000 }).toInclude({ path: '/v1/pets' }))).toMatch(/did not answer whole within 1000 ms/);
  });

  it('says what is wrong with an answer that is no journal, never "entries.filter is not a function"', async () => {
    for (const [body, problem] of [
      ['{"entries": 5}', 'its JSON has no list "entries"'],
      ['[]', 'its JSON has no list "entries"'],
      ['<!doctype html><title>Vite</title>', 'its body is not JSON ("<!doctype html><title>Vite</title>")'],
      ['{"entries": [{"id": "1", "method": "GET"}]}', 'entries[0] has no number "id"'],
      ['{"entries": [null]}', 'entries[0] is not an object'],
    ] as const) {
      const url = await started(answering(body));
      const message = await missOf(expectRequests(url).toInclude({ path: '/v1/pets' }));
      expect(message).toBe(
        `expectRequests: GET ${new URL('/__mock/requests', url).href} answered no request journal: ${problem}. Is it the URL of a petstore-mock, such as http://127.0.0.1:4010/v1?`,
      );
    }
  });
});

it("says on a miss what docs/mock-journal.md shows it says, for the example's second test", async () => {
  const page = await readFile(new URL('../../docs/mock-journal.md', import.meta.url), 'utf8');
  const shown = /The message of the second test's miss reads:\n\n```text\n([\s\S]*?)\n```/.exec(page)?.[1];
  const mock = createMockApi();
  const addPet = (name: string) =>
    mock.fetch(new Request('http://mock.test/v1/pets', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name, categoryId: 3 }) }));
  // The example's first test, then its reset, then its second.
  await addPet('Rex');
  await mock.reset();
  await addPet('Rexy');
  expect(
    await missOf(
      expectRequests(mock)
        .toInclude({ method: 'POST', path: '/v1/pets', body: { name: 'Rex' } })
        .times(1),
    ),
  ).toBe(shown);
});
