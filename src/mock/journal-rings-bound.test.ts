/**
 * The journal keeps a ring for at most as many named sessions as may be open (`sessionsOpenable`: the
 * cap, or fewer once the sessions' own bytes reach `SESSIONS_BYTES`), though a request that opens no
 * session (a 400, a 429) is filed under the name it gave: a ring with one record costs some 3.3 KB
 * (measured in process over 4,000), so at `--max-sessions 100000` the rings of 400s alone could reach
 * 330 MB, past the sessions' bound.
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from './create-mock-api.js';
import { sessionsOpenable } from './state/sessions.js';

const KEY = 'journal-rings-key';
const headers = (session: string) => ({ authorization: `Bearer ${KEY}`, 'x-mock-session': session });

describe('the journal of a mock with --max-sessions at its most', () => {
  it('keeps the rings of the sessions written last, as many as may be open, for requests that open none', async () => {
    const mock = createMockApi({ apiKey: KEY, maxSessions: 100_000 });
    const entries = async (session: string) =>
      ((await (await mock.fetch(new Request('http://mock.test/__mock/requests', { headers: headers(session) }))).json()) as { entries: unknown[] }).entries;
    // limit=0 is a 400: its inputs are refused before a session opens, and it is filed under its name.
    const refused = (session: string) => mock.fetch(new Request('http://mock.test/v1/pets?limit=0', { headers: headers(session) }));
    const openable = sessionsOpenable(100_000);
    for (let i = 0; i < openable; i++) expect((await refused(`r${i}`)).status).toBe(400);
    expect(await entries('r0')).toHaveLength(1);
    await refused('one-more');
    expect(await entries('r0')).toEqual([]);
    expect(await entries('r1')).toHaveLength(1);
    expect(await entries('one-more')).toHaveLength(1);
  });
});
