/**
 * The journal's flags on the real `petstore-mock` command, with `--state` (the pipeline is the same
 * whatever keeps the pets): `--journal-size`, `--journal-body`, `--no-journal`. Needs `dist/`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalPage } from '../../src/mock/state/journal.js';
import { runCli, startMockCli } from '../support/cli.js';
import { AUTH, JSON_HEADERS } from '../support/http-facts.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'petstore-journal-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function journal(url: string): Promise<Response> {
  return fetch(new URL('/__mock/requests', url));
}

describe('petstore-mock --state with the journal flags', () => {
  it('journals with --state, keeping --journal-size entries and --journal-body characters of a body', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--state', join(dir, 'state.json'), '--journal-size', '2', '--journal-body', '10']);
    try {
      await fetch(`${mock.url}/pets?limit=1`, { headers: AUTH });
      await fetch(`${mock.url}/pets`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
      await fetch(`${mock.url}/pets/51`, { headers: AUTH });
      const { entries } = (await (await journal(mock.url)).json()) as JournalPage;
      expect(entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(['POST /v1/pets 201', 'GET /v1/pets/51 200']);
      expect(entries[0]).toMatchObject({ body: '{"name":"R', bodyTruncated: true });
    } finally {
      await mock.stop();
    }
  });

  it('keeps none with --no-journal: GET /__mock/requests answers 404 saying why', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--no-journal']);
    try {
      await fetch(`${mock.url}/pets`, { headers: AUTH });
      const response = await journal(mock.url);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('The request journal is off');
    } finally {
      await mock.stop();
    }
  });

  it('rejects a --journal-size that is no number (exit 2)', async () => {
    const result = await runCli('petstore-mock', ['--journal-size', 'lots']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--journal-size <n>.*Expected a whole number from 0 to 1000000/);
  });
});
