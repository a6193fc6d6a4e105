/**
 * The code API's numbers keep the CLI's ranges (`MOCK_BOUNDS`, src/mock/core/defaults.ts; red team 6,
 * #9): `count: 2e7` was served (3.5 GB), `delay: 2 ** 31` and `timeouts: { drainMs: 1e12 }` overflowed
 * Node's timers to 1 ms, `seed: -1` and `sessionTtl: 1e15` started. Each through the package's entry points.
 */
import { describe, expect, it } from 'vitest';
import { createMockApi, MOCK_DEFAULTS, startMockServer } from '../../src/index.js';
import { runCli } from '../support/cli.js';

describe('the code API refuses a number past the range the CLI takes, naming the option and the range', () => {
  it.each([
    [{ count: 2e7 }, 'count must be a whole number from 0 to 10000000; got 20000000'],
    [{ seed: -1 }, 'seed must be a whole number from 0 to 4294967295; got -1'],
    [{ delay: 2 ** 31 }, 'delay must be a whole number from 0 to 600000; got 2147483648'],
    [{ delay: Number.POSITIVE_INFINITY }, 'delay must be a whole number from 0 to 600000; got Infinity'],
    [{ sessionTtl: 1e15 }, 'sessionTtl must be a whole number from 1 to 31536000000; got 1000000000000000'],
    [{ maxSessions: 1e9 }, 'maxSessions must be a whole number from 0 to 100000; got 1000000000'],
    [{ journalSize: 1e9 }, 'journalSize must be a whole number from 0 to 1000000; got 1000000000'],
    [{ journalBodyLimit: 1e9 }, 'journalBodyLimit must be a whole number from 0 to 1048576; got 1000000000'],
  ])('%j', async (options, sentence) => {
    expect(() => createMockApi(options)).toThrow(sentence);
    await expect(startMockServer({ port: 0, ...options })).rejects.toThrow(sentence);
  });

  it('refuses a server time past the range too: storeTimeout, and a limit on slow clients past a day (Node’s longest timer is 24.8 days)', async () => {
    await expect(startMockServer({ port: 0, storeTimeout: 1e12 })).rejects.toThrow('storeTimeout must be a whole number from 1 to 600000; got 1000000000000');
    await expect(startMockServer({ port: 0, timeouts: { drainMs: 1e12 } })).rejects.toThrow(
      'timeouts.drainMs must be a whole number from 1 to 86400000; got 1000000000000',
    );
  });

  it('takes each end of each range, as the CLI does', async () => {
    const mock = createMockApi({ count: 0, seed: 2 ** 32 - 1, delay: 600_000, sessionTtl: 31_536_000_000, maxSessions: 100_000, journalSize: 1_000_000 });
    expect(mock.options).toMatchObject({ count: 0, seed: 2 ** 32 - 1, maxSessions: 100_000 });
    expect(createMockApi({ journalBodyLimit: 1_048_576, sessionTtl: 1 }).options.journalBodyLimit).toBe(1_048_576);
    const cli = await runCli('petstore-mock', ['--port', '0', '--count', '10000001']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('Expected a whole number from 0 to 10000000.');
    expect(MOCK_DEFAULTS.count).toBeLessThanOrEqual(10_000_000);
  });
});
