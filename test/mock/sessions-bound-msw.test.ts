// A file of its own: MSW patches this worker's global fetch while it listens.
/**
 * The named sessions' own bytes (`SESSIONS_BYTES`) bound MSW's sessions as the Node server's: the
 * package's handlers under `setupServer`, asked through `fetch` as an app under test would. MSW keeps
 * its sessions in the same `Sessions` as the CLI's `memory` (test/mock/sessions-bound.test.ts). All
 * but the last session are opened through the handlers' own mock (`api.mock.fetch`, the adapter MSW
 * answers with, without MSW's interception: 6,552 fetches through it cost 13 s of CPU); the last, the
 * refused one and the drop go through MSW.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/mock/hosts/msw.js';
import { SESSIONS_BYTES, sessionsOpenable } from '../../src/mock/state/sessions.js';

const BASE = 'https://api.example.test/v1';
const AUTH = { authorization: 'Bearer petstore-dev-key' };
const MAX_SESSIONS = 100_000;
const OPENABLE = sessionsOpenable(MAX_SESSIONS);
const api = createHandlers({ baseUrl: BASE, maxSessions: MAX_SESSIONS });
const server = setupServer(...api);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const statusOf = async (session: string) => (await fetch(`${BASE}/pets?limit=1`, { headers: { ...AUTH, 'x-mock-session': session } })).status;

describe("MSW: the named sessions' own bytes are bounded together", () => {
  it(`opens ${OPENABLE} sessions and refuses one more with a 429 naming SESSIONS_BYTES; a drop makes room`, async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < OPENABLE - 1; i++)
      statuses.add((await api.mock.fetch(new Request(`${BASE}/pets?limit=1`, { headers: { ...AUTH, 'x-mock-session': `msw-${i}` } }))).status);
    expect(statuses).toEqual(new Set([200]));
    expect(await statusOf('last')).toBe(200);
    const refused = await fetch(`${BASE}/pets?limit=1`, { headers: { ...AUTH, 'x-mock-session': 'one-more' } });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toContain(`(${SESSIONS_BYTES} bytes, SESSIONS_BYTES`);
    expect((await fetch(new URL('/__mock/sessions/msw-0', BASE), { method: 'DELETE' })).status).toBeLessThan(300);
    expect(await statusOf('one-more')).toBe(200);
  }, 120_000);
});
