import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_COUNT, DEFAULT_SEED } from '../fixtures/seed.js';
import { DEFAULT_API_KEY } from './auth.js';
import { isLoopback, startMockServer } from './server.js';
import { StateFileError } from './state-file.js';

/** Exit code for a usage error: a bad flag or value. */
export const EXIT_USAGE = 2;

function integerIn(min: number, max: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`Expected ${what} from ${min} to ${max}.`);
    return n;
  };
}

function isoDate(value: string): number {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new InvalidArgumentError('Expected an ISO 8601 date such as 2030-12-06T00:00:00Z.');
  return time;
}

function collect(value: string, previous: string[] | undefined): string[] {
  if (value === '') throw new InvalidArgumentError('An API key cannot be empty.');
  return [...(previous ?? []), value];
}

/** The `petstore-mock` command, ready for `parseAsync`. */
export function mockCommand(): Command {
  return new Command('petstore-mock')
    .description('Serve a stateful mock of the pet store API (spec/openapi.yaml) over seeded, realistic data.')
    .addOption(new Option('-p, --port <port>', 'TCP port; 0 picks a free one').default(4010).argParser(integerIn(0, 65535, 'a port')))
    .addOption(new Option('-H, --host <host>', 'interface to bind; 0.0.0.0 exposes the mock to your network').default('127.0.0.1'))
    .addOption(
      new Option('--seed <n>', 'seed of the generated pets: the same seed gives the same pets')
        .default(DEFAULT_SEED)
        .argParser(integerIn(0, 2 ** 32 - 1, 'a whole number')),
    )
    .addOption(new Option('--count <n>', 'how many pets to start with').default(DEFAULT_COUNT).argParser(integerIn(0, 10_000_000, 'a whole number')))
    .addOption(
      new Option('-k, --api-key <key>', `accepted bearer key; repeat for several (default: ${DEFAULT_API_KEY})`).env('PETSTORE_API_KEY').argParser(collect),
    )
    .addOption(new Option('--delay <ms>', 'latency added to every API answer').default(0).argParser(integerIn(0, 600_000, 'milliseconds')))
    .addOption(new Option('--now <date>', "start the mock's clock at this ISO date (after 2030-12-05, getPet answers 410)").argParser(isoDate))
    .option('--state <file>', 'keep created pets in this JSON file across restarts (saved before each 201)')
    .option('-q, --quiet', 'no request log')
    .addHelpText(
      'after',
      `
Examples:
  $ petstore-mock                                  # http://127.0.0.1:4010/v1, key ${DEFAULT_API_KEY}
  $ petstore-mock --port 0 --seed 7 --count 200    # a free port, other pets
  $ petstore-mock --api-key alpha --api-key beta   # accept two keys
  $ petstore-mock --now 2031-01-01T00:00:00Z       # rehearse the removal of GET /pets/{petId}
  $ petstore-mock --state .petstore-state.json     # created pets survive a restart
  $ curl -H 'Authorization: Bearer ${DEFAULT_API_KEY}' http://127.0.0.1:4010/v1/pets?limit=2

Admin endpoints: GET /__mock/health, POST /__mock/reset (no key needed on 127.0.0.1; beyond it, the key too).`,
    )
    .action(
      async (flags: {
        port: number;
        host: string;
        seed: number;
        count: number;
        apiKey?: string[];
        delay: number;
        now?: number;
        state?: string;
        quiet?: boolean;
      }) => {
        const offset = flags.now === undefined ? 0 : flags.now - Date.now();
        const server = await startMockServer({
          port: flags.port,
          host: flags.host,
          seed: flags.seed,
          count: flags.count,
          delay: flags.delay,
          ...(flags.apiKey ? { apiKeys: flags.apiKey } : {}),
          ...(offset === 0 ? {} : { now: () => Date.now() + offset }),
          ...(flags.state === undefined ? {} : { stateFile: flags.state }),
          ...(flags.quiet ? {} : { onRequest: (line: string) => process.stderr.write(`${line}\n`) }),
        }).catch((error: NodeJS.ErrnoException) => {
          if (error instanceof StateFileError) throw error;
          throw new Error(
            error.code === 'EADDRINUSE'
              ? `port ${flags.port} on ${flags.host} is already in use: stop the other process or pass --port 0 for a free port.`
              : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
                ? `cannot listen on ${flags.host}: it is not an address of this machine; try --host 127.0.0.1.`
                : `cannot start the server: ${error.message}`,
          );
        });
        const keys = flags.apiKey
          ? `${flags.apiKey.length} key(s) from ${process.env.PETSTORE_API_KEY && flags.apiKey.length === 1 ? 'PETSTORE_API_KEY' : '--api-key'}`
          : `key ${DEFAULT_API_KEY}`;
        const stop = () => {
          void server.close().then(() => process.exit(0));
        };
        process.once('SIGINT', stop).once('SIGTERM', stop);
        if (!isLoopback(flags.host)) {
          process.stderr.write(`petstore-mock: warning: --host ${flags.host} lets other machines reach the mock; /__mock/* now needs the key too.\n`);
        }
        const saved = flags.state === undefined ? '' : `, state in ${flags.state}: ${server.mock.store.size - flags.count} created pet(s) restored`;
        process.stdout.write(`petstore-mock listening on ${server.url} (${flags.count} pets, seed ${flags.seed}, ${keys}${saved})\n`);
      },
    );
}

/** Commander's message on one line, without its `error:` prefix. */
function oneLine(text: string): string {
  return text
    .replace(/^error: /, '')
    .trim()
    .replace(/\s*\n\s*/g, ' ');
}

/** Runs the CLI; resolves to the exit code for failures before the server runs. */
export async function runMockCli(argv: readonly string[]): Promise<number | undefined> {
  const command = mockCommand()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`petstore-mock: ${oneLine(text)} Run petstore-mock --help for every flag.\n`) });
  try {
    await command.parseAsync(argv, { from: 'user' });
    return undefined;
  } catch (error) {
    const code = (error as { code?: string; exitCode?: number }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return 0;
    if (code?.startsWith('commander.')) return EXIT_USAGE;
    process.stderr.write(`petstore-mock: ${(error as Error).message}\n`);
    return 1;
  }
}
