/**
 * The guarantees of docs/guarantees.md as one suite, run against every mode of `petstore-mock` (the plain
 * mock, `--state`, `--store`, `--workers`, `--proxy`, `--profile`; test/mock/guarantees.test.ts), as the
 * HTTP facts run against every host. Each guarantee is a small named function that attacks a started
 * mock from outside, as a web page, an attacker or a careless user would, over HTTP and raw sockets.
 *
 * A mode that does not keep a promise yet is named in a list of known gaps, with the reason: its test
 * runs as `it.fails`, so that the suite stays green while the gap is known, and turns red the day the
 * gap is closed, until the list says so too. A mode added tomorrow starts with no gap listed: it fails
 * the suite until it keeps every promise.
 */

import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as validators from '../../src/generated/validators.js';
import { expectRequests } from '../../src/testing/index.js';
import { errorEchoBounded, sessionsPetsBounded } from './bound-guarantees.js';
import { startMockCli } from './cli.js';
import { ACTING_CHARACTERS, DROPPED_FIELDS, hostileOriginDeployment, TERMINAL_ESCAPES } from './hostile-origin.js';
import { answer, expectError } from './http-facts.js';
import { adminAnswers, keysRevealed, layeredKeyEncodings, sendKeyEverywhere } from './key-echoes.js';
import { FULL_PAGE } from './page-size.js';
import { residentBytes } from './peak-rss.js';
import { CLIENT_SEES_RESET, exchangeOutline, pipeline, rawRequest, unreadPipeline } from './raw-http.js';
import { published, type TestRedis } from './redis.js';
import { clientTextInHeads, deploymentTextInHeads } from './safe-heads.js';

/** A mode of the CLI, started as a real process: where it listens, the key it takes, and its log. */
export interface StartedMock {
  /** The API's base URL, ending in `/v1`. */
  readonly baseUrl: string;
  /** The key the mock accepts (`--api-key`). */
  readonly key: string;
  /**
   * The flags that start this mode once more beside the running one (without `--port` and
   * `--api-key`), to try other flags with it: a state file of its own for `--state`, whose lock the
   * running one holds.
   */
  flagsAgain(): Promise<readonly string[]>;
  /** The limits on slow clients the mode was started with (lowered for the suite, see test/mock/guarantees.test.ts). */
  readonly limits: { readonly requestMs: number; readonly keepAliveMs: number; readonly drainMs: number };
  /** What the mock wrote to stderr so far: the request log and warnings. */
  log(): string;
  /** The mode's process: its memory is that of it and of the processes it started (workers). */
  readonly pid: number;
  /** The Redis the mode keeps its state in, for the modes on Redis: what its replicas tell each other goes through it. */
  readonly redis?: TestRedis;
  /**
   * How many requests refused for their key the mode is sent (`refusedOpensNothing`): the guarantee's
   * 8,000 unless set, set lower only where the refusal's path is that of a mode sent the 8,000 (test/mock/guarantees.test.ts says which).
   */
  readonly refusedRequests?: number;
  /**
   * Whether the guarantee on the named sessions' pets fills one session only (its own bound) rather than
   * all (their total): set where the mode keeps sessions as a mode filling all does (test/mock/guarantees.test.ts says which).
   */
  readonly onePetsSession?: boolean;
  stop(): Promise<unknown>;
}

/** One promise of docs/guarantees.md, checked from outside against a started mock. */
export interface Guarantee {
  /** A row of the table in docs/guarantees.md, and the name of its test. */
  readonly name: string;
  /** The modes it is about, when it is about some only (what `--proxy` relays): the table shows — for the others, which run nothing. */
  readonly only?: readonly string[];
  check(mock: StartedMock): Promise<void>;
  /** A time-out of its own, for a guarantee that sends thousands of requests; default the suite's. */
  readonly timeoutMs?: number;
}

/** A promise some modes do not keep yet: their tests run as `it.fails` until it is kept. */
export interface KnownGap {
  readonly guarantee: Guarantee;
  readonly modes: readonly string[];
  /** Why, in a few words: the table in docs/guarantees.md shows it. */
  readonly reason: string;
}

/** The origin of the mock, where `/__mock/*` lives. */
function originOf(mock: StartedMock): string {
  return new URL(mock.baseUrl).origin;
}

/** `baseUrl + path`, or the origin's `/__mock/...`. */
function urlOf(mock: StartedMock, path: string): string {
  return path.startsWith('/__mock') ? originOf(mock) + path : mock.baseUrl + path;
}

function bearer(mock: StartedMock): Record<string, string> {
  return { authorization: `Bearer ${mock.key}` };
}

/**
 * A request over fetch, its response read and checked as every response must be (JSON; CORS on the API
 * only). A 408 is sent again, twice at most, as RFC 9110 §15.5.9 lets a client: the suite's lowered
 * limits on slow clients (1 s for the headers) cut off a request a busy machine was slow to send, and
 * the mock, which had not read it whole, answered it as any request (CORS included).
 */
async function call(mock: StartedMock, path: string, init: RequestInit = {}) {
  let response = await fetch(urlOf(mock, path), init);
  for (let retry = 0; response.status === 408 && retry < 2; retry++) {
    await response.arrayBuffer();
    response = await fetch(urlOf(mock, path), init);
  }
  return answer(response, { admin: path.startsWith('/__mock') });
}

/**
 * Sends `bytes` as they are, as a hand-made client or a page with a forged `Host` would (fetch sets its
 * own `Host` and `Origin`), and parses what the mock sends before it closes the connection (within
 * `closeWithinMs` of silence; by default a hang's bound) as a `Response`. A reset after the response counts as a close: a mock may reset a
 * client that is still sending what it refused.
 */
async function rawBytes(port: number, bytes: string, closeWithinMs = 15_000): Promise<Response> {
  const socket = connect(port, '127.0.0.1');
  socket.setTimeout(closeWithinMs, () => socket.destroy(new Error(`the mock kept the connection open over ${closeWithinMs} ms`)));
  await once(socket, 'connect');
  socket.on('error', () => {}).write(bytes);
  const chunks: Buffer[] = [];
  const closed = once(socket, 'close');
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await closed;
  const received = Buffer.concat(chunks);
  if (socket.errored && !/ECONNRESET|EPIPE/.test(String(socket.errored)) && received.length === 0) throw socket.errored;
  return parsedResponse(received, bytes);
}

/** The bytes of an HTTP/1.1 response as a `Response`; `sent` names the request in the error when they are none. */
function parsedResponse(bytes: Buffer, sent: string): Response {
  const end = bytes.indexOf('\r\n\r\n');
  const [statusLine = '', ...fields] = bytes.subarray(0, Math.max(end, 0)).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (end === -1 || Number.isNaN(status))
    throw new Error(`no HTTP response to ${JSON.stringify(sent.split('\r\n')[0])}, only ${JSON.stringify(bytes.toString())}`);
  const headers = new Headers();
  for (const field of fields) headers.append(field.slice(0, field.indexOf(':')), field.slice(field.indexOf(':') + 1).trim());
  const length = Number(headers.get('content-length') ?? Number.NaN);
  const body = bytes.subarray(end + 4, Number.isNaN(length) ? undefined : end + 4 + length);
  // The body as bytes: a Response made from a string would claim a text/plain the mock never sent.
  return new Response(new Uint8Array(body), { status, headers });
}

