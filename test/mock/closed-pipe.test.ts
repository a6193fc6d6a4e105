import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawn } from '../support/children.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a CLI whose stdout reader has gone before it writes (`petstore-mock --help | head -0`). */
function runWithStdoutClosed(name: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`bin/${name}.js`, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    // Closed at once: the command takes far longer to start than this takes to run.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a CLI whose output pipe is closed by its reader', () => {
  for (const name of ['petstore-mock', 'petstore-verify']) {
    it(`${name} --help ends with its own exit code and no EPIPE stack`, async () => {
      const result = await runWithStdoutClosed(name, ['--help']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    });
  }
});
