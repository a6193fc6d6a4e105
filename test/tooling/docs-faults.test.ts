/**
 * docs/mock-faults.md's curl commands, run as written with the real curl against a mock with the
 * defaults the page assumes: each ends with the exit code and the message its comment shows.
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/hosts/node-server.js';
import { execFile } from '../support/children.js';
import { KEY } from '../support/http-facts.js';

const run = promisify(execFile);
const page = await readFile(new URL('../../docs/mock-faults.md', import.meta.url), 'utf8');
const block = /## One request[\s\S]*?```sh\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
const lines = block.split('\n');
/** Each command, with the comment line after it when there is one: `# curl: (56) Recv failure: ...`. */
const commands = lines.flatMap((line, i) =>
  line.startsWith('curl ') ? [{ command: line.replace(/\s+# .*$/, ''), shown: /^# (curl: \((\d+)\) .*)$/.exec(lines[i + 1] ?? '') }] : [],
);

describe('docs/mock-faults.md, its curl commands as written', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
  });
  afterAll(() => mock?.close());

  it('shows five commands, four with what curl says', () => {
    expect(commands).toHaveLength(5);
    expect(commands.filter(({ shown }) => shown)).toHaveLength(4);
  });

  it.each(commands.map(({ command, shown }) => [command, shown] as const))('%s', async (command, shown) => {
    const here = command.replaceAll('http://127.0.0.1:4010', new URL(mock.url).origin);
    const started = performance.now();
    const outcome = await run('bash', ['-c', here], { env: { ...process.env, KEY } }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    if (shown) {
      expect(outcome.code).toBe(Number(shown[2]));
      expect(outcome.stderr.trim()).toBe(shown[1]);
    } else {
      // The slow body: whole, after the trickle it asked for.
      expect(outcome.code).toBe(0);
      expect(performance.now() - started).toBeGreaterThan(4_000);
    }
  });
});
