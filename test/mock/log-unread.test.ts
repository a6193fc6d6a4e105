/**
 * The request log of a mock whose stderr nobody reads (a paused `| less`, a supervisor that reads only
 * stdout) is bounded (red team 6, #12): the mock once kept every line waiting (+93 MiB for 120 MB of
 * log); past `MAX_UNSENT_LOG_BYTES` it drops lines, and says how many once stderr is read again.
 * The CLI as a real process, its stderr a pipe left unread while requests arrive.
 */

import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { MAX_UNSENT_LOG_BYTES } from '../../src/mock/hosts/line-writer.js';
import { spawn } from '../support/children.js';
import { pipeline, rawRequest } from '../support/raw-http.js';

describe('petstore-mock with stderr unread', () => {
  it('drops log lines past the bound and says so once stderr is read', async () => {
    const child = spawn(process.execPath, ['bin/petstore-mock.js', '--port', '0', '--api-key', 'unread-log-key-1234'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      child.stderr.pause();
      const [banner] = (await once(child.stdout, 'data')) as [Buffer];
      const port = Number(/:(\d+)\/v1/.exec(banner.toString())?.[1]);
      // 400 requests with a query of 15,000 characters: 6 MB of log lines, past the pipe's 64 KiB and the bound.
      const query = 'q'.repeat(15_000);
      for (let batch = 0; batch < 20; batch++) {
        const requests = Array.from({ length: 20 }, (_, n) =>
          rawRequest('GET', `/v1/pets?limit=1&q=${query}&n=${batch}-${n}`, ['Authorization: Bearer unread-log-key-1234']),
        );
        const { responses } = await pipeline(port, [
          ...requests.slice(0, -1),
          rawRequest('GET', '/v1/pets?limit=1', ['Authorization: Bearer unread-log-key-1234', 'Connection: close']),
        ]);
        expect(responses).toHaveLength(20);
      }
      let log = '';
      child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.stderr.resume();
      // Requests once the reader takes the log again: their lines are written again. One a poll, since a line
      // made before the writer has drained what waited is still past the bound (a busy machine drains slowly).
      let after = 0;
      await expect
        .poll(
          async () => {
            await pipeline(port, [rawRequest('GET', `/v1/pets?limit=1&after=${++after}`, ['Authorization: Bearer unread-log-key-1234', 'Connection: close'])]);
            return log;
          },
          { timeout: 60_000, interval: 500 },
        )
        .toMatch(/&after=\d+ 200/);
      expect(log).toMatch(
        new RegExp(`petstore-mock: \\d+ line\\(s\\) of the log dropped: stderr was not read \\(over ${MAX_UNSENT_LOG_BYTES} bytes waited for its reader\\)`),
      );
      // What was kept is within the bound and the pipe's own buffer, far below the 6 MB written.
      expect(log.length).toBeLessThan(MAX_UNSENT_LOG_BYTES + 2 * 1024 * 1024);
    } finally {
      child.kill();
    }
  }, 120_000);
});
