/**
 * Guarantees of docs/guarantees.md on what a client can make the mock keep or send back, bounded in
 * bytes: the named sessions' pets together, and an Error that quotes the client's input.
 */
import { expect } from 'vitest';
import { ERROR_BODY_BYTES } from '../../src/mock/core/keyless-errors.js';
import { SESSION_PETS_BYTES, SESSIONS_PETS_BYTES } from '../../src/mock/state/store.js';
import type { Guarantee, StartedMock } from './guarantees.js';
import { answer, expectError } from './http-facts.js';
import { keysRevealed } from './key-echoes.js';

let names = 0;
/** A name no other check of this process uses. */
function unique(what: string): string {
  return `${what}-${process.pid}-${++names}`;
}

/** A `/__mock/*` path of the mode, on its origin. */
function adminUrl(mock: StartedMock, path: string): string {
  return new URL(path, mock.baseUrl).href;
}

/** `POST /__mock/pets` of one pet of about 1 MB (counted 2 MB: 2 bytes a character) into `session`: its status, and its body. */
async function putLargePet(mock: StartedMock, session: string, id: number): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ id, name: 'x'.repeat(1_000_000), categoryId: 1, status: 'available' });
  const response = await fetch(adminUrl(mock, '/__mock/pets'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mock-session': session },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** Puts large pets into `session` until one is refused; that refusal. */
async function fill(mock: StartedMock, session: string): Promise<{ status: number; text: string }> {
  for (let id = 1; ; id++) {
    const put = await putLargePet(mock, session, id);
    if (put.status !== 200) return put;
  }
}

const petsOf = async (mock: StartedMock, session: string) =>
  ((await (await fetch(adminUrl(mock, '/__mock/health'), { headers: { 'x-mock-session': session } })).json()) as { pets: number }).pets;

/**
 * The modes whose sessions keep pets: in the mock's process, each in the same `Sessions` and its one
 * budget of pets (src/mock/state/sessions.ts), or in Redis (`--store`, `--workers`), held to the same
 * budget by the script that writes them (src/mock/state/redis/scripts.ts); `--proxy` opens no named session (`X-Mock-Session` is not
 * its: `GET /__mock/sessions` stays empty, a `POST /__mock/pets` naming one goes to its default session).
 */
const PETS_IN_PROCESS = ['memory', '--state', '--profile', '--store redis://', '--workers 2'];

/**
 * The real numbers, 16 MiB a session and 64 MiB together (`SESSION_PETS_BYTES`, `SESSIONS_PETS_BYTES`):
 * some 40 puts of 1 MB. The guarantees before may have left pets in named sessions (a page of large
 * pets), so sessions are filled until the refusal is the total's. A mode that keeps its sessions as
 * `memory` does (`StartedMock.onePetsSession`) fills one session only, a quarter of the volume.
 */
export const sessionsPetsBounded: Guarantee = {
  name: 'the named sessions’ own pets are at most 16 MiB each and 64 MiB together: a put past either is a 429 Error naming its bound and what to do, changing nothing; a dropped session gives its room back',
  only: PETS_IN_PROCESS,
  timeoutMs: 120_000,
  async check(mock) {
    const prefix = unique('pets-total');
    const sessions: string[] = [];
    try {
      let refused: { status: number; text: string } | undefined;
      // Four full sessions fill the total; a fifth and a sixth only if the sessions' own caps say otherwise.
      while (refused === undefined && sessions.length < (mock.onePetsSession === true ? 1 : 6)) {
        const session = `${prefix}-${sessions.length}`;
        sessions.push(session);
        refused = await fill(mock, session);
        expect(refused.status, refused.text).toBe(429);
        if (mock.onePetsSession !== true && !refused.text.includes('together')) refused = undefined;
      }
      const error = JSON.parse(refused?.text ?? '{}') as { code: string; status: number; message: string };
      expect(error).toMatchObject({ code: 'too_many_requests', status: 429 });
      if (mock.onePetsSession === true) expect(error.message).toContain(`more than ${SESSION_PETS_BYTES} bytes of pets of its own`);
      else expect(error.message).toContain(`more than ${SESSIONS_PETS_BYTES} bytes of pets of their own together`);
      const full = sessions.at(-1) ?? '';
      const held = await petsOf(mock, full);
      expect((await putLargePet(mock, full, 999)).status).toBe(429);
      expect(await petsOf(mock, full)).toBe(held);
      expect((await fetch(adminUrl(mock, `/__mock/sessions/${sessions[0]}`), { method: 'DELETE' })).status).toBeLessThan(300);
      expect((await putLargePet(mock, full, 999)).status).toBe(200);
    } finally {
      for (const session of sessions) await fetch(adminUrl(mock, `/__mock/sessions/${session}`), { method: 'DELETE' });
    }
  },
};

/** Letters no rule of the redactor shortens, as a path or a header of a few KB may hold. */
const FILLER = Array.from({ length: 6_000 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');

/** The inputs an Error quotes, each holding `filler` and then the key, in the form a client may send it. */
function echoingRequests(
  mock: StartedMock,
): { readonly what: string; readonly url: string; readonly init: RequestInit; readonly status: number; readonly fix: RegExp }[] {
  const basic = Buffer.from(`u:${mock.key}`).toString('base64');
  const auth = { authorization: `Bearer ${mock.key}` };
  return [
    { what: 'a path', url: `${mock.baseUrl}/${FILLER}${mock.key}`, init: { headers: auth }, status: 404, fix: /The operations are GET/ },
    {
      what: 'a Content-Type',
      url: `${mock.baseUrl}/pets`,
      init: { method: 'POST', headers: { ...auth, 'content-type': `application/${FILLER}${basic}` }, body: '{}' },
      status: 415,
      fix: /JSON media type/,
    },
    {
      what: 'a charset',
      url: `${mock.baseUrl}/pets`,
      init: { method: 'POST', headers: { ...auth, 'content-type': `application/json; charset=${FILLER}${mock.key}` }, body: '{}' },
      status: 415,
      fix: /UTF-8/,
    },
  ];
}

export const errorEchoBounded: Guarantee = {
  name: `an Error quoting input of any length (a path, a \`Content-Type\`, a charset) is at most ${ERROR_BODY_BYTES / 1024} KiB, its start and its end (what to do) kept, and holds no key`,
  async check(mock) {
    for (const { what, url, init, status, fix } of echoingRequests(mock)) {
      const result = await answer(await fetch(url, init));
      expectError(result, status, fix);
      expect(Buffer.byteLength(result.text), `${what}: ${result.text.length} characters`).toBeLessThanOrEqual(ERROR_BODY_BYTES);
      expect((result.json as { message: string }).message, what).toContain('…');
      expect(keysRevealed(result.text, [mock.key]), `${what}: ${result.text}`).toEqual([]);
    }
  },
};