/**
 * Sends `head` (a request line and header lines joined by CRLF) and `body` byte for byte, with
 * `Connection: close`, and parses the response the mock gives before it closes the connection.
 */
function rawExchange(port: number, head: string, body = ''): Promise<Response> {
  return rawBytes(port, `${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function portOf(mock: StartedMock): number {
  return Number(new URL(mock.baseUrl).port);
}

/** A path under the base path, as the request line names it. */
function target(mock: StartedMock, path: string): string {
  return new URL(mock.baseUrl).pathname + path;
}

let names = 0;
/** A name no other test uses, for a pet or a session. */
function unique(what: string): string {
  return `${what}-${process.pid}-${++names}`;
}

/** Creates a pet with the key and resolves with it, as the 201 acknowledged it: a Pet of the spec. */
async function createPet(mock: StartedMock, name = unique('pet')) {
  const created = await call(mock, '/pets', {
    method: 'POST',
    headers: { ...bearer(mock), 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  expect(created.response.status, created.text).toBe(201);
  if (!validators.Pet(created.json)) throw new Error(`the 201 holds no Pet: ${created.text}`);
  return created.json;
}

/** The ids of the pets of a session, as the API lists them. */
async function petIds(mock: StartedMock, session: string) {
  const listed = await call(mock, `/pets?${FULL_PAGE}`, { headers: { ...bearer(mock), 'x-mock-session': session } });
  expect(listed.response.status, listed.text).toBe(200);
  if (!validators.Pets(listed.json)) throw new Error(`the 200 holds no Pets: ${listed.text}`);
  return listed.json.map((pet) => pet.id);
}

/**
 * Resolves with the whole log once it holds a line starting with `start`, or after 30 s (a hang's bound:
 * a busy machine may write it late, and a check of a log without it would pass unread). A loop, not
 * `expect.poll`: that needs to know its test, which it cannot while the modes run side by side.
 */
async function logged(mock: StartedMock, start: string): Promise<string> {
  const until = Date.now() + 30_000;
  while (
    !mock
      .log()
      .split('\n')
      .some((line) => line.startsWith(start)) &&
    Date.now() < until
  )
    await setTimeout(20);
  return mock.log();
}

const foreignHost: Guarantee = {
  name: 'a foreign `Host` is a 403 Error (DNS rebinding), on the API and the admin',
  async check(mock) {
    for (const path of [target(mock, '/pets'), '/__mock/health']) {
      const response = await rawExchange(portOf(mock), `GET ${path} HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${mock.key}`);
      // The host guard answers before it tells the API from the admin: its rejection has the API's CORS everywhere.
      expectError(await answer(response), 403);
    }
  },
};

const keyRequired: Guarantee = {
  name: 'no key or a wrong key is a 401 Error with `WWW-Authenticate: Bearer`, and creates nothing',
  async check(mock) {
    const session = unique('no-key');
    const before = await petIds(mock, session);
    for (const credential of [{}, { authorization: 'Bearer not-the-key' }, { authorization: mock.key }]) {
      const refused = await call(mock, '/pets', {
        method: 'POST',
        headers: { ...credential, 'content-type': 'application/json', 'x-mock-session': session },
        body: JSON.stringify({ name: unique('intruder'), categoryId: 1 }),
      });
      expectError(refused, 401);
      expect(refused.response.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(await petIds(mock, session)).toEqual(before);
  },
};

const adminRejectsPages: Guarantee = {
  name: 'the admin rejects what a page elsewhere sends: a foreign `Origin`, `Origin: null`, `Sec-Fetch-Site: cross-site` (403, nothing reset)',
  async check(mock) {
    const pet = await createPet(mock);
    const host = `Host: 127.0.0.1:${portOf(mock)}`;
    // What a page may send unasked: a simple POST with a text/plain body, and what the browser adds.
    for (const page of ['Origin: http://evil.example', 'Origin: null', 'Sec-Fetch-Site: cross-site']) {
      const response = await rawExchange(portOf(mock), `POST /__mock/reset HTTP/1.1\r\n${host}\r\n${page}\r\nContent-Type: text/plain`, '{}');
      expectError(await answer(response, { admin: true }), 403);
    }
    const kept = await call(mock, `/pets/${pet.id}`, { headers: bearer(mock) });
    expect(kept.response.status, kept.text).toBe(200);
  },
};

const adminForScripts: Guarantee = {
  name: 'a script’s `POST /__mock/reset` as README writes it (no header, no body) is accepted',
  async check(mock) {
    const reset = await call(mock, '/__mock/reset', { method: 'POST' });
    expect(reset.response.status, reset.text).toBeLessThan(300);
  },
};

const everyResponseIsError: Guarantee = {
  name: 'an unknown path, a method the path lacks (405) and a malformed request line are the spec’s Error JSON',
  async check(mock) {
    expectError(await call(mock, '/no-such-path', { headers: bearer(mock) }), 404);
    expectError(await call(mock, '/pets', { method: 'DELETE', headers: bearer(mock) }), 405);
    // A method in lower case: Node's parser rejects it before the mock sees the request.
    const malformed = await rawExchange(portOf(mock), `get ${target(mock, '/pets')} HTTP/1.1\r\nHost: 127.0.0.1`);
    expectError(await answer(malformed), 400);
  },
};

const expectationIsError: Guarantee = {
  name: 'an `Expect` the mock cannot meet is the spec’s Error JSON',
  async check(mock) {
    const response = await rawExchange(
      portOf(mock),
      `GET ${target(mock, '/pets')} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\nAuthorization: Bearer ${mock.key}`,
    );
    expectError(await answer(response), 417);
  },
};

const bodyIsUtf8: Guarantee = {
  name: 'a JSON body that is not UTF-8 is a 400 Error naming the body, and creates nothing',
  async check(mock) {
    const session = unique('latin1');
    const before = await petIds(mock, session);
    // RFC 8259 requires UTF-8: 0xFF 0xFE is no UTF-8 at all, and must not become U+FFFD in a stored name.
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]);
    const refused = await call(mock, '/pets', {
      method: 'POST',
      headers: { ...bearer(mock), 'content-type': 'application/json', 'x-mock-session': session },
      body: new Uint8Array(body),
    });
    expectError(refused, 400, /body/i);
    expect(await petIds(mock, session)).toEqual(before);
  },
};

const logHidesQueryKey: Guarantee = {
  name: 'the request log holds no key sent in the query',
  async check(mock) {
    const marker = unique('q');
    await call(mock, `/pets?limit=1&${marker}=${encodeURIComponent(mock.key)}`, { headers: bearer(mock) });
    expect(await logged(mock, `GET ${target(mock, '/pets')}?limit=1&${marker}=`)).not.toContain(mock.key);
  },
};

const logHidesKeyElsewhere: Guarantee = {
  name: 'the request log holds no key inside a path segment, after `Bearer `, in the userinfo of an absolute-form target or as a session name',
  async check(mock) {
    for (const path of [`/pets/${mock.key}.json`, `/pets/1;k=${mock.key}`, `/pets/Bearer%20${mock.key}`]) await call(mock, path, { headers: bearer(mock) });
    const absolute = `http://user:${mock.key}@127.0.0.1:${portOf(mock)}${target(mock, '/pets')}?limit=3`;
    await rawExchange(portOf(mock), `GET ${absolute} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.key}`);
    await call(mock, '/pets?limit=2', { headers: { ...bearer(mock), 'x-mock-session': mock.key } });
    expect(await logged(mock, `GET ${target(mock, '/pets')}?limit=2`)).not.toContain(mock.key);
  },
};

