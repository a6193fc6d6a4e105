/**
 * The typed client reads every answer within the package's bounds (red team 6, #7): an endless answer
 * once grew it to 3 GB in 30 s, a trickle kept a call pending for ever, and 64 MB were taken whole for
 * `limit: 5`. Each against a real server on a free port that answers as a broken deployment would.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES } from '../../src/bounds/budget.js';
import { ApiError, createClient } from '../../src/client/index.js';
import { expectRequests } from '../../src/testing/index.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server that, once a request's head has arrived, writes its answer with `answer`; its base URL. */
async function answering(answer: (socket: import('node:net').Socket) => void): Promise<string> {
  const server = createServer((socket) => {
    let head = '';
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) answer(socket);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

describe('the typed client reads an answer within 5 MiB and its timeout', () => {
  it('rejects an endless answer once it passes 5 MiB, without growing by it', async () => {
    const piece = Buffer.alloc(64 * 1024, '[');
    const baseUrl = await answering((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
      const more = () => {
        while (!socket.destroyed && socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`));
      };
      socket.on('drain', more);
      more();
    });
    const before = process.memoryUsage().rss;
    await expect(createClient({ baseUrl, apiKey: 'k' }).listPets({ limit: 5 })).rejects.toThrow(
      `GET ${baseUrl}/pets?limit=5 answered more than ${MAX_RESPONSE_BYTES} bytes, which no answer of this API holds`,
    );
    // A wide bound: the cap is 5 MiB, read into text; 3 GB in 30 s was the failure.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 2 ** 20);
  });

  it('rejects an answer of 64 MB declared whole, past 5 MiB', async () => {
    const baseUrl = await answering((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${64_000_000}\r\n\r\n`);
      socket.write(Buffer.alloc(6 * 2 ** 20, ' '));
    });
    await expect(createClient({ baseUrl }).getPet(1)).rejects.toThrow(`answered more than ${MAX_RESPONSE_BYTES} bytes`);
  });

  it('rejects an answer that trickles past its timeout, saying how to raise it', async () => {
    const baseUrl = await answering((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[');
      const timer = setInterval(() => socket.write(' '), 100);
      socket.on('close', () => clearInterval(timer));
    });
    await expect(createClient({ baseUrl, timeout: 500 }).listPets()).rejects.toThrow(
      `GET ${baseUrl}/pets did not answer whole within 500 ms (raise it with createClient({ timeout }))`,
    );
  });

  it('refuses a timeout no timer can keep where the client is made, naming the option and its range (red team 8, #1)', () => {
    const baseUrl = 'http://127.0.0.1:9/v1';
    for (const timeout of [2 ** 31, 1e12, Number.POSITIVE_INFINITY, -1, Number.NaN, 0.5, 0])
      expect(() => createClient({ baseUrl, timeout }), String(timeout)).toThrow(
        new RangeError(`createClient: timeout must be a whole number from 1 to 86400000; got ${timeout}`),
      );
    expect(() => createClient({ baseUrl, timeout: '100' as unknown as number })).toThrow(TypeError);
    expect(() => createClient({ baseUrl, timeout: 86_400_000 })).not.toThrow();
  });

  it("shows a server's Error escaped and cut in the ApiError's message, and whole in its body (red team 8, #2)", async () => {
    const body = JSON.stringify({ code: 'bad_request\u001b[31m', message: `\u001b]0;pwned\u0007\u001b[2J${'m'.repeat(3_000_000)}`, status: 400 });
    const baseUrl = await answering((socket) =>
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
    );
    const error: unknown = await createClient({ baseUrl })
      .listPets()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    const { message, body: kept } = error as ApiError;
    expect(message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets answered 400 bad_request\\u001b\[31m: \\u001b\]0;pwned\\u0007\\u001b\[2Jm+… \(\d+ characters\)$/,
    );
    expect(message.length).toBeLessThan(2_500);
    expect(kept.message).toHaveLength(3_000_014);
  });

  it('hides its own key in every error it makes: in the URL it called, a query, and what the server quoted back (red team 8, #9)', async () => {
    const key = 's3cretKEYvalue42';
    const quoting = await answering((socket) => {
      const body = JSON.stringify({ code: 'not_found', message: `No pet at /${key}/v1 (${Buffer.from(`u:${key}`).toString('base64')})`, status: 404 });
      socket.end(`HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    const baseUrl = quoting.replace('/v1', `/${key}/v1`);
    const errors = [
      await createClient({ baseUrl, apiKey: key })
        .getPet(404)
        .catch((caught: unknown) => caught),
      await createClient({ baseUrl: quoting, apiKey: key })
        .listPets({ status: key as 'sold' })
        .catch((caught: unknown) => caught),
      await createClient({ baseUrl: (await answering(() => {})).replace('/v1', `/${key}/v1`), apiKey: key, timeout: 300 })
        .getPet(1)
        .catch((caught: unknown) => caught),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      const shown = JSON.stringify({ ...(error as object), message: (error as Error).message, stack: (error as Error).stack });
      expect(shown).toContain('***');
      expect(shown).not.toContain(key);
      expect(shown).not.toContain(Buffer.from(`u:${key}`).toString('base64').slice(4, 20));
    }
  });

  it('reads JSON as the package does: too deep or with a number longer than any of the spec is an Error that says so (red team 9, #1)', async () => {
    const deep = await answering((socket) => {
      const body = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    });
    await expect(createClient({ baseUrl: deep }).listPets()).rejects.toThrow(
      /answered 200 with JSON nested 200000 levels deep \(at most 128\), which no answer of this API holds$/,
    );
    const long = await answering((socket) => {
      const body = `[{"id":${'9'.repeat(4_000)},"name":"x","categoryId":1}]`;
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    });
    await expect(createClient({ baseUrl: long }).listPets()).rejects.toThrow(/with JSON holding a number of 4000 characters \(at most 100\)/);
  });

  it('bounds a call by its timeout even through a fetch that drops the signal (red team 9, #6)', async () => {
    const baseUrl = await answering(() => {});
    const dropsSignal: typeof fetch = (url, init) => fetch(url, { ...init, signal: null });
    await expect(createClient({ baseUrl, timeout: 300, fetch: dropsSignal }).listPets()).rejects.toThrow('did not answer whole within 300 ms');
  });

  it('refuses a pet id or a limit that is no integer, and a key no header carries, before any request (red team 9, #3, #10)', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9/v1' });
    for (const petId of ['..', '.', '-0', '1.5', 'NaN', '', ' 1']) expect(() => client.getPet(petId), petId).toThrow(TypeError);
    for (const petId of [-0, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => client.getPet(petId), String(petId)).toThrow(TypeError);
    expect(() => client.listPets({ limit: Number.NaN })).toThrow(/listPets: limit must be a whole number/);
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k\r\nX: y' })).toThrow(/not shown here/);
  });

  it("refuses a key the mock would never take, by the mock's own rule, naming the option and quoting no key (red team 10, re-check of 9 #10)", () => {
    const baseUrl = 'http://127.0.0.1:9/v1';
    for (const [apiKey, problem] of [
      ['', /^createClient: apiKey: an API key cannot be empty/],
      ['secret words', /^createClient: apiKey: an API key cannot contain whitespace \(found at character 7\)/],
    ] as const) {
      expect(() => createClient({ baseUrl, apiKey }), JSON.stringify(apiKey)).toThrow(problem);
      expect(() => expectRequests(baseUrl, { apiKey }), JSON.stringify(apiKey)).toThrow(new RegExp(problem.source.replace('createClient', 'expectRequests')));
    }
    let message = '';
    try {
      createClient({ baseUrl, apiKey: 'secret words' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain('secret');
  });
});
