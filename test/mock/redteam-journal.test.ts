/**
 * The journal and the request log against an attacker with a socket and a careless user, on the real
 * `petstore-mock` command (needs `dist/`): a key with a `/` in the userinfo of an absolute-form
 * target is hidden in both, and a hostile path filter (`****…x`) is answered at once, the mock serving
 * on; a journal of control characters, which JSON writes six bytes each, is answered within its bytes.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuMicros } from '../../bench/cpu.js';
import { JOURNAL_PAGE_BYTES, type JournalPage } from '../../src/mock/state/journal.js';
import { JOURNAL_SESSION_BYTES } from '../../src/mock/state/journal-ring.js';
import { type RunningMock, startMockCli } from '../support/cli.js';

const KEY = 'Zk3y+/Sec/ret==';

/** Sends `text` on a socket of its own and resolves with all the mock answered. */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('petstore-mock: the journal and the log against hostile requests', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMockCli(['--port', '0', '--api-key', KEY]);
  });
  afterAll(() => mock?.stop());

  it('hides a key with a / in the userinfo of an absolute-form target, in the journal and in the log', async () => {
    const { host } = new URL(mock.url);
    const answer = await raw(
      mock.url,
      `GET http://u:${KEY}@${host}/v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 404/);
    const journal = await (await fetch(new URL('/__mock/requests', mock.url))).text();
    expect((JSON.parse(journal) as JournalPage).entries.map((entry) => entry.path)).toContain(`http://***@${host}/v1/pets`);
    for (const part of [KEY, 'Zk3y', 'Sec/ret']) {
      expect(journal).not.toContain(part);
      expect(mock.stdout()).not.toContain(part);
    }
  });

  it('answers a hostile path filter at once, and serves on', async () => {
    await fetch(`${mock.url}/${'a'.repeat(2000)}`, { headers: { authorization: `Bearer ${KEY}` } });
    // The CPU time the mock spends on it (Linux's /proc), which a busy machine does not stretch as it
    // does the wall clock: backtracking would burn seconds of it. Elsewhere, the wall clock.
    const pid = mock.child.pid as number;
    const cpuBefore = cpuMicros(pid);
    const started = performance.now();
    // A hang, not a speed: the answer comes in milliseconds.
    const filtered = await fetch(new URL(`/__mock/requests?path=${'*'.repeat(5000)}x`, mock.url), { signal: AbortSignal.timeout(30_000) });
    expect(filtered.status).toBe(200);
    expect(((await filtered.json()) as JournalPage).entries).toEqual([]);
    expect((await fetch(new URL('/__mock/health', mock.url))).status).toBe(200);
    const cpuAfter = cpuMicros(pid);
    const spentMs = cpuBefore === undefined || cpuAfter === undefined ? performance.now() - started : (cpuAfter - cpuBefore) / 1000;
    expect(spentMs).toBeLessThan(5_000);
  });

  it('answers a journal of control characters within its bytes: what a ring keeps is counted as JSON writes it', async () => {
    const session = 'control-characters';
    // 520 bodies of 4,096 control characters (not JSON: a 400 each, its body journalled), on 4 connections:
    // counted 2 bytes a character, they made 12 MB of `\u0001` escapes.
    let sent = 0;
    const send = async () => {
      while (sent++ < 520)
        await (
          await fetch(`${mock.url}/pets`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-mock-session': session },
            body: '\u0001'.repeat(4096),
          })
        ).arrayBuffer();
    };
    await Promise.all([send(), send(), send(), send()]);
    const answer = await fetch(new URL('/__mock/requests', mock.url), { headers: { 'x-mock-session': session } });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const page = JSON.parse(bytes.toString()) as JournalPage;
    // The ring's bytes, and the field names of each entry besides: within a page.
    expect(bytes.length).toBeLessThanOrEqual(Math.min(JOURNAL_PAGE_BYTES, JOURNAL_SESSION_BYTES) + 1024);
    expect(page.entries.length).toBeGreaterThan(100);
    expect(page.entries.at(-1)?.body).toBe('\u0001'.repeat(4096));
  });
});
