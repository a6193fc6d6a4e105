import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { EXIT, exitCodeOf, StateFileError, StoreUnavailableError, UsageError } from '../../errors.js';
import { BASE_PATH } from '../../openapi/facts.js';
import { type ProfileDocument, readProfile } from '../../profile/profile.js';
import { ADMIN_ENDPOINTS } from '../admin/endpoints.js';
import { coarseClock } from '../core/coarse-clock.js';
import { MOCK_DEFAULTS } from '../core/defaults.js';
import { apiKeyProblem, KEY_LABEL, type LabelledApiKey, parseApiKey } from '../pipeline/auth.js';
import { startProxyServer } from '../proxy/proxy-server.js';
import { formatCoverage } from '../state/coverage.js';
import { displayUrl, namespaceProblem } from '../state/redis/redis-store.js';
import { openSharedState } from '../state/redis/shared-state.js';
import { isLoopback, startMockServer } from './node-server.js';
import { forkWorkers, isWorkerProcess } from './workers.js';

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

function redisUrl(value: string): string {
  try {
    displayUrl(value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
  return value;
}

function namespace(value: string): string {
  const problem = namespaceProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return value;
}

function collectHost(value: string, previous: string[] | undefined): string[] {
  if (!/^[A-Za-z0-9.-]+$/.test(value)) throw new InvalidArgumentError('Expected a host name such as mock.internal, without scheme, port or path.');
  return [...(previous ?? []), value];
}

function collect(value: string, previous: (string | LabelledApiKey)[] | undefined): (string | LabelledApiKey)[] {
  // `--api-key ci=$CI_KEY` with the variable unset: a label and nothing after it is no key at all.
  const label = /^([^=]+)=$/.exec(value)?.[1];
  if (label !== undefined && KEY_LABEL.test(label)) {
    throw new InvalidArgumentError(`The key after the label ${label}= is empty: is the variable that should hold it set? Give a key, as ${label}=<key>.`);
  }
  const parsed = parseApiKey(value);
  const problem = apiKeyProblem(typeof parsed === 'string' ? parsed : parsed.key);
  if (problem !== undefined) throw new InvalidArgumentError(`${problem[0]?.toUpperCase()}${problem.slice(1)}.`);
  return [...(previous ?? []), parsed];
}

/** A profile file, read and checked while the flags are: a profile the contract forbids stops the CLI (exit 2) naming its field. */
function profileFile(path: string): ProfileDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidArgumentError(
      `Cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}); learn one with petstore-verify --write-profile ${path}.`,
    );
  }
  try {
    return readProfile(JSON.parse(text));
  } catch (error) {
    throw new InvalidArgumentError(
      `${error instanceof SyntaxError ? `It is not JSON: ${error.message}` : (error as Error).message}; fix the file, or learn it again with petstore-verify --write-profile.`,
    );
  }
}

interface Flags {
  port: number;
  host: string;
  allowedHost?: string[];
  allowDefaultKey?: boolean;
  seed: number;
  count: number;
  apiKey?: (string | LabelledApiKey)[];
  delay: number;
  now?: number;
  bigIds?: boolean;
  prefer: boolean;
  sessionTtl: number;
  maxSessions: number;
  coverage?: boolean;
  selfCheck?: boolean;
  state?: string;
  profile?: ProfileDocument;
  proxy?: string;
  upstreamKey?: string;
  store?: string;
  namespace?: string;
  workers?: number;
  quiet?: boolean;
}

/** How the banner names the keys: where they come from, and their labels; never a key. */
function describeKeys(keys: Flags['apiKey']): string {
  if (!keys) return `key ${MOCK_DEFAULTS.apiKey}`;
  const source = process.env.PETSTORE_API_KEY && keys.length === 1 ? 'PETSTORE_API_KEY' : '--api-key';
  const labels = keys.flatMap((key) => (typeof key === 'string' ? [] : [key.label]));
  return `${keys.length} key(s) from ${source}${labels.length > 0 ? `: ${labels.join(', ')}` : ''}`;
}