const createsAreKept: Guarantee = {
  name: 'an acknowledged create is readable afterwards (201, then 200 with the same pet)',
  async check(mock) {
    // Several at once, so that with workers they land on different processes.
    const pets = await Promise.all(Array.from({ length: 6 }, () => createPet(mock)));
    for (const pet of pets) {
      const read = await call(mock, `/pets/${pet.id}`, { headers: bearer(mock) });
      expect(read.response.status, read.text).toBe(200);
      expect(read.json).toEqual(pet);
    }
  },
};

/** Whether `ids` run one way, up or down: a profile may list pets newest first. */
function inOneOrder(ids: readonly number[]): boolean {
  const up = ids.every((id, i) => i === 0 || (ids[i - 1] as number) < id);
  return up || ids.every((id, i) => i === 0 || (ids[i - 1] as number) > id);
}

const STATUSES = ['available', 'pending', 'sold'] as const;

const concurrentCreates: Guarantee = {
  name: 'parallel creates of mixed statuses each get an id of their own and are listed once, under their status; a list read meanwhile shows only whole pets',
  async check(mock) {
    const session = unique('parallel');
    const headers = { ...bearer(mock), 'x-mock-session': session };
    const listOf = async (status: string) => {
      const listed = await call(mock, `/pets?status=${status}&${FULL_PAGE}`, { headers });
      expect(listed.response.status, listed.text).toBe(200);
      if (!validators.Pets(listed.json)) throw new Error(`a list read during creates holds no Pets: ${listed.text}`);
      return listed.json;
    };
    await listOf('sold'); // opens the session before the burst
    let writing = true;
    const pages: { id: number; status?: string }[][] = [];
    const reader = (async () => {
      while (writing) pages.push(await listOf('sold'));
    })();
    // At once, so that Redis takes them as batches and workers split them.
    const created = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const made = await call(mock, '/pets', {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ name: unique('parallel'), categoryId: 1, status: STATUSES[i % 3] }),
        });
        expect(made.response.status, made.text).toBe(201);
        if (!validators.Pet(made.json)) throw new Error(`the 201 holds no Pet: ${made.text}`);
        return made.json;
      }),
    );
    writing = false;
    await reader;
    expect(new Set(created.map((pet) => pet.id)).size).toBe(created.length);
    for (const page of pages) {
      expect(page.every((pet) => pet.status === 'sold')).toBe(true);
      expect(inOneOrder(page.map((pet) => pet.id))).toBe(true);
    }
    for (const pet of created) {
      const read = await call(mock, `/pets/${pet.id}`, { headers });
      expect(read.json).toEqual(pet);
    }
    for (const status of STATUSES) {
      const ids = (await listOf(status)).map((pet) => pet.id);
      expect(inOneOrder(ids)).toBe(true);
      for (const pet of created)
        expect(ids.filter((id) => id === pet.id).length, `pet ${pet.id} (${pet.status}) in the ${status} list`).toBe(pet.status === status ? 1 : 0);
    }
  },
};

const defaultKeyBeyondLoopback: Guarantee = {
  name: '`--host 0.0.0.0` with the public default key, taken unsaid or given as a key (`--api-key petstore-dev-key`), exits 2 before it listens',
  async check(mock) {
    // Given as a key too (ninth red team, #4): its value is what is public.
    for (const key of [[], ['--api-key', 'petstore-dev-key']]) {
      const outcome = await startMockCli([...(await mock.flagsAgain()), '--host', '0.0.0.0', '--port', '0', ...key]).then(
        async (started) => {
          await started.stop();
          return 'it listened';
        },
        (error: unknown) => String(error),
      );
      expect(outcome, key.join(' ')).toMatch(/exited with 2 before listening: .*--api-key/s);
    }
  },
};

const forced429RetryAfter: Guarantee = {
  name: 'a forced 429 or 503 (`Prefer: code=`, `__code=`) carries `Retry-After`',
  async check(mock) {
    for (const [path, prefer] of [
      ['/pets', 'code=429'],
      ['/pets?__code=503', undefined],
    ] as const) {
      const limited = await call(mock, path, { headers: { ...bearer(mock), ...(prefer === undefined ? {} : { prefer }) } });
      expectError(limited, prefer === undefined ? 503 : 429);
      expect(limited.response.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  },
};

const dotSegments: Guarantee = {
  name: 'a dot segment, plain or percent-encoded, never leads a request elsewhere: `/v1/x/../pets` is an Error, not the list',
  async check(mock) {
    for (const path of ['/x/../pets', '/x/%2e%2e/pets', '/x/%2E%2e/pets', '/x/.%2e/pets', '/x/%252e%252e/pets', '/./pets', '/x/..%2fpets']) {
      const response = await rawExchange(portOf(mock), `GET ${target(mock, path)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.key}`);
      const refused = await answer(response);
      expect([400, 404], `${path}: ${refused.text}`).toContain(refused.response.status);
      expectError(refused, refused.response.status);
    }
  },
};

const connectIsError: Guarantee = {
  name: '`CONNECT` is an Error, after the host guard (a foreign `Host` is the 403), and opens no tunnel',
  async check(mock) {
    const tunnel = (host: string) => `CONNECT 127.0.0.1:${portOf(mock)} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${mock.key}\r\n\r\n`;
    expectError(await answer(await rawBytes(portOf(mock), tunnel('evil.example'))), 403);
    expectError(await answer(await rawBytes(portOf(mock), tunnel(`127.0.0.1:${portOf(mock)}`))), 400);
  },
};

/** A body past the 1 MiB every operation accepts. */
const TOO_LARGE = 1024 * 1024 + 1;

const bodyCap: Guarantee = {
  name: 'a body over 1 MiB is a 413 Error, declared or streamed, at once, and creates nothing',
  async check(mock) {
    const session = unique('large');
    const before = await petIds(mock, session);
    const head = `POST ${target(mock, '/pets')} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.key}\r\nX-Mock-Session: ${session}\r\nContent-Type: application/json`;
    // Declared and never sent: a mock that waits for the body before it refuses keeps the connection open.
    expectError(await answer(await rawBytes(portOf(mock), `${head}\r\nContent-Length: ${TOO_LARGE}\r\n\r\n`)), 413);
    // Streamed in chunks without a length, and never ended: the mock must stop at 1 MiB, not at the end.
    const chunk = `{"name":"${'a'.repeat(TOO_LARGE)}`;
    const streamed = `${head}\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`;
    expectError(await answer(await rawBytes(portOf(mock), streamed)), 413);
    expect(await petIds(mock, session)).toEqual(before);
  },
};

/**
 * How long a slow client may wait, beyond the limit, before the check fails: the mock looks for expired
 * requests once a second, and a loaded machine is slow. Within it, a mode without limits would hold on.
 */
const SLOW_CLIENT_SLACK_MS = 15_000;

const slowClients: Guarantee = {
  name: 'a client too slow with its headers or its body is a 408 Error and cut off; an idle keep-alive connection is closed',
  async check(mock) {
    const line = `POST ${target(mock, '/pets')} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.key}`;
    const within = mock.limits.requestMs + SLOW_CLIENT_SLACK_MS;
    // Headers that never end, then a body that never ends.
    expectError(await answer(await rawBytes(portOf(mock), `${line}\r\nContent-Type: application/json`, within)), 408);
    expectError(await answer(await rawBytes(portOf(mock), `${line}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"name":`, within)), 408);
    // A request served on a kept-alive connection, which the client then leaves idle: the mock closes it.
    const kept = await rawBytes(
      portOf(mock),
      `GET ${target(mock, '/pets?limit=1')} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.key}\r\n\r\n`,
      mock.limits.keepAliveMs + SLOW_CLIENT_SLACK_MS,
    );
    expect(kept.status).toBe(200);
  },
};

const clientGoesAway: Guarantee = {
  name: 'a client that goes away in the middle of its body leaves the mode serving',
  async check(mock) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const socket = connect(portOf(mock), '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        `POST ${target(mock, '/pets')} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.key}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"name":`,
      );
      await setTimeout(100);
      socket.resetAndDestroy();
    }
    const listed = await call(mock, '/pets?limit=1', { headers: bearer(mock) });
    expect(listed.response.status, listed.text).toBe(200);
  },
};

