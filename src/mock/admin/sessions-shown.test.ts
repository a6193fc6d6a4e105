/**
 * `GET /__mock/sessions` lists at most `SESSIONS_SHOWN` sessions, the most recently used, and counts
 * them all in `open` (red team 6, #10: 60,000 sessions answered 6 MB in 4-6 s while the inspector polled).
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../create-mock-api.js';
import { SESSIONS_SHOWN } from './endpoints.js';

const KEY = 'sessions-shown-key';

async function openSessions(count: number) {
  const mock = createMockApi({ apiKey: KEY, maxSessions: count });
  for (let i = 0; i < count; i++) {
    const answer = await mock.fetch(
      new Request('http://mock.test/v1/pets?limit=1', { headers: { authorization: `Bearer ${KEY}`, 'x-mock-session': `s-${String(i).padStart(5, '0')}` } }),
    );
    expect(answer.status).toBe(200);
  }
  const answer = await mock.fetch(new Request('http://mock.test/__mock/sessions', { headers: { authorization: `Bearer ${KEY}` } }));
  const text = await answer.text();
  return { text, body: JSON.parse(text) as { open: number; truncated?: boolean; sessions: { name: string }[] } };
}

describe('GET /__mock/sessions', () => {
  it(`lists the ${SESSIONS_SHOWN} most recently used of more, counting every open one`, async () => {
    const { text, body } = await openSessions(SESSIONS_SHOWN + 200);
    expect(body.open).toBe(SESSIONS_SHOWN + 200);
    expect(body.truncated).toBe(true);
    expect(body.sessions).toHaveLength(SESSIONS_SHOWN);
    // Least recently used first: the list ends with the newest and begins past the 200 oldest.
    expect(body.sessions.at(-1)?.name).toBe(`s-${String(SESSIONS_SHOWN + 199).padStart(5, '0')}`);
    expect(body.sessions[0]?.name).toBe('s-00200');
    expect(text.length).toBeLessThan(SESSIONS_SHOWN * 100);
  });

  it('lists all of fewer, without truncated', async () => {
    const { body } = await openSessions(3);
    expect(body).toMatchObject({ open: 3 });
    expect(body.truncated).toBeUndefined();
    expect(body.sessions.map((session) => session.name)).toEqual(['s-00000', 's-00001', 's-00002']);
  });
});