/** The `petstore-mock` command, ready for `parseAsync`. */
export function mockCommand(): Command {
  return new Command('petstore-mock')
    .description('Serve a stateful mock of the pet store API (spec/openapi.yaml) over seeded, realistic data.')
    .addOption(new Option('-p, --port <port>', 'TCP port; 0 picks a free one').default(MOCK_DEFAULTS.port).argParser(integerIn(0, 65535, 'a port')))
    .addOption(new Option('-H, --host <host>', 'interface to bind; 0.0.0.0 exposes the mock to your network').default(MOCK_DEFAULTS.host))
    .addOption(
      new Option('--allowed-host <name>', 'a host name clients may reach the mock by, besides localhost and IP addresses; repeat for several').argParser(
        collectHost,
      ),
    )
    .option('--allow-default-key', `with --host beyond this machine, accept the public default key ${MOCK_DEFAULTS.apiKey} instead of refusing to start`)
    .addOption(
      new Option('--seed <n>', 'seed of the generated pets: the same seed gives the same pets')
        .default(MOCK_DEFAULTS.seed)
        .argParser(integerIn(0, 2 ** 32 - 1, 'a whole number')),
    )
    .addOption(new Option('--count <n>', 'how many pets to start with').default(MOCK_DEFAULTS.count).argParser(integerIn(0, 10_000_000, 'a whole number')))
    .addOption(
      new Option('-k, --api-key <key>', `accepted bearer key, or label=key to log it as key=label; repeat for several (default: ${MOCK_DEFAULTS.apiKey})`)
        .env('PETSTORE_API_KEY')
        .argParser(collect),
    )
    .addOption(new Option('--delay <ms>', 'latency added to every API answer').default(MOCK_DEFAULTS.delay).argParser(integerIn(0, 600_000, 'milliseconds')))
    .addOption(new Option('--now <date>', "start the mock's clock at this ISO date (after 2030-12-05, getPet answers 410)").argParser(isoDate))
    .option('--big-ids', 'ids beyond 2^53, exact in the JSON: shows clients that read ids into JavaScript numbers')
    .option('--no-prefer', 'ignore Prefer: code=, delay=, auth=expired and the __code-style query parameters')
    .addOption(
      new Option('--session-ttl <seconds>', 'drop a named session (X-Mock-Session) after this long idle')
        .default(MOCK_DEFAULTS.sessionTtl / 1000)
        .argParser(integerIn(1, 31_536_000, 'seconds')),
    )
    .addOption(
      new Option('--max-sessions <n>', 'how many named sessions may be open at once')
        .default(MOCK_DEFAULTS.maxSessions)
        .argParser(integerIn(0, 100_000, 'a whole number')),
    )
    .option('--coverage', 'on exit, print which documented statuses and enum values clients exercised (also GET /__mock/coverage)')
    .option('--self-check', 'check every answer against spec/openapi.yaml; a mismatch is logged and answered 500')
    .option('--state <file>', 'keep created pets in this JSON file across restarts (saved before each 201)')
    .addOption(
      new Option('--profile <file>', "mimic a deployment's choices where the interface leaves room (learned by petstore-verify --write-profile)").argParser(
        profileFile,
      ),
    )
    .option(
      '--proxy <base url>',
      'forward the API to this deployment instead (admin stays local): violations logged and in X-Contract-Violation, drift from the mock in GET /__mock/drift',
    )
    .addOption(
      new Option('--upstream-key <key>', "the key sent to the --proxy deployment (never printed); without it, the client's Authorization is forwarded").env(
        'PETSTORE_UPSTREAM_KEY',
      ),
    )
    .addOption(
      new Option('--store <url>', 'keep all state in Redis (redis://host:port[/db]), shared by every mock on it; needs the ioredis package').argParser(
        redisUrl,
      ),
    )
    .addOption(new Option('--namespace <name>', 'key prefix in Redis, so that several mocks share one Redis (default: petstore)').argParser(namespace))
    .addOption(
      new Option('--workers <n>', 'serve from n processes sharing the port, one per core (needs --store)').argParser(
        integerIn(1, 256, 'a number of processes'),
      ),
    )
    .option('-q, --quiet', 'no request log')
    .addHelpText(
      'after',
      `
Examples:
  $ petstore-mock                                  # http://127.0.0.1:4010/v1, key ${MOCK_DEFAULTS.apiKey}
  $ petstore-mock --port 0 --seed 7 --count 200    # a free port, other pets
  $ petstore-mock --api-key alpha --api-key beta   # accept two keys
  $ petstore-mock --now 2031-01-01T00:00:00Z       # rehearse the removal of GET /pets/{petId}
  $ petstore-mock --api-key ci=$CI_KEY --coverage  # the log says key=ci; coverage printed on exit
  $ petstore-mock --big-ids --self-check           # ids beyond 2^53; every answer checked against the spec
  $ petstore-mock --state .petstore-state.json     # created pets survive a restart
  $ petstore-mock --profile petstore-profile.json  # answer as the deployment it was learned from does
  $ petstore-mock --proxy https://staging.example.com/v1 --profile petstore-profile.json   # watch staging for violations and drift
  $ curl -H 'Authorization: Bearer ${MOCK_DEFAULTS.apiKey}' http://127.0.0.1:4010/v1/pets?limit=2
  $ curl -H 'Authorization: Bearer ${MOCK_DEFAULTS.apiKey}' -H 'Prefer: code=503' http://127.0.0.1:4010/v1/pets
  $ curl -H 'Authorization: Bearer ${MOCK_DEFAULTS.apiKey}' -H 'X-Mock-Session: worker-1' http://127.0.0.1:4010/v1/pets

Admin endpoints (no key needed on 127.0.0.1, the key beyond it; X-Mock-Session picks the session):
${ADMIN_ENDPOINTS.map(({ method, path, summary }) => `  ${`${method} ${path}`.padEnd(38)} ${summary}`).join('\n')}
POST and DELETE need Content-Type: application/json or X-Mock-Admin: 1, and pages on other origins are refused:
  $ curl -X POST -H 'X-Mock-Admin: 1' http://127.0.0.1:4010/__mock/reset`,
    )
    .action(async (flags: Flags, command: Command) => {
      if (flags.proxy !== undefined) return runProxy(flags);
      if (flags.upstreamKey !== undefined && command.getOptionValueSource('upstreamKey') === 'cli')
        command.error('--upstream-key needs --proxy <base url>: it is the key sent to the deployment the proxy forwards to.');
      if (flags.state !== undefined && flags.store !== undefined) {
        command.error(
          '--state and --store cannot go together: --state keeps the pets of one process in a file, and with --store Redis keeps them (see its AOF settings in docs/redis.md); pass one of them.',
          {
            code: 'commander.conflictingOption',
            exitCode: EXIT.usage,
          },
        );
      }
      if (!isLoopback(flags.host) && !flags.apiKey && !flags.allowDefaultKey) {
        command.error(
          `--host ${flags.host} lets other machines reach the mock, and its default key ${MOCK_DEFAULTS.apiKey} is public: give your own with --api-key (or PETSTORE_API_KEY), or pass --allow-default-key if the default is meant.`,
          { exitCode: EXIT.usage, code: 'commander.defaultKeyBeyondLoopback' },
        );
      }
      if (flags.workers !== undefined) {
        if (flags.store === undefined) {
          command.error(
            '--workers needs --store redis://host:port: each worker is a process of its own, and without a shared store each would answer from its own pets, sessions and clock.',
            { code: 'commander.missingMandatoryOptionValue', exitCode: EXIT.usage },
          );
        }
        if (!isWorkerProcess()) return serveWithWorkers(flags, flags.workers, flags.store);
      }
      const offset = flags.now === undefined ? 0 : flags.now - Date.now();
      const server = await startMockServer({
        port: flags.port,
        host: flags.host,
        ...(flags.allowedHost ? { allowedHosts: flags.allowedHost } : {}),
        seed: flags.seed,
        count: flags.count,
        delay: flags.delay,
        bigIds: flags.bigIds === true,
        prefer: flags.prefer,
        sessionTtl: flags.sessionTtl * 1000,
        maxSessions: flags.maxSessions,
        ...(flags.selfCheck ? { selfCheck: (mismatch: string) => process.stderr.write(`petstore-mock: self-check: ${mismatch}\n`) } : {}),
        ...(flags.apiKey ? { apiKeys: flags.apiKey } : {}),
        ...(offset === 0 ? {} : { now: coarseClock(() => Date.now() + offset) }),
        ...(flags.state === undefined ? {} : { stateFile: flags.state }),
        ...(flags.profile === undefined ? {} : { profile: flags.profile }),
        ...(flags.store === undefined ? {} : { store: flags.store }),
        ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
        ...(flags.quiet ? {} : { onRequest: (line: string) => process.stderr.write(`${line}\n`) }),
      }).catch((error: NodeJS.ErrnoException) => {
        if (error instanceof StateFileError || error instanceof StoreUnavailableError) throw error;
        throw new Error(
          error.code === 'EADDRINUSE'
            ? `port ${flags.port} on ${flags.host} is already in use: stop the other process or pass --port 0 for a free port.`
            : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
              ? `cannot listen on ${flags.host}: it is not an address of this machine; try --host 127.0.0.1.`
              : `cannot start the server: ${error.message}`,
        );
      });
      const stop = () => {
        void server
          .close()
          .then(async () => {
            // Workers share one coverage; the primary has none to print.
            if (flags.coverage && !isWorkerProcess()) process.stderr.write(formatCoverage(await server.mock.coverage()));
          })
          .finally(() => process.exit(0));
      };
      process.once('SIGINT', stop).once('SIGTERM', stop);
      // A worker's primary says where the mock listens and warns, once for all workers.
      if (isWorkerProcess()) return;
      warnIfReachable(flags.host);
      const shared = server.mock.options.shared;
      const seeded = shared?.store.recipe ?? { seed: flags.seed, count: flags.count, bigIds: flags.bigIds === true };
      const ids = seeded.bigIds ? ', big ids' : '';
      const mimics = flags.profile === undefined ? '' : ', with a profile (GET /__mock/profile)';
      const saved = flags.state === undefined ? '' : `, state in ${flags.state}: ${(await server.mock.store.size) - flags.count} created pet(s) restored`;
      const where = shared ? `, ${describeStore(shared.store.url, shared.store.namespace, flags, seeded)}` : '';
      process.stdout.write(
        `petstore-mock listening on ${server.url} (${seeded.count} pets, seed ${seeded.seed}${ids}, ${describeKeys(flags.apiKey)}${saved}${where}${mimics})\n`,
      );
    });
}