const paddedKey: Guarantee = {
  name: 'a base64 key ending in `=` is a key, never a `label=key`: the mode starts with it, accepts it, and never prints it',
  async check(mock) {
    // As `openssl rand -base64 20` makes them: 28 characters, `+` and `/` among them, one `=` at the end.
    const padded = 'q3Vx9+Lm/Kp2Wz8Rt5Yb1Nc4Hd7=';
    const again = await startMockCli([...(await mock.flagsAgain()), '--port', '0', '--api-key', padded]);
    try {
      const listed = await call({ ...mock, baseUrl: again.url, key: padded }, '/pets?limit=1', { headers: { authorization: `Bearer ${padded}` } });
      expect(listed.response.status, listed.text).toBe(200);
    } finally {
      await again.stop();
    }
    expect(again.stdout() + again.stderr()).not.toContain(padded);
  },
};

const FAULTED_BODY = JSON.stringify({ name: 'Never', categoryId: 1 });

const faultBreaksBeforeResponse: Guarantee = {
  name: 'a create asking for `Prefer: fault=reset` has its connection reset before any byte, and creates nothing',
  async check(mock) {
    const session = unique('fault');
    const before = await petIds(mock, session);
    const head = [
      `POST ${target(mock, '/pets')} HTTP/1.1`,
      `Host: 127.0.0.1:${portOf(mock)}`,
      `Authorization: Bearer ${mock.key}`,
      'Content-Type: application/json',
      'Prefer: fault=reset',
      `X-Mock-Session: ${session}`,
    ].join('\r\n');
    const outcome = await rawExchange(portOf(mock), head, FAULTED_BODY).then(
      (response) => `a ${response.status} response`,
      (error: unknown) => String(error),
    );
    expect(outcome).toMatch(/ECONNRESET/);
    expect(await petIds(mock, session)).toEqual(before);
  },
};

/** What docs/mock-faults.md says a client sees of each fault a request asks for, pipelined behind a plain GET. */
const PIPELINED_FAULTS = { reset: '200 ECONNRESET', close: '200 end', garbage: '200 garbage end', truncate: '200,200 cut end', slow: '200,200 end' };

const everyConnectionEnds: Guarantee = {
  name: 'every connection ends: a request pipelined behind another (two in one write) gets the `fault=` it asks for, a `HEAD` with `fault=truncate` its whole head, then the close, and a request asking to upgrade its answer, then the close',
  async check(mock) {
    const auth = `Authorization: Bearer ${mock.key}`;
    const path = target(mock, '/pets?limit=1');
    for (const [kind, outline] of Object.entries(PIPELINED_FAULTS)) {
      if (kind === 'reset' && !CLIENT_SEES_RESET) continue;
      const wire = await pipeline(portOf(mock), [
        rawRequest('GET', path, [auth]),
        rawRequest('GET', path, [auth, `Prefer: fault=${kind}, trickle=100`, 'Connection: close']),
      ]);
      expect(exchangeOutline(wire), `fault=${kind}`).toBe(outline);
    }
    expect(exchangeOutline(await pipeline(portOf(mock), [rawRequest('HEAD', path, [auth, 'Prefer: fault=truncate'])]))).toBe('200 end');
    // Node's parser reads nothing after it: the request pipelined behind was left unanswered on an open connection.
    const upgrade = rawRequest('GET', path, [auth, 'Connection: Upgrade', 'Upgrade: websocket']);
    expect(exchangeOutline(await pipeline(portOf(mock), [upgrade, rawRequest('GET', path, [auth])]))).toBe('200 end');
  },
};

/** What a client sees of each fault a `HEAD` asks for (docs/mock-faults.md): a GET's, with no body to cut or trickle. */
const HEAD_FAULTS = { reset: 'ECONNRESET', close: 'end', garbage: 'garbage end', truncate: '200 end', slow: '200 end' };

/** The status and `Content-Length` of the answer to one request with these header lines, on a connection of its own. */
async function headOf(mock: StartedMock, method: string, path: string, lines: readonly string[]): Promise<string> {
  const [response] = (await pipeline(portOf(mock), [rawRequest(method, path, [...lines, 'Connection: close'])])).responses;
  return `${response?.status} ${response?.headers['content-length']}${method === 'HEAD' && response?.body.length ? ' with a body' : ''}`;
}

