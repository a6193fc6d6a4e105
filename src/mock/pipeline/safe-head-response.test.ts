import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { pipeline, rawRequest } from '../../../test/support/raw-http.js';
import { createHostServer } from './http-server.js';

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A host server on port 0 whose handler writes each answer with `write`, and its port. */
async function serving(write: (outgoing: ServerResponse) => void): Promise<number> {
  const server = createHostServer(
    {},
    () => undefined,
    (_request, outgoing) => write(outgoing),
  );
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as { port: number }).port;
}

describe('the head every Node host writes', () => {
  it('holds only values HTTP allows, whatever text a host puts in it, in every form writeHead takes', async () => {
    const text = 'application/x-a… ☃ \ud83d\ude00 é\r\nset-cookie: a=b';
    const forms: ((outgoing: ServerResponse) => void)[] = [
      (outgoing) => outgoing.writeHead(200, ['content-length', 0, 'x-violation', text]).end(),
      (outgoing) => outgoing.writeHead(200, 'OK', { 'content-length': 0, 'x-violation': [text] }).end(),
      (outgoing) =>
        outgoing
          .writeHead(200, [
            ['content-length', '0'],
            ['x-violation', text],
          ] as never)
          .end(),
    ];
    for (const write of forms) {
      const port = await serving(write);
      const { responses, ended } = await pipeline(port, [rawRequest('GET', '/', ['Connection: close'])]);
      expect(responses.map((response) => response.status)).toEqual([200]);
      expect(responses[0]?.headers['x-violation']).toMatch(/^application\/x-a%E2%80%A6 %E2%98%83 %F0%9F%98%80 %C3%A9%0D%0Aset-cookie: a=b/);
      expect(responses[0]?.headers['set-cookie']).toBeUndefined();
      expect(ended).toBe('end');
    }
  });

  it('answers the spec’s Error 500 and ends the connection when Node refuses a head, instead of throwing out of the host', async () => {
    const port = await serving((outgoing) => {
      // A name no field may have: Node refuses it, as it refused the ellipsis that ended the --proxy process.
      outgoing.writeHead(200, ['content-length', 5, 'bad name', 'x']);
      outgoing.write('he');
      outgoing.end('llo');
    });
    const { responses, ended, rest } = await pipeline(port, [rawRequest('GET', '/'), rawRequest('GET', '/')]);
    expect(responses).toHaveLength(1);
    expect(responses[0]?.status).toBe(500);
    expect(responses[0]?.headers.connection).toBe('close');
    expect(JSON.parse(responses[0]?.body.toString() ?? '')).toMatchObject({ code: 'internal_error', status: 500 });
    expect(responses[0]?.body.toString()).toContain('ERR_INVALID_HTTP_TOKEN');
    expect(rest.length).toBe(0);
    expect(ended).toBe('end');
    // The server lives on: a new connection is answered.
    expect((await pipeline(port, [rawRequest('GET', '/', ['Connection: close'])])).responses[0]?.status).toBe(500);
  });
});
