/**
 * What the Node server refuses before the handler, attacked from outside over real sockets: a Host it
 * does not serve (DNS rebinding), admin requests a page on another origin could send, requests Node's
 * parser refuses, and an ambiguous credential. Every refusal is the spec's Error body.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as validators from '../../src/generated/validators.js';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { ADMIN, JSON_HEADERS, KEY } from '../support/http-facts.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** Sends `bytes` as they are and reads the one answer the server gives before it closes. */
function raw(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body === '' ? undefined : JSON.parse(body) });
    });
    // A hang's bound, not a speed's: the mock answers and closes in milliseconds.
    setTimeout(() => socket.destroy(), 30_000).unref();
  });
}

/** A request through node:http, which, unlike fetch, sends the Host and Origin it is given. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string, address = '127.0.0.1'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ port, host: address, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string>, body: text === '' ? undefined : JSON.parse(text) }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

function expectError(answer: RawAnswer, status: number, message?: RegExp): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(validators.Error(answer.body), JSON.stringify(answer.body)).toBe(true);
  expect(answer.body).toMatchObject({ status });
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  if (message) expect((answer.body as { message: string }).message).toMatch(message);
}

describe('the Node server checks Host on every route', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, allowedHosts: ['mock.internal'] });
  });
  afterAll(() => server.close());

  for (const host of ['attacker.example', 'attacker.example:80', 'localhost.attacker.example', '127.0.0.1.nip.io']) {
    it(`refuses Host ${host} with a 403 Error, on the API and on the admin`, async () => {
      const api = await send(server.port, 'GET', '/v1/pets', { host, authorization: `Bearer ${KEY}` });
      expectError(api, 403, /does not serve the host.*--allowed-host/);
      expectError(await send(server.port, 'GET', '/__mock/health', { host }), 403);
      expectError(await send(server.port, 'POST', '/__mock/reset', { host, ...ADMIN }), 403);
    });
  }

  for (const host of ['localhost', `localhost:${4010}`, '127.0.0.1', '127.0.0.1:1', '[::1]:9', 'MOCK.internal:4010', 'mock.internal']) {
    it(`serves Host ${host}`, async () => {
      expect((await send(server.port, 'GET', '/v1/pets?limit=1', { host, authorization: `Bearer ${KEY}` })).status).toBe(200);
    });
  }

  it('serves the name it was bound by', async () => {
    const name = hostname();
    const bound = await startMockServer({ port: 0, host: name }).catch(() => undefined);
    // A machine whose own name does not resolve cannot bind by it; there is nothing to check then.
    if (bound === undefined) return;
    try {
      const answer = await send(bound.port, 'GET', '/v1/pets?limit=1', { host: `${name}:${bound.port}`, authorization: `Bearer ${KEY}` }, undefined, name);
      expect(answer.status).toBe(200);
    } finally {
      await bound.close();
    }
  });

  it('refuses a second, foreign Host behind an allowed one', async () => {
    const answer = await raw(
      server.port,
      `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    expectError(answer, 403);
  });

  it('answers an HTTP/1.1 request without Host with a 400 Error, and serves HTTP/1.0 without one', async () => {
    expectError(await raw(server.port, `GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`), 400, /Host/);
    expect((await raw(server.port, `GET /v1/pets?limit=1 HTTP/1.0\r\nAuthorization: Bearer ${KEY}\r\n\r\n`)).status).toBe(200);
  });
});

describe('the admin refuses what a page on another origin could send', () => {
  let server: MockServer;
  const host = () => `127.0.0.1:${server.port}`;
  const petCount = async () => ((await send(server.port, 'GET', '/__mock/health', { host: host() })).body as { pets: number }).pets;

  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('keeps its state against every simple cross-origin request, and answers them without CORS', async () => {
    await send(server.port, 'POST', '/v1/pets', { host: host(), ...JSON_HEADERS }, '{"name":"Rex","categoryId":1}');
    const forged: [string, string, Record<string, string>][] = [
      ['POST', '/__mock/reset', { origin: 'https://evil.example', 'content-type': 'text/plain' }],
      ['POST', '/__mock/reset', { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }],
      ['POST', '/__mock/reset', { origin: 'null' }],
      ['POST', '/__mock/reset', { origin: 'https://evil.example', ...ADMIN }],
      ['POST', '/__mock/reset', { origin: 'https://evil.example', 'content-type': 'application/json' }],
      ['POST', '/__mock/reset', { origin: `http://localhost:${server.port}`, ...ADMIN }],
      ['POST', '/__mock/clock', { origin: 'https://evil.example', 'content-type': 'text/plain' }],
      ['DELETE', '/__mock/coverage', { origin: 'https://evil.example' }],
      ['GET', '/__mock/health', { origin: 'https://evil.example' }],
    ];
    for (const [method, path, headers] of forged) {
      const answer = await send(server.port, method, path, { host: host(), ...headers }, method === 'POST' ? '{"now":"2031-01-01T00:00:00Z"}' : undefined);
      expectError(answer, 403, /other origins/);
      expect(answer.headers['access-control-allow-origin'], `${method} ${path}`).toBeUndefined();
    }
    expect(await petCount()).toBe(51);
  });

  // Issue 23, by design: a write without Origin was refused unless JSON or marked X-Mock-Admin; a
  // browser sends Origin with every write a page makes, so now only Sec-Fetch-Site from another site
  // is refused without it, and a write of the mock's own origin still needs JSON or X-Mock-Admin.
  it('refuses a write marked as sent from another site, and an unmarked one of its own origin', async () => {
    for (const site of ['cross-site', 'same-site']) {
      for (const headers of [{}, { 'content-type': 'text/plain' }, { ...ADMIN }]) {
        expectError(await send(server.port, 'POST', '/__mock/reset', { host: host(), 'sec-fetch-site': site, ...headers }), 403, /Sec-Fetch-Site/);
      }
    }
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'multipart/form-data; boundary=x' }]) {
      expectError(
        await send(server.port, 'POST', '/__mock/reset', { host: host(), origin: `http://${host()}`, ...headers }),
        403,
        /Content-Type: application\/json or the header X-Mock-Admin: 1/,
      );
    }
    expect(await petCount()).toBe(51);
  });

  it('serves a plain script write with no Origin and no header, as curl -X POST sends it', async () => {
    for (const [method, path, headers] of [
      ['POST', '/__mock/reset', {}],
      ['POST', '/__mock/reset', { 'content-type': 'text/plain', 'sec-fetch-site': 'none' }],
      ['DELETE', '/__mock/coverage', {}],
    ] as const) {
      const answer = await send(server.port, method, path, { host: host(), ...headers });
      expect(answer.status, `${method} ${path}`).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('refuses every CORS preflight, so that a page cannot ask to send JSON or X-Mock-Admin', async () => {
    const preflight = await send(server.port, 'OPTIONS', '/__mock/reset', {
      host: host(),
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-mock-admin',
    });
    expectError(preflight, 403, /preflight/);
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('serves scripts (no Origin) and pages of its own origin, and answers without CORS', async () => {
    const script = await send(server.port, 'POST', '/__mock/reset', { host: host(), ...ADMIN });
    expect(script.status).toBe(200);
    expect(script.headers['access-control-allow-origin']).toBeUndefined();
    const json = await send(server.port, 'POST', '/__mock/clock', { host: host(), 'content-type': 'application/json' }, '{"now":null}');
    expect(json.status).toBe(200);
    const ownPage = await send(server.port, 'POST', '/__mock/reset', { host: host(), origin: `http://${host()}`, ...ADMIN });
    expect(ownPage.status).toBe(200);
    expect((await send(server.port, 'GET', '/__mock/health', { host: host() })).status).toBe(200);
  });

  it('keeps the API open to front-ends on other origins', async () => {
    const preflight = await send(server.port, 'OPTIONS', '/v1/pets', {
      host: host(),
      origin: 'https://app.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    const list = await send(server.port, 'GET', '/v1/pets?limit=1', { host: host(), origin: 'https://app.example', authorization: `Bearer ${KEY}` });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe('*');
  });
});

describe("requests Node's HTTP parser refuses", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, timeouts: { headersMs: 500, requestMs: 1_000 } });
  });
  afterAll(() => server.close());

  const malformed: [string, string | Buffer, number][] = [
    ['a lower-case method', 'get /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
    ['an unknown method', 'FETCH /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
    ['a space in the target', 'GET /v1/pets?status=sold out HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
    ['raw non-ASCII in the target', Buffer.from('GET /v1/pets/é HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'utf8'), 400],
    [
      'both Transfer-Encoding and Content-Length',
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    ['a bare LF in a header', 'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: b\nc\r\n\r\n', 400],
    ['headers over 16 KiB', `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431],
    ['headers that never end', 'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n', 408],
    [
      'a body that never comes',
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
      408,
    ],
  ];
  for (const [what, bytes, status] of malformed) {
    it(`answers ${what} with ${status}, the spec's Error body and the API's CORS`, async () => {
      const answer = await raw(server.port, bytes);
      expectError(answer, status);
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers.connection).toBe('close');
    });
  }

  it('answers every fuzzed request line with JSON, never a bare status', async () => {
    const pieces = ['GET', 'get', 'P\u00d6ST', ' ', '/v1/pets', '/v1/\u00e9', '?a=b c', '\t', 'HTTP/1.1', 'HTTP/9.9', '\r\n', '\n', '\0', '%', '\u00ff'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 40; i++) {
      const line = Array.from({ length: 1 + (next() % 6) }, () => pieces[next() % pieces.length]).join('');
      const answer = await raw(server.port, Buffer.from(`${line}\r\nHost: 127.0.0.1\r\n\r\n`, 'latin1'));
      if (Number.isNaN(answer.status)) continue; // the server may close a connection it cannot read at all
      expect(answer.headers['content-type'], JSON.stringify(line)).toMatch(/^application\/json/);
      expect(validators.Error(answer.body) || answer.status < 400, JSON.stringify(line)).toBe(true);
    }
  });
});

describe('what Node would respond to on its own: Expect and CONNECT', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());
  const post = (host: string, expectation: string) =>
    `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nExpect: ${expectation}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;

  it("responds to an expectation other than 100-continue with a 417 Error and the API's CORS, after the host guard", async () => {
    const answer = await raw(server.port, post('127.0.0.1', 'foo'));
    expectError(answer, 417, /Expect: 100-continue/);
    expect(answer.body).toMatchObject({ code: 'expectation_failed' });
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expectError(await raw(server.port, post('attacker.example', 'foo')), 403, /does not serve the host/);
  });

  it('still serves a POST that sends Expect: 100-continue', async () => {
    const answer = await send(server.port, 'POST', '/v1/pets', { ...JSON_HEADERS, expect: '100-continue' }, '{"name":"Rex","categoryId":1}');
    expect(answer.status).toBe(201);
  });

  it('responds to CONNECT with a 400 Error and closes, after the host guard', async () => {
    const tunnel = (host: string) => `CONNECT ${host} HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    const answer = await raw(server.port, tunnel('127.0.0.1:443'));
    expectError(answer, 400, /CONNECT/);
    expect(answer.headers.connection).toBe('close');
    expectError(await raw(server.port, tunnel('attacker.example:443')), 403, /does not serve the host/);
  });
});

describe('a JSON body is UTF-8 (RFC 8259)', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('rejects a body whose bytes are not UTF-8 with a 400 naming the body, and creates no pet', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]);
    const head = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const pets = await server.mock.store.size;
    expectError(await raw(server.port, Buffer.concat([Buffer.from(head), body])), 400, /^The request body is not UTF-8/);
    expect(await server.mock.store.size).toBe(pets);
  });
});

describe('duplicate Authorization headers', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  for (const [what, second] of [
    ['the same key twice', `Bearer ${KEY}`],
    ['the key, then a wrong one', 'Bearer wrong'],
    ['the key, then an empty header', ''],
  ]) {
    it(`refuses ${what} with 401, as fetch-based hosts do`, async () => {
      const answer = await raw(
        server.port,
        `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nAuthorization: ${second}\r\nConnection: close\r\n\r\n`,
      );
      expectError(answer, 401);
    });
  }
});

describe('the request log never holds a key', () => {
  async function logOf(apiKeys: string[], targets: string[]): Promise<string[]> {
    const lines: string[] = [];
    const server = await startMockServer({ port: 0, apiKeys, onRequest: (line) => lines.push(line) });
    try {
      for (const target of targets) await fetch(new URL(target, server.url), { headers: { authorization: `Bearer ${apiKeys[0]}` } });
    } finally {
      await server.close();
    }
    return lines.map((line) => line.replace(/ \d+ [\d.]+ms.*$/, ''));
  }

  it('replaces a key in a query value or name in any encoding, and the rest stays', async () => {
    const key = 's3cr3t/+key';
    const lines = await logOf(
      [key],
      [
        '/v1/pets?limit=5&token=s3cr3t%2F%2Bkey',
        '/v1/pets?token=s3cr3t/+key&limit=5',
        '/v1/pets?token=s3cr3t%252F%252Bkey',
        '/v1/pets?auth=Bearer+s3cr3t%2F%2bkey',
        '/v1/pets?s3cr3t%2F%2Bkey',
      ],
    );
    expect(lines).toEqual([
      'GET /v1/pets?limit=5&token=***',
      'GET /v1/pets?token=***&limit=5',
      'GET /v1/pets?token=***',
      'GET /v1/pets?auth=***',
      'GET /v1/pets?***',
    ]);
  });

  it('never hides a word of the API path, even when the key is that word', async () => {
    const lines = await logOf(['pets'], ['/v1/pets?limit=5', '/v1/pets/pets', '/v1/pets?status=pets', '/__mock/health', '/v1/unknown/pets', '/v1/pets/p%65ts']);
    expect(lines).toEqual([
      'GET /v1/pets?limit=5',
      'GET /v1/pets/***',
      'GET /v1/pets?status=***',
      'GET /__mock/health',
      'GET /v1/unknown/pets',
      'GET /v1/pets/***',
    ]);
  });

  // Issue 23: the key inside a segment, in an absolute-form target's userinfo, and as a session name.
  it('hides a key inside a path segment, in the userinfo of an absolute-form target, and as X-Mock-Session', async () => {
    const key = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg=';
    const lines: string[] = [];
    const server = await startMockServer({ port: 0, apiKeys: [key], onRequest: (line) => lines.push(line) });
    const host = `127.0.0.1:${server.port}`;
    const authorization = `Bearer ${key}`;
    try {
      for (const path of [`/v1/pets/${key}.json`, `/v1/pets/1;k=${key}`, `/v1/pets/Bearer%20${encodeURIComponent(key)}`, `http://u:${key}@${host}/v1/pets`])
        await send(server.port, 'GET', path, { host, authorization });
      await send(server.port, 'GET', '/v1/pets?limit=1', { host, authorization, 'x-mock-session': key.slice(0, -1) });
    } finally {
      await server.close();
    }
    const logged = lines.join('\n');
    expect(logged).not.toContain(key.slice(0, -1));
    expect(logged).not.toContain(encodeURIComponent(key).slice(0, -3));
    expect(lines.map((line) => line.replace(/ [\d.]+ms/, ''))).toEqual([
      'GET /v1/pets/***=.json 400',
      'GET /v1/pets/1;k=***= 400',
      'GET /v1/pets/*** 400',
      `GET http://***@${host}/v1/pets 404`,
      'GET /v1/pets?limit=1 200 session=***',
    ]);
  });
});
