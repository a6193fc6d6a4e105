/**
 * The named sessions' own bytes are bounded together (`SESSIONS_BYTES`, each session counted
 * `SESSION_BYTES`), whatever `--max-sessions` says, on the real `petstore-mock` command (needs `dist/`)
 * in each mode that keeps sessions: in the process (`memory`; `--state` and `--profile` keep them in
 * the same `Sessions`, src/mock/state/sessions.ts) and in Redis's registry, which one replica (`--store`)
 * and two (`--workers 2`) share. Past the bound a new session is a 429 Error naming it and what to do;
 * a drop makes room. On the way, `GET /__mock/sessions` over HTTP lists only the 1,000 most recently
 * used (`SESSIONS_SHOWN`), `open` counting them all and `truncated` saying so.
 *
 * `memory` opens every session over HTTP (6,553 cheap requests: about 2 s of CPU). The modes on Redis
 * find all but the last one already in the registry, written as another replica's openings would leave
 * them (the name's digest, by Redis's time, with the name as shown): the bound is the registry's, counted
 * by the script every opening runs, so the requests that filled it would test nothing more, and cost
 * 4 s of CPU a mode.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSIONS_SHOWN } from '../../src/mock/admin/endpoints.js';
import { SESSIONS_BYTES, sessionsOpenable } from '../../src/mock/state/sessions.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { AUTH } from '../support/http-facts.js';
import { startRedis, type TestRedis } from '../support/redis.js';

/** As many sessions as `--max-sessions` allows at its most: the bytes refuse first. */
const MAX_SESSIONS = 100_000;
const OPENABLE = sessionsOpenable(MAX_SESSIONS);

/** Each mode, its flags, and its namespace in Redis for those that keep sessions there. */
const MODES: readonly { readonly name: string; readonly namespace?: string; readonly flags: readonly string[] }[] = [
  { name: 'memory', flags: [] },
  { name: '--store redis://', namespace: 'sessions-bound-store', flags: [] },
  { name: '--workers 2', namespace: 'sessions-bound-workers', flags: ['--workers', '2'] },
];

let started: Promise<TestRedis> | undefined;
const redis = () => {
  started ??= startRedis();
  return started;
};
afterAll(async () => (await started)?.stop());

/**
 * Opens the sessions `name` gives for 0..count-1 with the cheapest request that opens one: each of 8
 * connections written all its requests at once, the last asking to close (HTTP/1.1 pipelining, which
 * the mock answers one at a time). The status of each answer, counted; a fraction of fetch's CPU.
 */
async function openSessions(mock: RunningMock, count: number, name: (i: number) => string): Promise<Map<string, number>> {
  const port = Number(new URL(mock.url).port);
  const statuses = new Map<string, number>();
  const connection = async (first: number) => {
    const requests: string[] = [];
    for (let i = first; i < count; i += 8)
      requests.push(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\nX-Mock-Session: ${name(i)}\r\n`);
    if (requests.length === 0) return;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    const closed = once(socket, 'close');
    // Each request's head ends with its blank line; the last one's says Connection: close first.
    socket.end(`${requests.join('\r\n')}Connection: close\r\n\r\n`);
    await closed;
    for (const [, status = ''] of received.matchAll(/HTTP\/1\.1 (\d{3}) /g)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  };
  await Promise.all(Array.from({ length: 8 }, (_, first) => connection(first)));
  return statuses;
}

/** Writes `count` named sessions into the registry of `namespace` as the openings of another replica would (redis-store.ts, scripts.ts `OPEN`). */
async function registered(url: string, namespace: string, count: number, name: (i: number) => string): Promise<void> {
  const client = new Redis(url);
  try {
    const [seconds = '0', micros = '0'] = await client.time();
    // A second ago: a session opened now is used after them all, not tied with them (a tie sorts by the digest).
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - 1_000;
    const batch = client.pipeline();
    for (let i = 0; i < count; i++) {
      const id = `@${createHash('sha256').update(name(i)).digest('base64url')}`;
      batch.zadd(`${namespace}:sessions`, now, id).set(`${namespace}:s:${id}:shown`, name(i));
    }
    await batch.exec();
  } finally {
    client.disconnect();
  }
}

for (const mode of MODES) {
  describe(`petstore-mock ${mode.name}: the named sessions' own bytes are bounded together`, () => {
    let mock: RunningMock;
    beforeAll(async () => {
      const store = mode.namespace === undefined ? [] : ['--store', (await redis()).url, '--namespace', mode.namespace];
      mock = await startMockCli([...mode.flags, ...store, '--port', '0', '--quiet', '--max-sessions', String(MAX_SESSIONS)]);
    });
    afterAll(() => mock?.stop());
    const admin = (path: string, init: RequestInit = {}) => fetch(new URL(path, mock.url), init);

    it(`opens ${OPENABLE} sessions, lists the ${SESSIONS_SHOWN} most recently used, refuses one more with a 429 naming SESSIONS_BYTES; a drop makes room`, async () => {
      const name = (i: number) => `bound-${String(i).padStart(5, '0')}`;
      const filled = OPENABLE - 1;
      if (mode.namespace === undefined) expect(await openSessions(mock, filled, name)).toEqual(new Map([['200', filled]]));
      else await registered((await redis()).url, mode.namespace, filled, name);
      const api = (session: string) => fetch(`${mock.url}/pets?limit=1`, { headers: { ...AUTH, 'x-mock-session': session } });
      expect((await api('newest')).status).toBe(200);
      const listed = await admin('/__mock/sessions');
      const list = (await listed.json()) as { max: number; open: number; truncated?: boolean; sessions: { name: string }[] };
      expect(list).toMatchObject({ max: MAX_SESSIONS, open: OPENABLE, truncated: true });
      expect(new Set(list.sessions.map((session) => session.name)).size).toBe(SESSIONS_SHOWN);
      // Least recently used first: the session used last ends the list.
      expect(list.sessions.at(-1)?.name).toBe('newest');

      const refused = await api('one-more');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      const body = (await refused.json()) as { code: string; status: number; message: string };
      expect(body).toMatchObject({ code: 'too_many_requests', status: 429 });
      expect(body.message).toContain(`${OPENABLE} sessions are open, whose own bytes reach the mock's bound on them (${SESSIONS_BYTES} bytes, SESSIONS_BYTES`);
      expect(body.message).toContain('DELETE /__mock/sessions/<name>');
      // A session already open is still served.
      expect((await api(name(7))).status).toBe(200);

      expect((await admin(`/__mock/sessions/${name(3)}`, { method: 'DELETE' })).status).toBeLessThan(300);
      expect((await api('one-more')).status).toBe(200);
      expect((await admin('/__mock/reset', { method: 'POST' })).status).toBe(200);
      expect(((await (await admin('/__mock/sessions')).json()) as { open: number }).open).toBe(0);
    }, 120_000);
  });
}