const headIsGet: Guarantee = {
  name: 'a `HEAD` is a GET without the body (RFC 9110 §9.3.2): it gets each `fault=`, `code=` and `auth=expired` a GET gets, never forwarded by `--proxy`, and the head a GET has, its `Content-Length` too; its empty body is never a drift or a violation',
  async check(mock) {
    const auth = `Authorization: Bearer ${mock.key}`;
    const path = target(mock, '/pets?limit=2');
    for (const [kind, outline] of Object.entries(HEAD_FAULTS)) {
      if (kind === 'reset' && !CLIENT_SEES_RESET) continue;
      const wire = await pipeline(portOf(mock), [rawRequest('HEAD', path, [auth, `Prefer: fault=${kind}, trickle=100`, 'Connection: close'])]);
      expect(exchangeOutline(wire), `HEAD fault=${kind}`).toBe(outline);
    }
    for (const lines of [[auth], [auth, 'Prefer: code=503'], [auth, 'Prefer: auth=expired'], [auth, 'Prefer: code=418']]) {
      const [get, head] = [await headOf(mock, 'GET', path, lines), await headOf(mock, 'HEAD', path, lines)];
      expect(head, lines.join(', ')).toBe(get);
    }
    await setTimeout(200);
    expect(
      mock
        .log()
        .split('\n')
        .filter((line) => /HEAD .*(drift|violation)|(drift|violation).*HEAD /i.test(line)),
    ).toEqual([]);
  },
};

const preferNeverEchoed: Guarantee = {
  name: 'a bad `Prefer` value is a 400 Error naming the preference, never quoting its value: the key sent as `fault=`, `code=`, `auth=` or `__trickle=`, plain or base64, never comes back',
  async check(mock) {
    const forms = [mock.key, Buffer.from(`u:${mock.key}`).toString('base64')];
    for (const form of forms) {
      const asked = [
        { path: '/pets', prefer: `fault=${form}` },
        { path: '/pets/1', prefer: `code=${form}` },
        { path: '/pets', prefer: `auth=${form}; delay=5` },
        { path: `/pets?__fault=slow&__trickle=${encodeURIComponent(form)}`, prefer: undefined },
      ];
      for (const { path, prefer } of asked) {
        const answered = await call(mock, path, { headers: { ...bearer(mock), ...(prefer === undefined ? {} : { prefer }) } });
        expectError(answered, 400, /^(Prefer: [a-z]+|__[a-z]+)=…: /);
        expect(keysRevealed(answered.text, [mock.key]), `${path} ${prefer}`).toEqual([]);
      }
    }
  },
};

/** Journal reads a client pipelines without reading an answer: each answer is a journal of 2 MB. */
const UNREAD_READS = 40;

const unreadAnswersBounded: Guarantee = {
  name: 'a client that pipelines 40 reads of a 2 MB journal and reads no answer is answered one request at a time, only as its answers leave (at most 10 of them), and its connection is reset once none leaves for the drain limit',
  timeoutMs: 90_000,
  async check(mock) {
    const session = unique('unread');
    await longRequests(mock, session, 150, String);
    const reads = () => mock.log().split('GET /__mock/requests ').length;
    const before = reads();
    // The client reads nothing until the mode, having answered some, has answered nothing more for 10 s
    // (the connection is closed within two drain limits: the limit, checked as often; a journal read
    // through Redis takes seconds on a busy machine), or for 60 s.
    const settled = (async () => {
      let [count, since] = [before, Date.now()];
      for (const until = Date.now() + 60_000; Date.now() < until && Date.now() - since < Math.max(10_000, mock.limits.drainMs * 3); await setTimeout(100))
        if (reads() !== count || count === before) [count, since] = [reads(), Date.now()];
    })();
    const exchange = await unreadPipeline(portOf(mock), rawRequest('GET', '/__mock/requests', [`X-Mock-Session: ${session}`]), UNREAD_READS, settled);
    expect(exchange.ended).not.toBe('open');
    // Reset, not closed: a close leaves the kernel sending what it holds (megabytes) at the client's pace.
    if (CLIENT_SEES_RESET) expect(exchange.ended).toBe('ECONNRESET');
    expect(reads() - before).toBeLessThanOrEqual(10);
    expect(exchange.answers).toBeLessThanOrEqual(10);
  },
};

