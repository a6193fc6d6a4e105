/**
 * `petstore-mock`: runs the parsed flags (cli-flags.ts) in one of three modes: the validating proxy
 * (`--proxy`), the primary of several worker processes (`--workers`), or one server (a worker is one too).
 */
import { type Command, CommanderError } from 'commander';
import { codeOf, EXIT, exitCodeOf, messageOf, SpecError, StateFileError, StoreUnavailableError, UsageError } from '../../errors.js';
import { BASE_PATH } from '../../openapi/facts.js';
import { KeyRedactor } from '../../redact/key-redactor.js';
import { terminalText } from '../../terminal/terminal-text.js';
import { coarseClock } from '../core/coarse-clock.js';
import { MOCK_DEFAULTS } from '../core/defaults.js';
import { parseApiKey } from '../pipeline/auth.js';
import { publicKeyProblem, type ReachNames } from '../pipeline/server-reach.js';
import { type ProxyServer, startProxyServer } from '../proxy/proxy-server.js';
import { formatCoverage } from '../state/coverage.js';
import { petDataHash } from '../state/pet-data-file.js';
import type { SeedRecipe } from '../state/redis/redis-store.js';
import { openSharedState } from '../state/redis/shared-state.js';
import type { SavedPets } from '../state/store.js';
import { type MockFlags, mockFlagsCommand, type ParsedMockFlags, readFlagFiles } from './cli-flags.js';
import { LINE_WRITE_MS, lineWriter } from './line-writer.js';
import { isLoopback, type MockServer, type MockServerOptions, serverUrl, startMockServer } from './node-server.js';
import { forkWorkers, isWorkerProcess, leaveCluster, processFaultSeed, startWorker } from './workers.js';

/** The request log, warnings and problems of a running mock: in order, a write every few milliseconds. */
const stderrLines = lineWriter(
  (text) => process.stderr.write(text),
  LINE_WRITE_MS,
  undefined,
  () => process.stderr.writableLength,
);

/** Writes a line of the log, or a warning, to stderr: what a deployment or a client sent in it is shown, never acted on by the terminal. */
function logLine(line: string): void {
  stderrLines.line(terminalText(line));
}

/** Writes `text` to stderr after the lines still waiting, so that the order holds; without the command line's keys. */
function writeStderr(text: string): void {
  stderrLines.flush();
  process.stderr.write(commandLineKeys.text(text));
}

/** Writes `text` to stdout without the command line's keys: the deployment's URL may hold one in its path (`http://host/<key>/v1`), a file's name too. */
function writeStdout(text: string): void {
  process.stdout.write(commandLineKeys.text(text));
}

/** The keys the command line names (`keysOfCommandLine`), hidden in every sentence the CLI writes. */
let commandLineKeys = new KeyRedactor([]);

/**
 * The keys a command line names, read before its flags are parsed (`-k`, `--api-key`, `--upstream-key`,
 * as the next argument or after `=`, and their variables): a sentence about another flag may quote a
 * path named after a key (`--data /tmp/<key>.yaml`), which the verifier hid and the mock printed.
 */
function keysOfCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): KeyRedactor {
  const keys: string[] = [];
  const add = (value: string | undefined) => {
    if (value === undefined || value === '') return;
    const parsed = parseApiKey(value);
    keys.push(value, typeof parsed === 'string' ? parsed : parsed.key);
  };
  add(env.PETSTORE_API_KEY);
  add(env.PETSTORE_UPSTREAM_KEY);
  argv.forEach((arg, at) => {
    const flag = /^(?:-k|--api-key|--upstream-key)(?:=([\s\S]*))?$/.exec(arg);
    if (flag !== null) add(flag[1] ?? argv[at + 1]);
    // Short flags together, as the parser reads them (`-qk KEY`, `-qkKEY`): the first `k` takes the rest, or the next word.
    else if (/^-[a-zA-Z]*k/.test(arg)) {
      const rest = arg.slice(arg.indexOf('k') + 1);
      add(rest === '' ? argv[at + 1] : rest);
    }
  });
  // A short key (`-k an`) hidden only as a token of its own, as in Error bodies, so that the words of a sentence stay.
  return new KeyRedactor(keys, { shortAsToken: true });
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** The listeners of the stop signals that modules add as they load (signal-exit, for proper-lockfile's locks), set aside while the mock starts. */
let setAside: (readonly [NodeJS.Signals, ((...args: unknown[]) => void)[]])[] = [];

/**
 * Until the mock listens, SIGINT and SIGTERM take their default action: the process ends at once, by the
 * signal, whatever it reads or parses. A listener runs only once the event loop is free, and a JSON
 * `--data` of 48 MB is parsed in one piece: the mock went on to listen, and exited seconds later. A lock
 * a process ended so leaves is taken over at the next start (docs/guarantees.md).
 */
function stopSignalsEndStartUp(): void {
  setAside = STOP_SIGNALS.map((signal) => [signal, process.listeners(signal) as ((...args: unknown[]) => void)[]] as const);
  for (const signal of STOP_SIGNALS) process.removeAllListeners(signal);
}

/** Runs `stop` on the first SIGINT or SIGTERM: Ctrl-C in a terminal, or a process manager stopping the mock; the listeners set aside at start come back. */
function onStopSignal(stop: () => void): void {
  for (const [signal, listeners] of setAside) for (const listener of listeners) process.on(signal, listener);
  setAside = [];
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

/** How the banner names the keys: where they come from, and their labels; never a key. */
function describeKeys(keys: MockFlags['apiKey']): string {
  if (!keys) return `key ${MOCK_DEFAULTS.apiKey}`;
  const source = process.env.PETSTORE_API_KEY && keys.length === 1 ? 'PETSTORE_API_KEY' : '--api-key';
  const labels = keys.flatMap((key) => (typeof key === 'string' ? [] : [key.label]));
  return `${keys.length} key(s) from ${source}${labels.length > 0 ? `: ${labels.join(', ')}` : ''}`;
}

/** Where the state lives, and whether the namespace's seed overrode this mock's own flags. */
function describeStore(url: string, namespace: string, flags: MockFlags, seeded: SeedRecipe): string {
  const wanted = recipeOf(flags);
  const differs = seeded.seed !== wanted.seed || seeded.count !== wanted.count || seeded.bigIds !== wanted.bigIds;
  return `state in Redis at ${url}, namespace ${namespace}${differs ? ': seeded earlier by another mock, its --seed, --count and --big-ids win' : ''}`;
}

/** What the pets are: a seed's, or your own data's. */
function describePets(recipe: SeedRecipe): string {
  if (recipe.data !== undefined) return `${recipe.count} pets from --data, ${recipe.data.slice(0, 19)}`;
  return `${recipe.count} pets, seed ${recipe.seed}${recipe.bigIds ? ', big ids' : ''}`;
}

/** What the flags ask to seed: your own data, or a seed. */
function recipeOf(flags: MockFlags): SeedRecipe {
  if (flags.data !== undefined) return { seed: flags.seed, count: flags.data.pets.length, bigIds: false, data: petDataHash(flags.data) };
  return { seed: flags.seed, count: flags.count, bigIds: flags.bigIds === true };
}

/** Says so when the mock is bound beyond loopback. */
function warnIfReachable(host: string): void {
  if (isLoopback(host)) return;
  writeStderr(`petstore-mock: warning: --host ${host} lets other machines reach the mock; /__mock/* now needs the key too.\n`);
}

/**
 * Rejects the flags that cannot go together, before anything starts (exit 2). `command.error` throws
 * under `exitOverride`, and exits otherwise: no check returns to the next after a rejection.
 */
function checkFlags(flags: MockFlags, command: Command): void {
  if (flags.upstreamKey !== undefined && command.getOptionValueSource('upstreamKey') === 'cli')
    command.error('--upstream-key needs --proxy <base url>: it is the key sent to the deployment the proxy forwards to.');
  if (flags.state !== undefined && flags.store !== undefined) {
    command.error(
      '--state and --store cannot go together: --state keeps the pets of one process in a file, and with --store Redis keeps them (see its AOF settings in docs/redis.md); pass one of them.',
      { code: 'commander.conflictingOption', exitCode: EXIT.usage },
    );
  }
  for (const [field, flag] of [
    ['namespace', '--namespace'],
    ['storeTimeout', '--store-timeout'],
  ] as const)
    if (flags[field] !== undefined && flags.store === undefined)
      command.error(`${flag} needs --store redis://host:port: it is a setting of the state kept in Redis, and this mock keeps its state in its own process.`, {
        code: 'commander.missingMandatoryOptionValue',
        exitCode: EXIT.usage,
      });
  checkDataFlags(flags, command);
  checkSpecFlags(flags, command);
  checkKeyBeyondLoopback(flags, command);
}

/** Rejects --spec beside the modes that serve the bundled spec alone for now (exit 2). */
function checkSpecFlags(flags: MockFlags, command: Command): void {
  if (flags.spec === undefined) return;
  const others = (['proxy', 'data'] as const).filter((name) => flags[name] !== undefined).map((name) => `--${name}`);
  if (others.length > 0)
    command.error(`--spec cannot go with ${others.join(', ')} yet: those serve spec/openapi.yaml alone. Serve the variant in memory, or drop --spec.`, {
      code: 'commander.conflictingOption',
      exitCode: EXIT.usage,
    });
}

/** Rejects --data beside the flags of the seeded pets it replaces, and --record without --proxy (exit 2). */
function checkDataFlags(flags: MockFlags, command: Command): void {
  const seeding = ['seed', 'count', 'bigIds'].filter((name) => command.getOptionValueSource(name) === 'cli');
  if (flags.data !== undefined && seeding.length > 0) {
    const names = seeding.map((name) => (name === 'bigIds' ? '--big-ids' : `--${name}`)).join(', ');
    command.error(`--data replaces the seeded pets, so ${names} cannot go with it: pass your pets with --data, or seed them with ${names}, not both.`, {
      code: 'commander.conflictingOption',
      exitCode: EXIT.usage,
    });
  }
  if (flags.record !== undefined)
    command.error('--record needs --proxy <base url>: it writes what the deployment the proxy forwards to answered.', { exitCode: EXIT.usage });
}

/** Rejects the public default key on an interface other machines reach (exit 2): in every mode, the proxy's too. */
function checkKeyBeyondLoopback(flags: MockFlags, command: Command): void {
  const problem = publicKeyProblem(flags.host, { keys: flags.apiKey ?? [], defaultMeant: flags.allowDefaultKey === true }, CLI_NAMES);
  if (problem !== undefined) command.error(problem, { exitCode: EXIT.usage, code: 'commander.defaultKeyBeyondLoopback' });
}

/** The flags the rules of src/mock/pipeline/server-reach.ts name, as the CLI spells them. */
const CLI_NAMES: ReachNames = {
  host: '--host',
  allowedHosts: '--allowed-host',
  key: '--api-key (or PETSTORE_API_KEY)',
  allowDefault: 'pass --allow-default-key if the default is meant',
};

/** The keys a server takes, and whether the public default among them is meant (`--allow-default-key`): the server's own rule asks beyond loopback. */
function keysOf(flags: MockFlags): { apiKeys?: NonNullable<MockFlags['apiKey']>; allowDefaultKey?: true } {
  return { ...(flags.apiKey ? { apiKeys: flags.apiKey } : {}), ...(flags.allowDefaultKey ? { allowDefaultKey: true } : {}) };
}

/** The store `--workers` shares; without `--store` the flags are rejected (exit 2). */
function workersStore(flags: MockFlags, command: Command): string {
  return (
    flags.store ??
    command.error(
      '--workers needs --store redis://host:port: each worker is a process of its own, and without a shared store each would answer from its own pets, sessions and clock.',
      { code: 'commander.missingMandatoryOptionValue', exitCode: EXIT.usage },
    )
  );
}

/** Runs the parsed flags, once the files they name are read: the proxy, the primary of the workers, or one server (a worker is one). */
async function runFlags(parsed: ParsedMockFlags, command: Command): Promise<void> {
  const flags = await readFlagFiles(parsed);
  if (flags.proxy !== undefined) {
    checkKeyBeyondLoopback(flags, command);
    return startProxyMode(flags, flags.proxy);
  }
  checkFlags(flags, command);
  if (flags.workers !== undefined) {
    const store = workersStore(flags, command);
    if (!isWorkerProcess()) return startWorkersMode(flags, flags.workers, store);
  }
  return startServerMode(flags);
}

/** The `petstore-mock` command, ready for `parseAsync`. */
export function mockCommand(): Command {
  return mockFlagsCommand().action((flags: ParsedMockFlags, command: Command) => runFlags(flags, command));
}

/** The proxy's summary, printed when it stops: requests, contract violations, and drift by aspect. */
function proxySummary(proxy: ProxyServer): string {
  const { requests, violations, drift } = proxy.report();
  const aspects = Object.entries(drift.byAspect).map(([aspect, count]) => `${aspect} ${count}`);
  return `petstore-mock: proxy summary: ${requests} request(s), ${violations.count} contract violation(s), ${drift.count} drift(s) from the mock${aspects.length > 0 ? ` (${aspects.join(', ')})` : ''}\n`;
}

/** `--proxy`: the validating proxy in front of a deployment, until SIGINT or SIGTERM; then a summary. */
async function startProxyMode(flags: MockFlags, upstream: string): Promise<void> {
  const proxy = await startProxyServer({
    upstream,
    port: flags.port,
    host: flags.host,
    ...(flags.allowedHost ? { allowedHosts: flags.allowedHost } : {}),
    ...keysOf(flags),
    ...(flags.upstreamKey ? { upstreamKey: flags.upstreamKey } : {}),
    ...(flags.profile === undefined ? {} : { profile: flags.profile }),
    ...(flags.record === undefined ? {} : { record: flags.record }),
    prefer: flags.prefer,
    ...(flags.faults === undefined ? {} : { faults: flags.faults, faultSeed: processFaultSeed(flags.seed) }),
    journalSize: flags.journal ? flags.journalSize : 0,
    journalBodyLimit: flags.journalBody,
    onProblem: logLine,
    ...(flags.quiet ? {} : { onRequest: logLine }),
  }).catch((error: unknown) => {
    // The proxy rejects a base URL it cannot forward to with a TypeError: the flag's value is wrong.
    if (error instanceof TypeError) throw new UsageError(`--proxy: ${error.message}`);
    if (error instanceof UsageError) throw error;
    if (codeOf(error) === 'EADDRINUSE') throw new Error(`port ${flags.port} on ${flags.host} is already in use: pass --port 0 for a free port.`);
    throw new Error(messageOf(error));
  });
  onStopSignal(() => {
    void proxy.close().then(() => {
      writeStderr(proxySummary(proxy));
      process.exit(0);
    });
  });
  warnIfReachable(flags.host);
  const key = flags.upstreamKey ? 'the key from --upstream-key' : "each client's own Authorization";
  writeStdout(
    `petstore-mock proxying ${proxy.url} to ${upstream} (${key}${flags.profile === undefined ? '' : ', compared with the profile'}${flags.record === undefined ? '' : `, recording to ${flags.record}`}); drift at GET /__mock/drift\n`,
  );
}

/** Seeds the namespace once, before any worker starts, and says what it was seeded with: Redis must respond first. */
async function seedSharedState(flags: MockFlags, store: string): Promise<{ readonly recipe: SeedRecipe; readonly url: string; readonly namespace: string }> {
  const check = await openSharedState({
    url: store,
    ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
    ...(flags.storeTimeout === undefined ? {} : { commandTimeoutMs: flags.storeTimeout }),
    seed: flags.seed,
    count: flags.count,
    bigIds: flags.bigIds === true,
    ...(flags.data === undefined ? {} : { data: flags.data }),
    ...(flags.spec === undefined ? {} : { spec: flags.spec.compiled }),
    sessionTtl: flags.sessionTtl * 1000,
    maxSessions: flags.maxSessions,
    basePath: BASE_PATH,
    now: Date.now,
  });
  const { recipe, url, namespace } = check.store;
  await check.close();
  return { recipe, url, namespace };
}

/** The primary of `--workers`: seeds the shared state, then forks the workers and says where they listen. */
async function startWorkersMode(flags: MockFlags, count: number, store: string): Promise<void> {
  const { recipe, url, namespace } = await seedSharedState(flags, store);
  const workers = await forkWorkers(count, (line) => writeStderr(line));
  warnIfReachable(flags.host);
  onStopSignal(() => void workers.stop().finally(() => process.exit(0)));
  writeStdout(
    `petstore-mock listening on ${serverUrl(flags.host, workers.port, BASE_PATH)} (${count} workers, ${describePets(recipe)}, ${describeKeys(flags.apiKey)}, ${describeStore(url, namespace, flags, recipe)})\n`,
  );
}

/** The options of `startMockServer` the flags ask for. */
function serverOptions(flags: MockFlags): MockServerOptions {
  const offset = flags.now === undefined ? 0 : flags.now - Date.now();
  return {
    port: flags.port,
    host: flags.host,
    ...(flags.allowedHost ? { allowedHosts: flags.allowedHost } : {}),
    ...(flags.data === undefined ? { seed: flags.seed, count: flags.count, bigIds: flags.bigIds === true } : { data: flags.data.pets }),
    ...(flags.spec === undefined ? {} : { spec: flags.spec.compiled }),
    delay: flags.delay,
    prefer: flags.prefer,
    ...(flags.faults === undefined ? {} : { faults: flags.faults, faultSeed: processFaultSeed(flags.seed) }),
    sessionTtl: flags.sessionTtl * 1000,
    maxSessions: flags.maxSessions,
    ...(flags.selfCheck ? { selfCheck: (mismatch: string) => logLine(`petstore-mock: self-check: ${mismatch}`) } : {}),
    ...keysOf(flags),
    ...(offset === 0 ? {} : { now: coarseClock(() => Date.now() + offset) }),
    ...(flags.state === undefined ? {} : { stateFile: flags.state }),
    ...(flags.profile === undefined ? {} : { profile: flags.profile }),
    ...(flags.store === undefined ? {} : { store: flags.store }),
    ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
    ...(flags.storeTimeout === undefined ? {} : { storeTimeout: flags.storeTimeout }),
    ...(flags.quiet ? {} : { onRequest: logLine }),
    journalSize: flags.journal ? flags.journalSize : 0,
    journalBodyLimit: flags.journalBody,
  };
}

/** Why the server did not start, in words that say what to change; the package's own errors say it already. */
function startProblem(error: unknown, flags: MockFlags): Error {
  if (error instanceof StateFileError || error instanceof StoreUnavailableError) return error;
  // What the spec asks cannot be served (its seed cannot be drawn): the spec is the user's to fix, as at load.
  if (error instanceof SpecError) return new UsageError(`--spec ${flags.spec?.path ?? 'spec/openapi.yaml'}: ${messageOf(error)}.`);
  const code = codeOf(error);
  if (code === 'EADDRINUSE')
    return new Error(`port ${flags.port} on ${flags.host} is already in use: stop the other process or pass --port 0 for a free port.`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new Error(`cannot listen on ${flags.host}: it is not an address of this machine; try --host 127.0.0.1.`);
  return new Error(`cannot start the server: ${messageOf(error)}`);
}

/** What a state file brought back, in words: `2 created pet(s) restored`, `…, 50 seeded removed` (a count of the store's pets less the seed's went below zero). */
function describeRestored({ created, removed, replaced = [] }: SavedPets): string {
  const changed = [...(removed.length > 0 ? [`${removed.length} seeded removed`] : []), ...(replaced.length > 0 ? [`${replaced.length} seeded replaced`] : [])];
  return [`${created.length} created pet(s) restored`, ...changed].join(', ');
}

/** The line that says where the mock listens and what it serves. */
async function serverBanner(server: MockServer, flags: MockFlags): Promise<string> {
  const { shared } = server.mock.options;
  const seeded = shared?.store.recipe ?? recipeOf(flags);
  const mimics = flags.profile === undefined ? '' : ', with a profile (GET /__mock/profile)';
  const saved = flags.state === undefined ? '' : `, state in ${flags.state}: ${describeRestored(await server.mock.store.saved())}`;
  const where = shared ? `, ${describeStore(shared.store.url, shared.store.namespace, flags, seeded)}` : '';
  const served = flags.spec === undefined ? '' : `, serving ${flags.spec.path}`;
  return `petstore-mock listening on ${server.url} (${describePets(seeded)}, ${describeKeys(flags.apiKey)}${saved}${where}${mimics}${served})\n`;
}

/** One server, until SIGINT or SIGTERM; then the coverage, when asked for. */
async function startServerMode(flags: MockFlags): Promise<void> {
  const start = () => startMockServer(serverOptions(flags));
  const unreachable = (error: unknown) => error instanceof StoreUnavailableError && error.exitCode === EXIT.failed;
  const onWait = (error: unknown) => logLine(`petstore-mock: worker ${process.pid}: ${messageOf(error)} Trying again every second.`);
  const server = await (isWorkerProcess() ? startWorker(start, unreachable, onWait) : start()).catch((error: unknown) => {
    leaveCluster();
    throw startProblem(error, flags);
  });
  onStopSignal(() => {
    void server
      .close()
      .then(async () => {
        // Workers share one coverage; the primary has none to print.
        if (flags.coverage && !isWorkerProcess()) writeStderr(formatCoverage(await server.mock.coverage()));
      })
      .finally(() => process.exit(0));
  });
  // A worker's primary says where the mock listens and warns, once for all workers.
  if (isWorkerProcess()) return;
  warnIfReachable(flags.host);
  writeStdout(await serverBanner(server, flags));
}

/**
 * Commander's message on one line, without its `error:` prefix, and without the value of a rejected
 * `--api-key`, `PETSTORE_API_KEY` or `--store`: a key or password is never printed, even one that is rejected.
 */
function oneLine(text: string): string {
  return (
    text
      .replace(/^(error: option '-k, --api-key <key>' argument ')[\s\S]+(' is invalid\.)/, '$1***$2')
      .replace(/^(error: option '-k, --api-key <key>' value ')[\s\S]+(' from env 'PETSTORE_API_KEY' is invalid\.)/, '$1***$2')
      // A --store URL that is rejected may still hold a password, in its userinfo or its query.
      .replace(/^(error: option '--store <url>' argument ')[\s\S]+(' is invalid\.)/, '$1***$2')
      .replace(/^error: /, '')
      .trim()
      .replace(/\s*\n\s*/g, ' ')
  );
}

/** Runs the CLI; resolves to the exit code for failures before the server runs. */
export async function runMockCli(argv: readonly string[]): Promise<number | undefined> {
  // A line logged just before the process exits is still written.
  process.once('exit', stderrLines.flush);
  stopSignalsEndStartUp();
  commandLineKeys = keysOfCommandLine(argv, process.env);
  const command = mockCommand()
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(commandLineKeys.text(`petstore-mock: ${terminalText(oneLine(text))} Run petstore-mock --help for every flag.\n`)),
    });
  try {
    await command.parseAsync(argv, { from: 'user' });
    return undefined;
  } catch (error) {
    if (error instanceof CommanderError) return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : EXIT.usage;
    if (error instanceof UsageError) {
      // A sentence of the code API's (`upstreamKey: ...`) may end without its full stop.
      const message = /[.!?)]$/.test(error.message) ? error.message : `${error.message}.`;
      writeStderr(`petstore-mock: ${terminalText(message)} Run petstore-mock --help for every flag.\n`);
      return EXIT.usage;
    }
    // A message may quote what came from outside: a line of a --data file, a reply of Redis.
    writeStderr(`petstore-mock: ${terminalText(messageOf(error))}\n`);
    return exitCodeOf(error);
  }
}
