/**
 * `petstore-mock --version` (and `-v`, as Node, npm and vitest spell it): the package's version on stdout,
 * exit 0, before anything starts. bin/petstore-mock.js runs the dist/bin bundle, whose depth in the package
 * differs from the module it bundles: the version must resolve there too.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const manifest: { version: string } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));

describe('petstore-mock --version', () => {
  it.each([['--version'], ['-v']])('%s prints the version of the package alone, exit 0', async (flag) => {
    const result = await runCli('petstore-mock', [flag]);
    expect(result).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
  });

  it('prints the version instead of starting the server, whatever other flags say', async () => {
    const result = await runCli('petstore-mock', ['--port', '0', '--seed', '7', '--version']);
    expect(result).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
  });

  it('lists -v, --version in --help', async () => {
    const result = await runCli('petstore-mock', ['--help']);
    expect(result.stdout).toMatch(/^ {2}-v, --version +print the version and exit$/m);
  });
});
