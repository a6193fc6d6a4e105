/**
 * `petstore-verify --version` (and `-v`): the package's version on stdout, exit 0, without the base URL
 * and key that a verification needs, and without a request sent.
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