const relayedIsData: Guarantee = {
  name: 'a deployment’s answer relayed by `--proxy` is data: `nosniff` and `Content-Security-Policy: sandbox`, with only the headers the spec documents for it and those HTTP needs to read it, each within 256 characters (no connection field, CORS, cookie, report, policy, freshness, `Basic` challenge, or `Location` or `Link` off the API); its text escaped on the terminal',
  only: ['--proxy'],
  async check(mock) {
    // The mode once more, in front of a hostile deployment instead of its own.
    const hostile = await hostileOriginDeployment();
    const flags = [...(await mock.flagsAgain())];
    flags[flags.indexOf('--proxy') + 1] = hostile.url;
    const again = await startMockCli([...flags, '--port', '0', '--api-key', mock.key]);
    try {
      const port = Number(new URL(again.url).port);
      const auth = `Authorization: Bearer ${mock.key}`;
      const [page] = (await pipeline(port, [rawRequest('GET', target(mock, '/pets/7'), [auth, 'Connection: close'])])).responses;
      expect(page?.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox', 'access-control-allow-origin': '*' });
      expect(DROPPED_FIELDS.filter((name) => page?.headers[name] !== undefined)).toEqual([]);
      const [created] = (
        await pipeline(port, [
          rawRequest('POST', target(mock, '/pets'), [auth, 'Content-Type: application/json', 'Connection: close'], '{"name":"Rex","categoryId":1}'),
        ])
      ).responses;
      expect(JSON.parse(created?.body.toString() ?? '{}')).toMatchObject({ name: `Rex${TERMINAL_ESCAPES}` });
      const until = Date.now() + 5_000;
      while (!again.stderr().includes('drift (field)') && Date.now() < until) await setTimeout(20);
      expect(again.stderr()).toContain('Rex\\u001b[2J');
      expect(ACTING_CHARACTERS.filter((code) => again.stderr().includes(code))).toEqual([]);
    } finally {
      await again.stop();
      await hostile.close();
    }
  },
};

/** How the mode started with `flags` besides its own ended: `it listened`, or the error that says it exited before. */
async function startedWith(mock: StartedMock, flags: readonly string[]): Promise<string> {
  return startMockCli([...(await mock.flagsAgain()), '--port', '0', '--api-key', mock.key, ...flags]).then(
    async (started) => {
      await started.stop();
      return 'it listened';
    },
    (error: unknown) => String(error),
  );
}

const inputsRefused: Guarantee = {
  name: "`--host ''` and a `--now` off the calendar (`2030-02-30T00:00:00Z`) exit 2 before listening, naming the flag and a value to give",
  async check(mock) {
    expect(await startedWith(mock, ['--host', ''])).toMatch(
      /exited with 2 before listening: .*--host.*Expected an interface to bind: an IP address such as 127\.0\.0\.1/s,
    );
    expect(await startedWith(mock, ['--now', '2030-02-30T00:00:00Z'])).toMatch(
      /exited with 2 before listening: .*--now.*February 2030 has 28 days\. Give a date of the calendar, such as 2030-12-06T00:00:00Z/s,
    );
  },
};

const oneSpellingOfAnId: Guarantee = {
  name: '`GET /v1/pets/-0` is a 400 Error naming `petId`, never pet 0: an id has one spelling',
  async check(mock) {
    const refused = await call(mock, '/pets/-0', { headers: bearer(mock) });
    expectError(refused, 400);
    expect(refused.text).toMatch(/petId/);
  },
};

const oneValueOnce: Guarantee = {
  name: '`GET /v1/pets?limit=1&limit=2` is a 400 Error naming `limit`: a parameter that takes one value is given once',
  async check(mock) {
    const refused = await call(mock, '/pets?limit=1&limit=2', { headers: bearer(mock) });
    expectError(refused, 400);
    expect(refused.text).toMatch(/limit is given 2 times/);
  },
};

const malformedHostPort: Guarantee = {
  name: 'a `Host` whose port is no number (`localhost:abc`) or that holds a zone id (`[::1%25evil.example]`) is a 400 Error, on the API and the admin',
  async check(mock) {
    for (const path of [target(mock, '/pets'), '/__mock/health'])
      for (const host of ['localhost:abc', '[::1%25evil.example]']) {
        const response = await rawExchange(portOf(mock), `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${mock.key}`);
        // The host guard answers before it tells the API from the admin: its rejection has the API's CORS everywhere.
        expectError(await answer(response), 400, new RegExp(`Host header "${host.replace(/[[\]]/g, '\\$&')}" is malformed`));
      }
  },
};

const filesBounded: Guarantee = {
  name: '`--data /dev/zero` and `--profile /dev/zero` exit 2 at once, naming the flag; a YAML `--data` 20,000 levels deep exits 2 with a sentence, not a stack overflow',
  async check(mock) {
    for (const flag of ['--data', '--profile'])
      expect(await startedWith(mock, [flag, '/dev/zero'])).toMatch(
        new RegExp(`exited with 2 before listening: petstore-mock: ${flag} /dev/zero: It cannot be read: it is a character device`),
      );
    const folder = await mkdtemp(join(tmpdir(), 'petstore-guarantee-files-'));
    try {
      const deep = join(folder, 'deep.yaml');
      await writeFile(deep, `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
      expect(await startedWith(mock, ['--data', deep])).toMatch(
        /exited with 2 before listening: .*--data .*: it is not YAML: it nests deeper than 128 levels/s,
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  },
};

/** The journal of `session`, read once: every mode lists a request as soon as it was answered, whichever worker answered it. */
async function journalled(mock: StartedMock, session: string): Promise<{ readonly text: string; readonly entries: readonly unknown[] }> {
  const read = await call(mock, '/__mock/requests', { headers: { 'x-mock-session': session } });
  expect(read.response.status, read.text).toBe(200);
  return { text: read.text, entries: (read.json as { entries?: unknown[] }).entries ?? [] };
}

const journalHoldsRequests: Guarantee = {
  name: 'the request journal (`GET /__mock/requests`) lists a request just answered, its key hidden',
  async check(mock) {
    const session = unique('journal');
    const listed = await call(mock, '/pets?limit=1', { headers: { ...bearer(mock), 'x-mock-session': session } });
    expect(listed.response.status, listed.text).toBe(200);
    const { text, entries } = await journalled(mock, session);
    expect(entries).toEqual([
      expect.objectContaining({ method: 'GET', path: `${new URL(mock.baseUrl).pathname}/pets`, query: 'limit=1', status: 200, session }),
    ]);
    expect(entries[0]).toMatchObject({ headers: { authorization: 'Bearer ***' } });
    expect(text).not.toContain(mock.key);
  },
};

const expectRequestsBounded: Guarantee = {
  name: '`expectRequests(url)` reads the mode’s journal within its bounds (5 MiB, 10 s) and finds a request just answered',
  async check(mock) {
    const session = unique('expect');
    await call(mock, '/pets?limit=2', { headers: { ...bearer(mock), 'x-mock-session': session } });
    const found = await expectRequests(mock.baseUrl, { session, within: 5_000 }).toInclude({
      method: 'GET',
      path: target(mock, '/pets'),
      query: { limit: '2' },
    });
    expect(found).toHaveLength(1);
  },
};

const keyInNoEncoding: Guarantee = {
  name: 'no encoding of the key (base64 at any offset, as `Basic` writes it; percent, nested; JSON `\\u` escapes; a session named after it) reaches the request log, the journal, an admin answer or a Redis message',
  async check(mock) {
    const done = unique('sent');
    let answers = '';
    const exercise = async () => {
      await sendKeyEverywhere(mock.baseUrl, mock.key, mock.key);
      await call(mock, `/pets?limit=1&${done}=1`, { headers: bearer(mock) });
      answers = await adminAnswers(mock.baseUrl, mock.key);
    };
    // The cluster's journal is read through Redis: its questions and answers are among the messages.
    const { redis } = mock;
    const messages = redis === undefined ? await exercise().then(() => '') : await published(redis, exercise);
    const log = await logged(mock, `GET ${target(mock, '/pets')}?limit=1&${done}=1`);
    // The surfaces did show what was sent, with the key hidden: the journal of a session named after it shows it so.
    expect(answers).toContain('"session":"s-***-1"');
    expect(keysRevealed([log, answers, messages].join('\n'), [mock.key])).toEqual([]);
  },
};

const keyUnderLayers: Guarantee = {
  name: 'no key under layers of encoding (HTML references, `\\x` and `\\u{}` escapes, full-width, dotted, base32, base64 of base64, hex of UTF-16; its bytes as numbers in any radix, its characters between a filler, base64 of UTF-16) in a query, a path or a body reaches the request log or the journal',
  async check(mock) {
    const done = unique('layers');
    const bearer = { authorization: `Bearer ${mock.key}` };
    const forms = Object.values(layeredKeyEncodings(mock.key));
    for (const form of forms) {
      await call(mock, `/pets?limit=1&k=${encodeURIComponent(form)}`, { headers: bearer });
      await call(mock, `/pets/${encodeURIComponent(form)}`, { headers: bearer });
      await call(mock, '/pets', {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ name: form, categoryId: 1 }),
      });
    }
    await call(mock, `/pets?limit=1&${done}=1`, { headers: bearer });
    const log = await logged(mock, `GET ${target(mock, '/pets')}?limit=1&${done}=1`);
    const journal = (await call(mock, '/__mock/requests')).text;
    const shown = forms
      .flatMap((form) => [form, encodeURIComponent(form), JSON.stringify(form).slice(1, -1)])
      .filter((form) => `${log}\n${journal}`.includes(form));
    expect(shown).toEqual([]);
    expect(journal).toContain('***');
  },
};

/** What a request refused for its key sends in the guarantee below: a credential of 15 KB, as the attack that grew a mock by 215 MB did. */
const REFUSED = { requests: 8_000, headerBytes: 15_000, connections: 8 } as const;
/**
 * How much each process of the mode may grow under them: about twice what one grows (15 to 35 MiB, the
 * heap Node grows for the headers it parses), under half of what each grew when every one of them
 * opened a journal ring (180 MiB a process at 8,000).
 */
const REFUSED_GROWTH_BYTES = 80 * 1024 * 1024;

/**
 * One kept-alive connection to the mode, written as raw bytes, one request at a time: the status of each
 * answer, once it is whole. A request the mode closed the connection on before answering (its idle
 * limit is lowered here) is sent again on a new one, twice at most, as a client may for a safe request
 * (RFC 9110 §9.2.2). Raw bytes rather than node:http: the guarantee sends thousands of requests, and
 * node:http's own work for each was about two thirds of the guarantee's CPU, the mode's included.
 */
class RawConnection {
  readonly #port: number;
  #socket: Socket | undefined;
  #received = Buffer.alloc(0);
  #pending: { resolve(status: number): void; reject(error: Error): void } | undefined;

  constructor(port: number) {
    this.#port = port;
  }

  async status(bytes: string): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await new Promise<number>((resolve, reject) => {
          this.#pending = { resolve, reject };
          this.#open().write(bytes);
        });
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }

  close(): void {
    this.#socket?.destroy();
  }

  #open(): Socket {
    if (this.#socket !== undefined) return this.#socket;
    const socket = connect(this.#port, '127.0.0.1');
    this.#received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      this.#received = Buffer.concat([this.#received, chunk]);
      this.#answered();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (this.#socket === socket) this.#socket = undefined;
      const pending = this.#pending;
      this.#pending = undefined;
      pending?.reject(new Error('the mode closed the connection before it answered'));
    });
    this.#socket = socket;
    return socket;
  }

  /** Settles the request waiting once its answer is whole: its head, and the body its `Content-Length` declares. */
  #answered(): void {
    const end = this.#received.indexOf('\r\n\r\n');
    if (end === -1) return;
    const head = this.#received.subarray(0, end).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
    if (length === undefined) {
      this.#pending?.reject(new Error(`an answer without Content-Length, which this client cannot read: ${head}`));
      this.#pending = undefined;
      this.#socket?.destroy();
      return;
    }
    if (this.#received.length < end + 4 + Number(length)) return;
    this.#received = this.#received.subarray(end + 4 + Number(length));
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]));
  }
}

const refusedOpensNothing: Guarantee = {
  name: 'a request refused for its key opens nothing: 8,000 of them (1,000 where a mode refuses on the path of one sent 8,000), each naming a new session with 15 KB of headers, open no session and no journal, and leave each process of the mode within 80 MiB of its memory',
  timeoutMs: 240_000,
  async check(mock) {
    const prefix = unique('refused');
    const credential = `Basic ${'x'.repeat(REFUSED.headerBytes)}`;
    const requests = mock.refusedRequests ?? REFUSED.requests;
    const before = residentBytes(mock.pid);
    let sent = 0;
    const line = `GET ${target(mock, '/pets?limit=1')} HTTP/1.1\r\nHost: 127.0.0.1:${portOf(mock)}\r\nAuthorization: ${credential}\r\n`;
    // Each answer other than a refusal: for its key, or, when the suite's lowered limits meet a loaded
    // machine, as a client too slow (408). Checked once at the end: an `expect` per answer was a third of the client's CPU.
    const unrefused: { session: number; status: number }[] = [];
    const connection = async () => {
      const raw = new RawConnection(portOf(mock));
      try {
        while (sent < requests) {
          const session = sent++;
          const status = await raw.status(`${line}X-Mock-Session: ${prefix}-${session}\r\n\r\n`);
          if (status !== 401 && status !== 408) unrefused.push({ session, status });
        }
      } finally {
        raw.close();
      }
    };
    await Promise.all(Array.from({ length: REFUSED.connections }, connection));
    expect(unrefused).toEqual([]);
    const after = residentBytes(mock.pid);
    const sessions = await call(mock, '/__mock/sessions');
    expect(sessions.text).not.toContain(prefix);
    expect((await journalled(mock, `${prefix}-1`)).entries).toEqual([]);
    const grown = [...after].map(([pid, bytes]) => ({ pid, mib: Math.round((bytes - (before.get(pid) ?? bytes)) / 2 ** 20) }));
    expect(
      grown.filter(({ mib }) => mib * 2 ** 20 >= REFUSED_GROWTH_BYTES),
      JSON.stringify(grown),
    ).toEqual([]);
  },
};

/** What a session's journal holds at most on each replica (JOURNAL_SESSION_BYTES of src/mock/state/journal-ring.ts). */
const JOURNAL_SESSION_MIB = 4;

const journalBoundedInBytes: Guarantee = {
  name: 'a session’s journal holds its newest requests up to 4 MiB on each replica, however long their targets',
  async check(mock) {
    const session = unique('long');
    // 400 requests of 28 KB as the journal counts them (2 bytes a character): 4 MiB holds 148 of them on a replica.
    await longRequests(mock, session, 399, String);
    await longRequests(mock, session, 1, () => 'last');
    const { entries, text } = await journalled(mock, session);
    expect(entries.length).toBeGreaterThanOrEqual(100);
    expect(entries.length).toBeLessThan(400);
    // The newest request is kept (with two replicas, the newest of each, numbered as they are first read).
    expect(entries.filter((entry) => (entry as { query?: string }).query?.startsWith('limit=1&n=last&') === true)).toHaveLength(1);
    // Two replicas at most here, each within the bound.
    expect(text.length).toBeLessThan(2 * JOURNAL_SESSION_MIB * 2 ** 20);
  },
};

/**
 * Sends `count` requests of `session` with targets of 14 KB over 8 kept-alive connections, as raw bytes
 * (a `RawConnection`: fetch took twice the CPU to send them); `marker` tells them apart.
 */
async function longRequests(mock: StartedMock, session: string, count: number, marker: (i: number) => string): Promise<void> {
  const fields = `Host: 127.0.0.1:${portOf(mock)}\r\nAuthorization: Bearer ${mock.key}\r\nX-Mock-Session: ${session}\r\n\r\n`;
  const filler = 'x'.repeat(14_000);
  let sent = 0;
  const connection = async () => {
    const raw = new RawConnection(portOf(mock));
    try {
      while (sent < count) await raw.status(`GET ${target(mock, `/pets?limit=1&n=${marker(sent++)}&f=${filler}`)} HTTP/1.1\r\n${fields}`);
    } finally {
      raw.close();
    }
  };
  await Promise.all(Array.from({ length: 8 }, connection));
}

const concurrentJournalReads: Guarantee = {
  name: '200 reads at once of a journal of 1 MB are each answered with it, none a 503 (a replica busy answering reads is not one stopped)',
  async check(mock) {
    const session = unique('readers');
    // 1 MB that every read gathers (through Redis, from each replica) before it filters: reads that wait their
    // turn one by one take seconds, and each must still be answered.
    await longRequests(mock, session, 75, String);
    const created = await call(mock, '/pets', {
      method: 'POST',
      headers: { ...bearer(mock), 'x-mock-session': session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: unique('read'), categoryId: 1 }),
    });
    expect(created.response.status, created.text).toBe(201);
    // A read the suite's lowered limits on slow clients cut off (408: its headers waited on a busy
    // machine) is sent again, as a client would; what is guarded is a 503 saying a replica stopped.
    const read = async (tries = 3): Promise<{ status: number; text: string }> => {
      // The created pet's POST only: `call` sends a POST cut off with a 408 again, and the journal files both.
      const response = await fetch(urlOf(mock, '/__mock/requests?method=POST&status=201'), { headers: { 'x-mock-session': session } });
      const answer = { status: response.status, text: await response.text() };
      return answer.status === 408 && tries > 1 ? read(tries - 1) : answer;
    };
    const reads = await Promise.all(Array.from({ length: 200 }, () => read()));
    expect(reads.filter((read) => read.status !== 200)).toEqual([]);
    for (const { text } of reads) expect((JSON.parse(text) as { entries: unknown[] }).entries).toHaveLength(1);
  },
};

/** The largest answer the mock queues (`ANSWER_BYTES`, src/bounds/budget.ts), in MiB. */
const ANSWER_MIB = 4;

const pageBoundedInBytes: Guarantee = {
  name: 'a page of pets answers at most 4 MiB, the first pets that fit, however large their names (five of 1 MB: four); a page of usual pets is whole',
  async check(mock) {
    const session = unique('large');
    const headers = { ...bearer(mock), 'x-mock-session': session, 'content-type': 'application/json' };
    // Pending, and read by that status: `--proxy` does not forward the session, and the deployment's default
    // session holds the pets of every other guarantee, more than a page before these.
    // Names of a letter no number is written with, as what is bounded here is the page: five megabytes of
    // digits cost the mock twice the CPU of letters (1.4 s against 0.65 s), in the journal's search for the
    // key written as numbers (src/redact/decoded-forms.ts).
    for (const letter of 'ghijk') {
      const body = JSON.stringify({ name: letter.repeat(1_000_000), categoryId: 1, status: 'pending' });
      const created = await call(mock, '/pets', { method: 'POST', headers, body });
      expect(created.response.status, created.text.slice(0, 200)).toBe(201);
    }
    const full = await call(mock, `/pets?${FULL_PAGE}&status=pending`, { headers });
    expect(full.response.status, full.text.slice(0, 200)).toBe(200);
    expect(Buffer.byteLength(full.text)).toBeLessThanOrEqual(ANSWER_MIB * 2 ** 20);
    const pets = JSON.parse(full.text) as { name: string }[];
    const large = pets.filter((pet) => pet.name.length === 1_000_000);
    expect(large.length).toBeGreaterThan(0);
    expect(large.length).toBeLessThan(5);
    const usual = await call(mock, '/pets?limit=2', { headers: bearer(mock) });
    expect((JSON.parse(usual.text) as unknown[]).length).toBe(2);
  },
};

/** Every guarantee by a short name, in the order of the table in docs/guarantees.md. */
export const GUARANTEES = {
  foreignHost,
  keyRequired,
  adminRejectsPages,
  adminForScripts,
  everyResponseIsError,
  expectationIsError,
  bodyIsUtf8,
  logHidesQueryKey,
  logHidesKeyElsewhere,
  createsAreKept,
  concurrentCreates,
  defaultKeyBeyondLoopback,
  forced429RetryAfter,
  dotSegments,
  connectIsError,
  bodyCap,
  slowClients,
  clientGoesAway,
  paddedKey,
  faultBreaksBeforeResponse,
  everyConnectionEnds,
  headIsGet,
  preferNeverEchoed,
  unreadAnswersBounded,
  relayedIsData,
  inputsRefused,
  oneSpellingOfAnId,
  malformedHostPort,
  oneValueOnce,
  filesBounded,
  journalHoldsRequests,
  expectRequestsBounded,
  keyInNoEncoding,
  keyUnderLayers,
  refusedOpensNothing,
  journalBoundedInBytes,
  concurrentJournalReads,
  pageBoundedInBytes,
  sessionsPetsBounded,
  errorEchoBounded,
  clientTextInHeads,
  deploymentTextInHeads,
} satisfies Record<string, Guarantee>;

const ALL: readonly Guarantee[] = Object.values(GUARANTEES);

/** The gap of `gaps` that says `mode` does not keep `guarantee` yet, if one does. */
function gapOf(gaps: readonly KnownGap[], guarantee: Guarantee, mode: string): KnownGap | undefined {
  return gaps.find((gap) => gap.guarantee === guarantee && gap.modes.includes(mode));
}

/**
 * Runs every guarantee against `mode`, started once by `start` for all of them; those `gaps` lists run
 * as `it.fails`. Modes run side by side (each suite is concurrent with the other modes'), and the
 * guarantees of one mode one after another, as some count its pets.
 */
export function runGuarantees(mode: string, start: () => Promise<StartedMock>, gaps: readonly KnownGap[]): void {
  describe(`guarantees: ${mode}`, { concurrent: true }, () => {
    let mock: StartedMock;
    beforeAll(async () => {
      mock = await start();
    });
    afterAll(() => mock?.stop());
    describe('one at a time', { concurrent: false }, () => {
      for (const guarantee of ALL) {
        if (guarantee.only !== undefined && !guarantee.only.includes(mode)) continue;
        const gap = gapOf(gaps, guarantee, mode);
        if (gap === undefined) it(guarantee.name, () => guarantee.check(mock), guarantee.timeoutMs);
        else it.fails(`${guarantee.name} (known gap: ${gap.reason})`, () => guarantee.check(mock), guarantee.timeoutMs);
      }
    });
  });
}

/**
 * The table "guarantee × mode" of docs/guarantees.md as the suite runs it: ✓ tested and kept, ✗ a known
 * gap, numbered, — a promise about other modes; then the gaps by number, each with its reason and modes.
 */
export function guaranteeTable(modes: readonly string[], gaps: readonly KnownGap[]): string {
  const rows = ALL.map((guarantee) => {
    const cells = modes.map((mode) => {
      if (guarantee.only !== undefined && !guarantee.only.includes(mode)) return '—';
      const gap = gapOf(gaps, guarantee, mode);
      return gap === undefined ? '✓' : `✗ ${gaps.indexOf(gap) + 1}`;
    });
    return `| ${guarantee.name} | ${cells.join(' | ')} |`;
  });
  const listed = gaps.map(({ reason, modes: where }, index) => {
    const named = where.length === modes.length ? 'Every mode' : where.map((mode) => `\`${mode}\``).join(', ');
    return `${index + 1}. ${named}: ${reason}.`;
  });
  const header = [`| Guarantee | ${modes.map((mode) => `\`${mode}\``).join(' | ')} |`, `|---|${modes.map(() => '---').join('|')}|`];
  const known = gaps.length === 0 ? [] : ['', 'Known gaps (✗), each tested as `it.fails` until it is closed:', '', ...listed];
  return [...header, ...rows, ...known].join('\n');
}
