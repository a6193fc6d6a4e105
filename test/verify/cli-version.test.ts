/**
 * `petstore-verify --version` (and `-v`): the package's version on stdout, exit 0, without the base URL
 * and key that a verification needs, and without a request sent. It and `--help` answer without loading
 * the run (its suites, the spec's validators, the reporters): seen by the modules Node loads, not by a
 * clock a busy machine could break.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const manifest: { version: string } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));

describe('petstore-verify --version', () => {
  it.each([['--version'], ['-v']])('%s prints the version of the package alone, exit 0, with no --base-url or --api-key', async (flag) => {
    const result = await runCli('petstore-verify', [flag]);
    expect(result).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
  });

  it('prints the version instead of verifying, whatever other flags say', async () => {
    // Port 9 (discard) would refuse the connection: a request sent would show as exit 2.
    const result = await runCli('petstore-verify', ['--base-url', 'http://127.0.0.1:9/v1', '--version'], { PETSTORE_API_KEY: 'petstore-dev-key' });
    expect(result).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
  });

  it('lists -v, --version in --help', async () => {
    const result = await runCli('petstore-verify', ['--help']);
    expect(result.stdout).toMatch(/^ {2}-v, --version +print the version and exit$/m);
  });
});

/** The project's modules (and ajv, yaml, lossless-json) a run of the CLI with `args` loads, read from Node's own module hooks. */
async function modulesLoaded(args: readonly string[]): Promise<string[]> {
  const hook = `
    import { registerHooks } from 'node:module';
    registerHooks({ load(url, context, next) { process.stderr.write('loaded ' + url + '\\n'); return next(url, context); } });
  `;
  const result = await runCli('petstore-verify', args, { NODE_OPTIONS: `--import=data:text/javascript;base64,${Buffer.from(hook).toString('base64')}` });
  expect(result.code).toBe(0);
  return [...result.stderr.matchAll(/^loaded (\S+)$/gm)].map((match) => match[1] as string).filter((url) => /\/(dist|ajv|yaml|lossless-json)\//.test(url));
}

describe('petstore-verify --version and --help load nothing of the run', () => {
  it.each([['--version'], ['--help']])('%s loads neither the runner, the checks, the reporters nor the spec', async (flag) => {
    const loaded = await modulesLoaded([flag]);
    expect(loaded.some((url) => url.endsWith('/dist/contracts/verify-cli.js'))).toBe(true);
    // pact-module.js and fast-check-module.js only ask whether the optional peers resolve, to check the flags.
    const heavy =
      /contracts\/(runner|cli-run|check|http)\.js|\/(checks|reporters|openapi)\/|\/pact\/(suite|worker|proxy|pacts)\.js|\/(ajv|yaml|lossless-json)\//;
    expect(loaded.filter((url) => heavy.test(url))).toEqual([]);
  });
});
