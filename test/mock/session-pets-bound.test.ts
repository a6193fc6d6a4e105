/**
 * A session's own pets are bounded in bytes (`SESSION_PETS_BYTES`), on the real `petstore-mock`
 * command (needs `dist/`): `POST /__mock/pets` of 1 MB pets again and again, or creates through the
 * API, are refused with the spec's 429 Error once the session holds its cap, changing nothing; a
 * reset makes room again, and other sessions are not touched. All named sessions together hold at
 * most `SESSIONS_PETS_BYTES`, so `--max-sessions` does not multiply the cap; the default session has
 * its own room besides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_PETS_BYTES, SESSIONS_PETS_BYTES } from '../../src/mock/state/store.js';
import { type RunningMock, startMockCli } from '../support/cli.js';
import { AUTH } from '../support/http-facts.js';

/** A pet of about 1 MB, within the 1 MiB a body may be. */
const bigPet = (id: number) => ({ id, name: 'x'.repeat(1_000_000), categoryId: 1, status: 'available' });

describe('petstore-mock: a session holds at most SESSION_PETS_BYTES of pets of its own', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMockCli(['--port', '0', '--quiet']);
  });
  afterAll(() => mock?.stop());

  const admin = (path: string, session: string, init: RequestInit = {}) =>
    fetch(new URL(path, mock.url), { ...init, headers: { 'content-type': 'application/json', 'x-mock-session': session } });
  const put = (session: string, id: number) => admin('/__mock/pets', session, { method: 'POST', body: JSON.stringify(bigPet(id)) });
  const pets = async (session: string) => ((await (await admin('/__mock/health', session)).json()) as { pets: number }).pets;

  it('refuses a put, and a create, past the cap with a 429 Error that says what to do, changing nothing; a reset makes room', async () => {
    const session = 'filled';
    let id = 1_000_000;
    let status = 200;
    // Each pet is counted 2 bytes a character: 16 MiB hold 8 of them.
    for (let put_ = 0; put_ < 20 && status === 200; put_++) status = (await put(session, id++)).status;
    expect(status).toBe(429);
    const held = await pets(session);
    expect(held).toBeLessThanOrEqual(50 + SESSION_PETS_BYTES / 2_000_000);
    const refused = await put(session, id++);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      code: 'too_many_requests',
      status: 429,
      message: expect.stringContaining(`more than ${SESSION_PETS_BYTES} bytes of pets`),
    });
    const created = await fetch(`${mock.url}/pets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json', 'x-mock-session': session },
      body: JSON.stringify({ name: 'y'.repeat(1_000_000), categoryId: 1 }),
    });
    expect([created.status, (await created.json()) as unknown]).toEqual([429, expect.objectContaining({ code: 'too_many_requests' })]);
    expect(await pets(session)).toBe(held);
    // Another session has its own room.
    expect((await put('elsewhere', 1)).status).toBe(200);
    expect((await admin('/__mock/reset', session, { method: 'POST' })).status).toBe(200);
    expect((await put(session, id++)).status).toBe(200);
  });

  it('refuses a put past the pets of all named sessions together with a 429 Error; dropping a session gives its room back; the default session keeps its own', async () => {
    const full = SESSIONS_PETS_BYTES / SESSION_PETS_BYTES;
    // Each session filled to its own cap (8 pets of 2 MB counted), `full` of them fill the total.
    const fill = async (session: string) => {
      let status = 200;
      for (let id = 1; status === 200; id++) status = (await put(session, id)).status;
      return status;
    };
    await admin('/__mock/reset', 'default', { method: 'POST' });
    for (let i = 0; i < full; i++) expect(await fill(`all-${i}`)).toBe(429);
    const refused = await put('one-more', 1);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      code: 'too_many_requests',
      status: 429,
      message: expect.stringContaining(`more than ${SESSIONS_PETS_BYTES} bytes of pets of their own together`),
    });
    expect((await put('default', 1)).status).toBe(200);
    expect((await fetch(new URL('/__mock/sessions/all-0', mock.url), { method: 'DELETE' })).status).toBeLessThan(300);
    expect((await put('one-more', 1)).status).toBe(200);
  });
});
