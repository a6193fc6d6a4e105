import { describe, expect, it } from 'vitest';
import { runCli, startMockCli } from '../support/cli.js';
import { AUTH, KEY } from '../support/http-facts.js';

describe('petstore-mock CLI', () => {
  it('prints its URL once it accepts connections, logs each request without the key, and exits 0 on SIGTERM', async () => {
    const mock = await startMockCli(['--port', '0']);
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${mock.url}/pets?limit=2`, { headers: AUTH });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(2);
    await fetch(`${mock.url}/pets/${KEY}`, { headers: AUTH });
    // Each log line follows its answer: wait for both (the bound is a hang's, not a speed's).
    await expect.poll(() => mock.stderr().match(/^GET /gm)?.length, { timeout: 30_000 }).toBe(2);
    expect(mock.stderr()).toMatch(/^GET \/v1\/pets\?limit=2 200 \d+\.\dms$/m);
    expect(mock.stderr()).not.toContain(KEY);
    expect(await mock.stop('SIGTERM')).toBe(0);
  });

  it('logs every request as one whole line, in the order it answered them, a key hidden each time it comes back', async () => {
    const mock = await startMockCli(['--port', '0']);
    try {
      const targets = Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? `/pets/${KEY}` : `/pets/${i + 1}`));
      for (const target of targets) await fetch(`${mock.url}${target}`, { headers: AUTH });
      // The log is written once the turn of the event loop is over: wait for its lines, however slow the machine.
      await expect.poll(() => mock.stderr().split('\n').length, { timeout: 30_000 }).toBeGreaterThan(targets.length);
      const lines = mock.stderr().trimEnd().split('\n');
      expect(lines.map((line) => line.replace(/ \d+\.\dms$/, ''))).toEqual(
        targets.map((target, i) => (i % 3 === 2 ? 'GET /v1/pets/*** 400' : `GET /v1${target} 200`)),
      );
      expect(mock.stderr()).not.toContain(KEY);
    } finally {
      await mock.stop();
    }
  });

  it('exits 0 on SIGINT', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet']);
    expect(await mock.stop('SIGINT')).toBe(0);
  });

  it('logs nothing with --quiet, and honours --seed, --count and repeated --api-key', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--seed', '7', '--count', '3', '--api-key', 'alpha', '--api-key', 'beta']);
    try {
      for (const key of ['alpha', 'beta']) {
        const pets = (await (await fetch(`${mock.url}/pets`, { headers: { authorization: `Bearer ${key}` } })).json()) as unknown[];
        expect(pets).toHaveLength(3);
      }
      expect((await fetch(`${mock.url}/pets`, { headers: AUTH })).status).toBe(401);
    } finally {
      await mock.stop();
    }
    // Read once it has stopped, so that a line written late is read too.
    expect(mock.stderr()).toBe('');
  });

  it('reads the key from PETSTORE_API_KEY', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet'], { PETSTORE_API_KEY: 'from-env' });
    try {
      expect((await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer from-env' } })).status).toBe(200);
    } finally {
      await mock.stop();
    }
  });

  it('refuses a PETSTORE_API_KEY with whitespace (a newline read from a file) without printing it', async () => {
    const result = await runCli('petstore-mock', ['--port', '0'], { PETSTORE_API_KEY: 'from-env-secret\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "petstore-mock: option '-k, --api-key <key>' value '***' from env 'PETSTORE_API_KEY' is invalid. An API key cannot contain whitespace (found at character 16): a Bearer token is one word. Run petstore-mock --help for every flag.\n",
    );
  });

  it('moves its clock with --now, retiring getPet after the sunset', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--now', '2031-01-01T00:00:00Z']);
    try {
      expect((await fetch(`${mock.url}/pets/1`, { headers: AUTH })).status).toBe(410);
    } finally {
      await mock.stop();
    }
  });

  it('delays answers by --delay milliseconds', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--delay', '150']);
    try {
      const started = performance.now();
      await fetch(`${mock.url}/pets`, { headers: AUTH });
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await mock.stop();
    }
  });

  const usageErrors: [string[], string][] = [
    [['--prot', '1'], "petstore-mock: unknown option '--prot' (Did you mean --port?) Run petstore-mock --help for every flag.\n"],
    [
      ['--port', 'abc'],
      "petstore-mock: option '-p, --port <port>' argument 'abc' is invalid. Expected a port from 0 to 65535. Run petstore-mock --help for every flag.\n",
    ],
    [
      ['--port', '70000'],
      "petstore-mock: option '-p, --port <port>' argument '70000' is invalid. Expected a port from 0 to 65535. Run petstore-mock --help for every flag.\n",
    ],
    [
      ['--count', '-1'],
      "petstore-mock: option '--count <n>' argument '-1' is invalid. Expected a whole number from 0 to 10000000. Run petstore-mock --help for every flag.\n",
    ],
    [
      ['--now', 'soon'],
      "petstore-mock: option '--now <date>' argument 'soon' is invalid. Expected an ISO 8601 date such as 2030-12-06T00:00:00Z. Run petstore-mock --help for every flag.\n",
    ],
    [
      ['--now', '2030-02-30T00:00:00Z'],
      "petstore-mock: option '--now <date>' argument '2030-02-30T00:00:00Z' is invalid. 2030-02-30T00:00:00Z is not a day of the calendar: February 2030 has 28 days. Give a date of the calendar, such as 2030-12-06T00:00:00Z. Run petstore-mock --help for every flag.\n",
    ],
    [
      ['--now', '9999-12-31T23:59:59Z'],
      "petstore-mock: option '--now <date>' argument '9999-12-31T23:59:59Z' is invalid. 9999-12-31T23:59:59Z is outside the years an RFC 3339 date prints (0001 to 9999, leaving the clock a year to tick): give a date from 0001-01-01T00:00:00.000Z to 9998-12-31T23:59:59.999Z. Give a date of the calendar, such as 2030-12-06T00:00:00Z. Run petstore-mock --help for every flag.\n",
    ],
    [
      ['--host', ''],
      "petstore-mock: option '-H, --host <host>' argument '' is invalid. Expected an interface to bind: an IP address such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface), or a host name such as localhost. Run petstore-mock --help for every flag.\n",
    ],
    [
      ['--data', '/dev/zero'],
      'petstore-mock: --data /dev/zero: It cannot be read: it is a character device (such as /dev/zero), not a regular file; give a JSON or YAML file holding a list of pets. Run petstore-mock --help for every flag.\n',
    ],
    [
      ['--api-key='],
      "petstore-mock: option '-k, --api-key <key>' argument '' is invalid. An API key cannot be empty. Run petstore-mock --help for every flag.\n",
    ],
    [
      ['--api-key', 'ci=s3cret key'],
      "petstore-mock: option '-k, --api-key <key>' argument '***' is invalid. An API key cannot contain whitespace (found at character 7): a Bearer token is one word. Run petstore-mock --help for every flag.\n",
    ],
    [
      // A sentence about another flag hides the keys the command line names, wherever they stand (red team 7, #4).
      ['--data', '/nonexistent/KeyInAPath-0042.json', '-k', 'ci:KeyInAPath-0042'],
      'petstore-mock: --data /nonexistent/***.json: Cannot read it (ENOENT); give a JSON or YAML file holding a list of pets. Run petstore-mock --help for every flag.\n',
    ],
    [
      // The key given in short flags together, as the parser reads them (red team 9, #11).
      ['-qk', 'KeyInShortFlags-0042', '--data', '/nonexistent/KeyInShortFlags-0042.json'],
      'petstore-mock: --data /nonexistent/***.json: Cannot read it (ENOENT); give a JSON or YAML file holding a list of pets. Run petstore-mock --help for every flag.\n',
    ],
    [
      // A short key is hidden only as a token of its own: `-k an` once printed "C***not read it".
      ['-k', 'an', '--data', '/nonexistent/x.json'],
      'petstore-mock: --data /nonexistent/x.json: Cannot read it (ENOENT); give a JSON or YAML file holding a list of pets. Run petstore-mock --help for every flag.\n',
    ],
    [
      ['--api-key', 'euro-€-key'],
      "petstore-mock: option '-k, --api-key <key>' argument '***' is invalid. An API key is sent in an HTTP header, which carries visible ASCII only: it cannot hold a control character or a non-ASCII one; give the key exactly as it was issued. Run petstore-mock --help for every flag.\n",
    ],
  ];
  for (const [args, stderr] of usageErrors) {
    it(`exits 2 with one line naming the flag for ${args.join(' ')}`, async () => {
      const result = await runCli('petstore-mock', args);
      expect(result).toEqual({ code: 2, stdout: '', stderr });
    });
  }

  it('serves with a key of 5,000 characters and prints it nowhere (red team 9, #9: 4,700 killed the CLI at start, the key in hex)', async () => {
    const key = Array.from({ length: 5_000 }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[(i * 7919 + (i >> 3)) % 62]).join('');
    const mock = await startMockCli(['--port', '0', '--api-key', key, '--data', `/nonexistent/${key}`]).catch((error: unknown) => String(error));
    expect(String(mock)).toMatch(/exited with 2 before listening: .*--data \/nonexistent\/\*\*\*: /s);
    expect(String(mock)).not.toContain(key.slice(100, 140));
    const served = await startMockCli(['--port', '0', '--api-key', key]);
    try {
      expect((await fetch(`${served.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const refused = await fetch(`${served.url}/pets/${key}`, { headers: { authorization: `Bearer ${key}` } });
      expect(refused.status).toBe(400);
      expect(await refused.text()).not.toContain(key.slice(100, 140));
      expect(served.stdout() + served.stderr()).not.toContain(key.slice(100, 140));
    } finally {
      await served.stop();
    }
  });

  it('says what to do when the port is taken, and exits 1', async () => {
    const first = await startMockCli(['--port', '0', '--quiet']);
    try {
      const port = new URL(first.url).port;
      const result = await runCli('petstore-mock', ['--port', port]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`petstore-mock: port ${port} on 127.0.0.1 is already in use: stop the other process or pass --port 0 for a free port.\n`);
    } finally {
      await first.stop();
    }
  });

  it('teaches with --help: every flag, examples, exit 0', async () => {
    const result = await runCli('petstore-mock', ['--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--port', '--host', '--seed', '--count', '--api-key', '--delay', '--now', '--quiet', 'Examples:', 'PETSTORE_API_KEY']) {
      expect(result.stdout).toContain(flag);
    }
  });
});
