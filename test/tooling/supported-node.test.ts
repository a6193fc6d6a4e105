/**
 * On a Node older than package.json's `engines`, both commands, `npm start` and `npm test` say so in
 * one line and exit with the usage code before they load anything (bin/supported-node.js). Run on a real
 * Node 20, which scripts/with-node.sh fetches from the registry once; `npm` itself then runs on it too.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.js';
import { root } from '../package/projects.js';
import { execFile } from '../support/children.js';

const OLD_NODE = '20';
/** The oldest Node that package.json's `engines` allows (`>=22.13`): the gate names it. */
const { engines } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const MINIMUM = engines.node.replace(/^>=\s*/, '');

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `command` with Node `OLD_NODE` first on PATH, from the repository's root. */
function onOldNode(...command: string[]): Promise<Ran> {
  const { PETSTORE_API_KEY: _key, PETSTORE_BASE_URL: _url, ...env } = process.env;
  // npm run passes its own npm_* settings down; the npm started here must read none of them.
  const clean = Object.fromEntries(Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  return new Promise((resolve) => {
    execFile(join(root, 'scripts/with-node.sh'), [OLD_NODE, '--', ...command], { cwd: root, env: clean, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** The line the gate prints for `what` on Node 20. */
const refusal = (what: string) =>
  new RegExp(
    `^${what} needs Node\\.js ${MINIMUM.replaceAll('.', '\\.')} or later, and this is Node\\.js ${OLD_NODE}\\.\\d+\\.\\d+ \\(.+\\): install Node\\.js .+ and run it again\\.\\n$`,
  );

describe('on Node 20, older than engines allows', () => {
  it.each([['petstore-mock'], ['petstore-verify']])(
    '%s --help says in one line which Node it needs, and exits 2 having loaded nothing else',
    async (command) => {
      const ran = await onOldNode('node', `bin/${command}.js`, '--help');
      expect(ran).toEqual({ code: EXIT.usage, stdout: '', stderr: expect.stringMatching(refusal(command)) });
    },
  );

  it.each([
    ['npm start', ['npm', 'start', '--silent', '--', '--help']],
    ['npm test', ['npm', 'test', '--silent']],
    // Redocly, which lint runs, would print its own banner of Node 20's end of support.
    ['npm run lint', ['npm', 'run', 'lint', '--silent']],
  ])('%s says it in one line and exits 2 at once, before build, lint or vitest', async (what, command) => {
    const ran = await onOldNode(...command);
    expect(ran).toEqual({ code: EXIT.usage, stdout: '', stderr: expect.stringMatching(refusal(what)) });
  });

  it('keeps contributors on a supported Node at install: .npmrc sets engine-strict', async () => {
    expect((await readFile(join(root, '.npmrc'), 'utf8')).split('\n')).toContain('engine-strict=true');
  });
});
