/**
 * Deployments that misbehave on purpose, to prove the verifier stays bounded: each is a small
 * node:http server that answers like the project's mock except where it is told to attack.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createMockApi } from '../../src/mock/create-mock-api.js';
import { type Deployment, listenOnLoopback } from './deployments.js';

export type Hostility = 'gzip-bomb' | 'endless-body' | 'slow-drip' | 'endless-headers' | 'million-digit-id' | 'five-megabyte-name';

/**
 * Hostilities that change the mock's own answer rather than replace it, in its first JSON value of
 * the kind: an id of a million digits (a body of 1 MB), a name of five million characters (a body of
 * 5 MB, under the verifier's 5 MiB cap, so it is read and parsed whole).
 */
const REWRITES: Partial<Record<Hostility, (text: string) => string>> = {
  'million-digit-id': (text) => text.replace(/"id":\d+/, () => `"id":${'9'.repeat(1_000_000)}`),
  'five-megabyte-name': (text) => text.replace(/"name":"[^"]*"/, () => `"name":"${'x'.repeat(5_000_000)}"`),
};

/** Which requests get the hostile answer: by default every one. */
export type Target = (method: string, path: string) => boolean;

const everyRequest: Target = () => true;
/** `GET /v1/pets/{petId}`: the listing still answers, so the checks and the Pact interactions run. */
export const getPetOnly: Target = (method, path) => method === 'GET' && /^\/v1\/pets\/[^/?]+/.test(path);

const MIB = 1024 * 1024;
/** One gzip member of 64 MiB of JSON whitespace (~65 KB); 32 of them in a row inflate to 2 GiB from ~2 MB. */
let bombMember: Buffer | undefined;
const BOMB_MEMBERS = 32;

/** Writes `chunk` and waits until the socket takes more; false once the client has gone. */
function write(outgoing: ServerResponse, chunk: Buffer | string): Promise<boolean> {
  if (outgoing.destroyed) return Promise.resolve(false);
  if (outgoing.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      outgoing.off('drain', onDrain);
      outgoing.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    outgoing.once('drain', onDrain);
    outgoing.once('close', onClose);
  });
}

function everyMs(ms: number, outgoing: ServerResponse, tick: () => void): void {
  const timer = setInterval(tick, ms);
  outgoing.once('close', () => clearInterval(timer));
}

async function attack(hostility: Hostility, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  switch (hostility) {
    case 'gzip-bomb': {
      bombMember ??= gzipSync(Buffer.alloc(64 * MIB, ' '), { level: 9 });
      outgoing.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      for (let i = 0; i < BOMB_MEMBERS; i++) if (!(await write(outgoing, bombMember))) return;
      outgoing.end();
      return;
    }
    case 'endless-body': {
      outgoing.writeHead(200, { 'content-type': 'application/json' });
      const pets = Buffer.from('{"id":1,"name":"Rex","categoryId":1},'.repeat(2000));
      if (!(await write(outgoing, '['))) return;
      while (await write(outgoing, pets));
      return;
    }
    case 'slow-drip': {
      outgoing.writeHead(200, { 'content-type': 'application/json' });
      outgoing.flushHeaders();
      everyMs(200, outgoing, () => outgoing.write(' '));
      return;
    }
    case 'endless-headers': {
      // Past node:http's own writer: a status line, then header lines that never end.
      const socket = incoming.socket;
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n');
      let n = 0;
      everyMs(20, outgoing, () => socket.write(`x-filler-${n++}: ${'a'.repeat(1000)}\r\n`));
      socket.once('close', () => outgoing.destroy());
      return;
    }
  }
}

/** The project's mock behind node:http, with `hostility` on the requests `target` picks. */
export async function hostileDeployment(hostility: Hostility, target: Target = everyRequest, apiKeys: string[] = ['petstore-dev-key']): Promise<Deployment> {
  const mock = createMockApi({ apiKeys, count: 30 });
  const server = createServer(async (incoming, outgoing) => {
    const method = incoming.method ?? 'GET';
    const path = incoming.url ?? '/';
    const rewrite = REWRITES[hostility];
    if (target(method, path) && rewrite === undefined) return attack(hostility, incoming, outgoing);
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(`http://${incoming.headers.host}${path}`, {
      method,
      headers,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
    });
    const response = await mock.fetch(request);
    const answered = Object.fromEntries([...response.headers].filter(([name]) => name !== 'content-length'));
    outgoing.writeHead(response.status, answered);
    const text = await response.text();
    outgoing.end(rewrite && target(method, path) ? rewrite(text) : text);
  });
  return listenOnLoopback(server);
}