/** `--proxy`: the validating proxy in front of a deployment, until SIGINT or SIGTERM; then a summary. */
async function runProxy(flags: Flags): Promise<void> {
  const upstream = flags.proxy ?? '';
  const proxy = await startProxyServer({
    upstream,
    port: flags.port,
    host: flags.host,
    ...(flags.upstreamKey ? { upstreamKey: flags.upstreamKey } : {}),
    ...(flags.profile === undefined ? {} : { profile: flags.profile }),
    onProblem: (line) => process.stderr.write(`${line}\n`),
    ...(flags.quiet ? {} : { onRequest: (line: string) => process.stderr.write(`${line}\n`) }),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error instanceof TypeError) throw new UsageError(`--proxy: ${error.message}`);
    throw new Error(error.code === 'EADDRINUSE' ? `port ${flags.port} on ${flags.host} is already in use: pass --port 0 for a free port.` : error.message);
  });
  const stop = () => {
    void proxy.close().then(() => {
      const { requests, violations, drift } = proxy.report();
      const aspects = Object.entries(drift.byAspect).map(([aspect, count]) => `${aspect} ${count}`);
      process.stderr.write(
        `petstore-mock: proxy summary: ${requests} request(s), ${violations.count} contract violation(s), ${drift.count} drift(s) from the mock${aspects.length > 0 ? ` (${aspects.join(', ')})` : ''}\n`,
      );
      process.exit(0);
    });
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  const key = flags.upstreamKey ? 'the key from --upstream-key' : "each client's own Authorization";
  process.stdout.write(
    `petstore-mock proxying ${proxy.url} to ${upstream} (${key}${flags.profile === undefined ? '' : ', compared with the profile'}); drift at GET /__mock/drift\n`,
  );
}

