/**
 * `petstore-mock` refuses at start what would let someone in: an empty key, the public default key
 * beyond loopback; and `--allowed-host` is the one way to serve another name.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { allowedHostProblem, interfaceProblem } from '../../src/mock/pipeline/server-reach.js';
import { runCli, startMockCli } from '../support/cli.js';
import { KEY } from '../support/http-facts.js';

const USAGE_TAIL = ' Run petstore-mock --help for every flag.\n';

/** The status of `GET /v1/pets` sent with this Host, which fetch would not let a test choose. */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path: '/v1/pets?limit=1', headers: { host, authorization: `Bearer ${KEY}` } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    })
      .on('error', reject)
      .end();
  });
}

describe('petstore-mock refuses an empty key after its label', () => {
  // Issue 23: the message no longer names the label, since what reads as a label may be a key.
  it('exits 2 on --api-key ci= (the variable after the label was unset), with a sentence', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--api-key', 'ci=']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `petstore-mock: option '-k, --api-key <key>' argument '***' is invalid. It is a label with no key after it: is the variable that should hold the key set? Give a key, as label:<key>.${USAGE_TAIL}`,
    );
  });

  it('exits 2 on PETSTORE_API_KEY=qa-team: too, printing neither label nor value', async () => {
    const result = await runCli('petstore-mock', ['--port', '0'], { PETSTORE_API_KEY: 'qa-team:' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('It is a label with no key after it');
    expect(result.stderr).not.toContain('qa-team');
  });

  it('takes a base64 key whose head reads as a label (openssl rand -base64 20), and labels with label:key', async () => {
    const key = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg=';
    const mock = await startMockCli(['--port', '0', '--api-key', key, '--api-key', 'ci:s3cr=t']);
    try {
      expect((await fetch(`${mock.url}/pets`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      expect((await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer s3cr=t' } })).status).toBe(200);
    } finally {
      await mock.stop();
    }
    expect(mock.stderr()).toContain('key=ci');
    expect(mock.stderr()).not.toContain(key.slice(0, 12));
  });

  it('still takes a base64 key that ends in =', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--api-key', 'dGVzdA==']);
    try {
      expect((await fetch(`${mock.url}/pets`, { headers: { authorization: 'Bearer dGVzdA==' } })).status).toBe(200);
    } finally {
      await mock.stop();
    }
  });
});

describe('petstore-mock beyond loopback', () => {
  it('refuses to start with the public default key, exit 2, and says how to go on', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--host', '0.0.0.0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `petstore-mock: --host 0.0.0.0 lets other machines reach the mock, and its default key ${KEY} is public: give your own with --api-key (or PETSTORE_API_KEY), or pass --allow-default-key if the default is meant.${USAGE_TAIL}`,
    );
  });

  it('refuses the public default given as a key, by --api-key, a label or PETSTORE_API_KEY, naming it by its label only (ninth red team, #4)', async () => {
    const fix = 'give your own with --api-key (or PETSTORE_API_KEY), or pass --allow-default-key if the default is meant.';
    for (const [args, env, which] of [
      [['--api-key', KEY], {}, 'a key it is given'],
      [['-k', `ci:${KEY}`], {}, 'the key labelled ci'],
      [['--api-key', 'team-secret', '--api-key', `lan=${KEY}`], {}, 'the key labelled lan'],
      [[], { PETSTORE_API_KEY: KEY }, 'a key it is given'],
    ] as const) {
      const result = await runCli('petstore-mock', ['--port', '0', '--host', '0.0.0.0', ...args], env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(
        `petstore-mock: --host 0.0.0.0 lets other machines reach the mock, and ${which} is the public default key, which anyone may read in the docs: ${fix}${USAGE_TAIL}`,
      );
    }
    const meant = await startMockCli(['--port', '0', '--quiet', '--host', '0.0.0.0', '-k', `ci:${KEY}`, '--allow-default-key']);
    await meant.stop();
  });

  it('starts with a key of its own, or with --allow-default-key', async () => {
    for (const args of [['--api-key', 'team-secret'], ['--allow-default-key']]) {
      const mock = await startMockCli(['--port', '0', '--quiet', '--host', '0.0.0.0', ...args]);
      await mock.stop();
    }
    const fromEnv = await startMockCli(['--port', '0', '--quiet', '--host', '0.0.0.0'], { PETSTORE_API_KEY: 'team-secret' });
    await fromEnv.stop();
  });
});

describe('petstore-mock --help', () => {
  // Issue 23: the help's admin example is a plain curl, which the admin now serves.
  it('teaches the guards: --allowed-host, --allow-default-key and X-Mock-Admin', async () => {
    const result = await runCli('petstore-mock', ['--help']);
    for (const words of ['--allowed-host <name>', '--allow-default-key', 'curl -X POST http://127.0.0.1:4010/__mock/reset', 'X-Mock-Admin: 1']) {
      expect(result.stdout).toContain(words);
    }
  });
});

describe('petstore-mock --allowed-host', () => {
  it('serves the names it is given and refuses others with 403', async () => {
    const mock = await startMockCli(['--port', '0', '--quiet', '--allowed-host', 'mock.internal', '--allowed-host', 'pets.test']);
    try {
      expect(await statusWithHost(mock.url, 'mock.internal:4010')).toBe(200);
      expect(await statusWithHost(mock.url, 'pets.test')).toBe(200);
      expect(await statusWithHost(mock.url, 'evil.test')).toBe(403);
    } finally {
      await mock.stop();
    }
  });

  it('refuses a value that is not a host name, exit 2', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--allowed-host', 'http://mock.internal:4010/']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Expected a host name such as mock.internal, without scheme, port or path.');
  });

  it('refuses, for --allowed-host and --host alike, what RFC 1123 calls no host name and no IP address, naming the rule', async () => {
    const names = ['.', '..', '-evil.com', 'evil-.com', 'a..b', '1.2.3.256', '300', `${'a'.repeat(64)}.test`, 'pets_test'];
    // Each name against the rule each flag applies as commander reads it (src/mock/hosts/cli-flags.ts), in
    // process; the CLI once a flag, for the exit and the sentence: 18 CLI runs took 4 s of CPU.
    for (const name of names) {
      expect(allowedHostProblem(name), `--allowed-host ${name}`).toContain('between dots (RFC 1123)');
      expect(interfaceProblem(name), `--host ${name}`).toContain('between dots (RFC 1123)');
    }
    const runs = [
      runCli('petstore-mock', ['--port', '0', '--allowed-host', '-evil.com']).then((result) => ({ flag: '--allowed-host', name: '-evil.com', result })),
      runCli('petstore-mock', ['--port', '0', '--host', '1.2.3.256']).then((result) => ({ flag: '--host', name: '1.2.3.256', result })),
    ];
    for (const { flag, name, result } of await Promise.all(runs)) {
      expect(result.code, `${flag} ${name}`).toBe(2);
      expect(result.stderr, `${flag} ${name}`).toContain('between dots (RFC 1123)');
    }
    // Still accepted: a name with its final dot, an IPv4 and an IPv6 address.
    const allowed = await startMockCli(['--port', '0', '--quiet', '--allowed-host', 'mock.internal.', '--allowed-host', '10.0.0.1', '--allowed-host', '::1']);
    await allowed.stop();
  });

  // WHATWG's URL parser reads http:///v1 as the host v1 (the /v1 lost): the host is read as written.
  it('refuses, for --proxy and petstore-verify --base-url alike, a URL whose host the same rule refuses, naming the flag', async () => {
    const urls = ['http:///v1', 'http://-evil.com/v1', 'http://..../v1', 'http://a..b/v1'];
    const runs = urls.flatMap((url) => [
      runCli('petstore-mock', ['--port', '0', '--proxy', url]).then((result) => ({ flag: '--proxy', url, result })),
      runCli('petstore-verify', ['--base-url', url, '--api-key', 'k']).then((result) => ({ flag: '--base-url', url, result })),
    ]);
    for (const { flag, url, result } of await Promise.all(runs)) {
      expect(result.code, `${flag} ${url}`).toBe(2);
      expect(result.stderr, `${flag} ${url}`).toContain(flag);
      expect(result.stderr, `${flag} ${url}`).toMatch(
        url === 'http:///v1' ? /must name the host/ : /is no IP address nor host name\. A name is .*\(RFC 1123\)/,
      );
    }
  });
});
