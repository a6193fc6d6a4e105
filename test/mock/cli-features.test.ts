import { describe, expect, it } from 'vitest';
import { type RunningMock, runCli, startMockCli } from '../support/cli.js';
import { AUTH } from '../support/http-facts.js';

/** Waits until the mock has logged `count` requests: each log line follows its answer (the bound is a hang's, not a speed's). */
const logged = (mock: RunningMock, count: number) => expect.poll(() => mock.stderr().match(/^GET /gm)?.length, { timeout: 30_000 }).toBe(count);

describe('petstore-mock CLI: sessions, Prefer, labelled keys, big ids, coverage, self-check', () => {
  it('logs a labelled key by its label and the session by its name, never the key', async () => {
    const mock = await startMockCli(['--port', '0', '--api-key', 'ci=ci-s3cret', '--api-key', 'plain-key', '--self-check']);
    try {
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer ci-s3cret', 'x-mock-session': 'worker-1' } });
      await fetch(`${mock.url}/pets?limit=2`, { headers: { authorization: 'Bearer plain-key' } });
      await logged(mock, 2);
      expect(mock.stderr()).toMatch(/^GET \/v1\/pets\?limit=1 200 \d+\.\dms key=ci session=worker-1$/m);
      expect(mock.stderr()).toMatch(/^GET \/v1\/pets\?limit=2 200 \d+\.\dms$/m);
      expect(mock.stderr()).not.toMatch(/s3cret|plain-key|self-check/);
    } finally {
      await mock.stop();
    }
  });

  it('serves ids beyond 2^53 with --big-ids, and reads a labelled key from PETSTORE_API_KEY', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--big-ids'], { PETSTORE_API_KEY: 'qa=qa-s3cret' });
    try {
      const response = await fetch(`${mock.url}/pets?limit=1`, { headers: { authorization: 'Bearer qa-s3cret' } });
      expect(await response.text()).toMatch(/^\[\{"id":9007199254740993,/);
    } finally {
      await mock.stop();
    }
  });

  it('ignores Prefer with --no-prefer, and honours it without', async () => {
    const plain = await startMockCli(['--port', '0', '--quiet', '--no-prefer']);
    const preferring = await startMockCli(['--port', '0', '--quiet']);
    try {
      const headers = { ...AUTH, prefer: 'code=503' };
      expect((await fetch(`${plain.url}/pets`, { headers })).status).toBe(200);
      expect((await fetch(`${preferring.url}/pets`, { headers })).status).toBe(503);
    } finally {
      await Promise.all([plain.stop(), preferring.stop()]);
    }
  });

  it('caps sessions with --max-sessions and expires idle ones after --session-ttl seconds', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--max-sessions', '1', '--session-ttl', '1']);
    try {
      const list = (session: string) => fetch(`${mock.url}/pets`, { headers: { ...AUTH, 'x-mock-session': session } });
      expect((await list('a')).status).toBe(200);
      expect((await list('b')).status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await list('b')).status).toBe(200);
    } finally {
      await mock.stop();
    }
  });

  it('prints the coverage on exit with --coverage', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--coverage']);
    await fetch(`${mock.url}/pets?status=sold`, { headers: AUTH });
    await fetch(`${mock.url}/pets/1`);
    expect(await mock.stop('SIGINT')).toBe(0);
    expect(mock.stderr()).toMatch(/^petstore-mock coverage: 3 of 28 documented statuses and enum values exercised$/m);
    expect(mock.stderr()).toContain('listPets   GET /v1/pets\n  exercised  200 ×1, query.status=sold ×1\n');
    expect(mock.stderr()).toContain('getPet     GET /v1/pets/{petId}\n  exercised  401 ×1\n  never      200, 400, 404, 410, 429, 500, 503\n');
  });

  it('teaches the new flags with --help', async () => {
    const result = await runCli('petstore-mock', ['--help']);
    for (const flag of [
      '--big-ids',
      '--no-prefer',
      '--session-ttl',
      '--max-sessions',
      '--coverage',
      '--self-check',
      'label=key',
      'X-Mock-Session',
      '/__mock/clock',
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });

  const usageErrors: [string[], RegExp][] = [
    [['--session-ttl', '0'], /--session-ttl <seconds>' argument '0' is invalid. Expected seconds from 1 to/],
    [['--max-sessions', 'many'], /--max-sessions <n>' argument 'many' is invalid/],
  ];
  for (const [args, stderr] of usageErrors) {
    it(`exits 2 with one line naming the flag for ${args.join(' ')}`, async () => {
      const result = await runCli('petstore-mock', args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(stderr);
    });
  }
});