/** Says so when the mock is bound beyond loopback. */
function warnIfReachable(host: string): void {
  if (isLoopback(host)) return;
  process.stderr.write(`petstore-mock: warning: --host ${host} lets other machines reach the mock; /__mock/* now needs the key too.\n`);
}

/** Where the state lives, and whether the namespace's seed overrode this mock's own flags. */
function describeStore(
  url: string,
  namespace: string,
  flags: Flags,
  seeded: { readonly seed: number; readonly count: number; readonly bigIds: boolean },
): string {
  const differs = seeded.seed !== flags.seed || seeded.count !== flags.count || seeded.bigIds !== (flags.bigIds === true);
  return `state in Redis at ${url}, namespace ${namespace}${differs ? ': seeded earlier by another mock, its --seed, --count and --big-ids win' : ''}`;
}

/**
 * The primary of `--workers`: checks that Redis answers and seeds the namespace once, before any
 * worker starts, then forks the workers and says where they listen.
 */
async function serveWithWorkers(flags: Flags, count: number, store: string): Promise<void> {
  const check = await openSharedState({
    url: store,
    ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
    seed: flags.seed,
    count: flags.count,
    bigIds: flags.bigIds === true,
    sessionTtl: flags.sessionTtl * 1000,
    maxSessions: flags.maxSessions,
    basePath: BASE_PATH,
    now: Date.now,
  });
  const { recipe, url, namespace } = check.store;
  await check.close();
  const workers = await forkWorkers(count, (line) => process.stderr.write(line));
  warnIfReachable(flags.host);
  const stop = () => void workers.stop().finally(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
  const host = flags.host === '0.0.0.0' || flags.host === '::' ? '127.0.0.1' : flags.host;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${workers.port}`;
  process.stdout.write(
    `petstore-mock listening on ${origin}${BASE_PATH} (${count} workers, ${recipe.count} pets, seed ${recipe.seed}${recipe.bigIds ? ', big ids' : ''}, ${describeKeys(flags.apiKey)}, ${describeStore(url, namespace, flags, recipe)})\n`,
  );
}

/**
 * Commander's message on one line, without its `error:` prefix, and without the value of a refused
 * `--api-key` or `PETSTORE_API_KEY`: a key is never printed, even one that is refused.
 */
function oneLine(text: string): string {
  return text
    .replace(/^(error: option '-k, --api-key <key>' argument ')[\s\S]+(' is invalid\.)/, '$1***$2')
    .replace(/^(error: option '-k, --api-key <key>' value ')[\s\S]+(' from env 'PETSTORE_API_KEY' is invalid\.)/, '$1***$2')
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
    if (code?.startsWith('commander.') || error instanceof UsageError) {
      if (error instanceof UsageError) process.stderr.write(`petstore-mock: ${error.message} Run petstore-mock --help for every flag.\n`);
      return EXIT.usage;
    }
    process.stderr.write(`petstore-mock: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodeOf(error);
  }
}
