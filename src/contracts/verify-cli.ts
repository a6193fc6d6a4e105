/**
 * `petstore-verify`: its flags, their checks, and the usage errors, answered without loading the run.
 * `--version` answers before commander is even used, and `--help` and a usage error before the suites,
 * the spec's validators and the reporters are loaded (src/contracts/cli-run.ts, imported once the
 * flags are valid): a command a shell or a CI step runs to learn what it has is as quick as Node.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { EXIT, messageOf, UsageError } from '../errors.js';
import { notARegularFile } from '../files/read-file.js';
import { isHeaderValue } from '../http/header-value.js';
import { parseUserUrl } from '../http/user-url.js';
import type { CompiledSpec } from '../openapi/bundled-model.js';
import { terminalText } from '../terminal/terminal-text.js';
import { FAST_CHECK_INSTALL_HINT, fastCheckInstalled } from './fuzz/fast-check-module.js';
import { PACT_INSTALL_HINT, pactInstalled } from './pact/pact-module.js';
import { pactUrlProblem } from './pact/pact-url.js';
import { DEFAULT_FUZZ_RUNS, MAX_FUZZ_WRITES, MAX_WRITES, PACT_WRITES, RUN_WRITES } from './run-bounds.js';
import type { Suite, WarningLevel } from './runner.js';
import { verifierRedactor } from './verifier-redactor.js';

export type Reporter = 'console' | 'json' | 'junit' | 'html';

export interface Flags {
  baseUrl?: string;
  apiKey?: string;
  suite?: Suite;
  spec?: string;
  readOnly?: boolean;
  reporter: Reporter;
  output?: string;
  timeout: number;
  concurrency: number;
  rps?: number;
  deadline: number;
  pact: string[];
  writeProfile?: string;
  categoryId?: string;
  har?: string;
  coverage?: string;
  seed?: number;
  fuzzRuns?: number;
  strict?: boolean;
  warnings?: WarningLevel;
}

function positiveInteger(what: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > max) throw new InvalidArgumentError(`Expected ${what} from 1 to ${max}.`);
    return n;
  };
}

function baseUrlOf(flags: Flags): string {
  const value = flags.baseUrl;
  if (!value) throw new UsageError('--base-url is required (or set PETSTORE_BASE_URL), e.g. --base-url https://staging.example.com/v1');
  let url: URL;
  try {
    url = parseUserUrl(value, { name: '--base-url', schemes: ['http:', 'https:'], example: 'https://staging.example.com/v1' });
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
  if (url.search || url.hash) throw new UsageError('--base-url must not carry a query or a fragment');
  return value.replace(/\/+$/, '');
}

/** Why the report could not be written to `file` (given with `flag`), checked before the first request so a whole run is not lost. */
async function outputProblem(file: string, flag = '--output', example = 'petstore-verify.xml'): Promise<string | undefined> {
  const folder = dirname(resolve(file));
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) return `${flag} ${file}: the folder ${folder} does not exist; create it, or write the report elsewhere`;
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) return `${flag} ${file} is a folder; give a file name in it, like ${file.replace(/\/+$/, '')}/${example}`;
  // A named pipe nobody reads would hold the run's end for ever, a device (/dev/full) or a file of /proc refuse or swallow it.
  const kind = await notARegularFile(file);
  if (kind !== undefined)
    return `${flag} ${file}: ${kind}, and petstore-verify writes to regular files; give the path of one, or of a file yet to be made, such as ./${example}`;
  try {
    await access(existing ? file : folder, constants.W_OK);
  } catch {
    return `${flag} ${file}: petstore-verify may not write ${existing ? 'this file' : `into the folder ${folder}`}; choose a writable place`;
  }
  return undefined;
}

/**
 * The keys given on the command line or in the environment. A usage error must not echo them,
 * not even when the flag itself is mistyped (`--api-kye=SECRET`).
 */
function keysIn(argv: readonly string[]): string[] {
  const keys = [process.env.PETSTORE_API_KEY ?? ''];
  argv.forEach((arg, i) => {
    if (arg === '--api-key' || arg === '-k') keys.push(argv[i + 1] ?? '');
    else if (arg.startsWith('--api-key=')) keys.push(arg.slice('--api-key='.length));
    else if (/^-k./.test(arg)) keys.push(arg.slice(2));
  });
  return keys.filter((key) => key !== '');
}

/** A usage error's text without any key in it, and without the value of any `--flag=value` commander quotes. */
function redactUsage(text: string, argv: readonly string[]): string {
  const unquoted = text.replace(/'(--?[^'=\s]+)=[^']*'/g, "'$1=…'");
  const redacted = keysIn(argv).reduce((text, key) => verifierRedactor(key).text(text), unquoted);
  // One line, and what a flag was given quoted as outside text is: a path holding ESC or U+202E acts on no terminal.
  return terminalText(redacted.replace(/\s*\n\s*/g, ' '));
}

/** The suite run without --suite: all when Pact is installed; otherwise spec, said in one line on stderr. */
function defaultSuite(): Suite {
  if (pactInstalled()) return 'all';
  process.stderr.write('petstore-verify: @pact-foundation/pact is not installed, so only --suite spec runs; install it to replay the consumer pacts too.\n');
  return 'spec';
}

/** `--category-id`: an int64 as exact digits, leading zeros dropped so that it is written as JSON writes it. */
function int64Digits(value: string): string {
  if (!/^-?\d{1,19}$/.test(value) || BigInt(value) > 2n ** 63n - 1n || BigInt(value) < -(2n ** 63n))
    throw new InvalidArgumentError('Expected an int64 integer.');
  return value.replace(/^(-?)0+(?=\d)/, '$1');
}

/** `--seed`: fast-check's seed, an integer from 0 to 2^31 - 1. */
function seedOf(value: string): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2 ** 31 - 1) throw new InvalidArgumentError(`Expected an integer from 0 to ${2 ** 31 - 1}.`);
  return Number(value);
}

/** A file path as a flag takes it: any but the empty one, which names no file and would be taken for none given. */
function filePath(value: string): string {
  if (value === '') throw new InvalidArgumentError('Expected the path of a file, such as ./petstore-verify.json.');
  return value;
}

/** `--pact`, repeatable: each value is added to those before it. */
function appended(value: string, previous: string[]): string[] {
  return [...previous, filePath(value)];
}

const HELP_AFTER = `
Exit codes:
  0  every check passed
  1  the deployment breaks the contract (stopping to answer after it has answered included)
  2  nothing (or not everything) could be verified: a usage error, a misconfiguration (a base URL
     without /v1, a web page instead of the API, an unreadable --pact, an --output that cannot be
     written), an unreachable deployment, a refused key, or checks cut off by --deadline

Examples:
  $ petstore-verify --base-url https://staging.example.com/v1 --api-key "$PETSTORE_API_KEY"
  $ PETSTORE_BASE_URL=http://127.0.0.1:4010/v1 PETSTORE_API_KEY=petstore-dev-key petstore-verify
  $ petstore-verify --read-only --reporter junit --output petstore-verify.xml   # production-safe, for CI
  $ petstore-verify --write-profile petstore-profile.json                        # learn staging's choices for petstore-mock --profile
  $ petstore-verify --suite spec --fuzz-runs 100 --seed 42                       # the spec suite, then 100 generated sequences of calls
  $ petstore-verify --spec next/openapi.yaml                                      # against a variant of the interface: its operations and fields`;

/** The version of the installed package: the package resolves its own name from any of its files, in src/ or dist/. */
export function packageVersion(): string {
  const manifest: { readonly version?: unknown } = createRequire(import.meta.url)('petstore-mock/package.json');
  return String(manifest.version);
}

/** What to verify: the deployment, its key, which suites, and what they may send. */
function targetOptions(): Option[] {
  return [
    new Option('-u, --base-url <url>', 'the deployment, with its version prefix: https://staging.example.com/v1').env('PETSTORE_BASE_URL'),
    new Option('-k, --api-key <key>', 'the bearer key the deployment accepts (never printed)').env('PETSTORE_API_KEY'),
    new Option(
      '--suite <suite>',
      'which checks: spec (derived from the OpenAPI spec), pact (consumer contracts, replayed with the Pact Verifier), fuzz (generated sequences of calls alone, see --fuzz-runs), or all (default: all when @pact-foundation/pact is installed, spec otherwise)',
    ).choices(['spec', 'pact', 'all', 'fuzz']),
    new Option(
      '--spec <file>',
      'verify against this OpenAPI file, a variant of the bundled spec (a field, a bound or an operation of a known kind added), compiled at start; default: the bundled spec/openapi.yaml',
    ),
    new Option(
      '--read-only',
      `send no write (no method but GET, HEAD, OPTIONS and TRACE, the safe ones of RFC 9110): checks and pact interactions that need one are skipped (otherwise at most ${RUN_WRITES} writes in all, retries and provider states counted: ${MAX_WRITES} by the spec suite (with the bundled spec), ${PACT_WRITES} by the Pact suite, pacts that may need more refused at start, and ${MAX_FUZZ_WRITES} by the fuzz suite; pets named "petstore-verify <run id> ...")`,
    ),
    new Option(
      '--fuzz-runs <n>',
      `run the fuzz suite after the others: n generated sequences of calls held to a model of the deployment, each failure shrunk to its shortest, with at most ${MAX_FUZZ_WRITES} writes of its own besides the spec suite's (default: ${DEFAULT_FUZZ_RUNS} with --suite fuzz, none otherwise)`,
    ).argParser(positiveInteger('a count', 10_000)),
    new Option(
      '--seed <n>',
      "the fuzz suite's seed, printed by every run that fuzzes: the same seed generates the same sequences (default: a random one)",
    ).argParser(seedOf),
    new Option('--pact <file or url>', 'another consumer pact to verify besides the bundled ones; repeatable').default([]).argParser(appended),
    new Option(
      '--category-id <id>',
      'a category the deployment accepts for new pets, tried before any guess (for a deployment that refuses categories it does not know)',
    ).argParser(int64Digits),
  ];
}

/** What the run reports, and where. */
function reportOptions(): Option[] {
  return [
    new Option(
      '--strict',
      'report advice too: where the deployment differs from what the spec describes but the interface does not ask for (same as --warnings all)',
    ),
    new Option(
      '--warnings <level>',
      'which warnings to report: off, notices (what may matter and could not be judged), or all (advice too); a correct deployment is quiet by default',
    ).choices(['off', 'notices', 'all']),
    new Option('--reporter <name>', 'console, json, junit or html (one self-contained page)').choices(['console', 'json', 'junit', 'html']).default('console'),
    new Option('-o, --output <file>', 'write the json, junit or html report to this file (the console shows progress)').argParser(filePath),
    new Option('--har <file>', 'write every request and response of the run as a HAR 1.2 file, the key redacted, to open in a browser network panel').argParser(
      filePath,
    ),
    new Option('--coverage <file>', 'write the spec coverage of the run as JSON: each operation, status, parameter and enum value, exercised or not').argParser(
      filePath,
    ),
    new Option(
      '--write-profile <file>',
      "write the deployment's choices where the interface leaves room, as a profile for petstore-mock --profile (read-only runs leave some unknown)",
    ).argParser(filePath),
  ];
}

/** How hard and how long the run may press the deployment. */
function paceOptions(): Option[] {
  return [
    new Option('--timeout <ms>', 'per request').default(10_000).argParser(positiveInteger('milliseconds', 600_000)),
    new Option('--concurrency <n>', 'requests in flight at once').default(4).argParser(positiveInteger('a count', 64)),
    new Option('--rps <n>', 'requests started per second at most, so a shared staging is not flooded').argParser(positiveInteger('a rate', 10_000)),
    new Option('--deadline <ms>', 'the whole run; checks still running then cannot verify (exit 2)')
      .default(120_000)
      .argParser(positiveInteger('milliseconds', 3_600_000)),
  ];
}

/** The `petstore-verify` command, ready for `parseAsync`. */
export function verifyCommand(): Command {
  const command = new Command('petstore-verify').description(
    'Verify a live deployment of the pet store API against spec/openapi.yaml, and say precisely what is wrong.',
  );
  for (const option of [...targetOptions(), ...reportOptions(), ...paceOptions()]) command.addOption(option);
  return command.version(packageVersion(), '-v, --version', 'print the version and exit').addHelpText('after', HELP_AFTER);
}

/** Commander's own usage error as one line, without any key in it. */
function usageLine(text: string, argv: readonly string[]): string {
  // redactUsage made it one line already.
  const oneLine = redactUsage(text, argv)
    .replace(/^error: /, '')
    .trim();
  return `petstore-verify: ${oneLine} Run petstore-verify --help for every flag.\n`;
}

/** The flags as commander parses them, or the exit code when parsing ended the run (`--help`, a usage error it printed). */
async function parseFlags(argv: readonly string[]): Promise<{ flags: Flags } | { exitCode: number }> {
  const command = verifyCommand()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(usageLine(text, argv)) });
  try {
    await command.parseAsync(argv, { from: 'user' });
  } catch (error) {
    // With exitOverride, commander ends --help and --version by throwing too: those runs succeed.
    const code = error instanceof CommanderError ? error.code : undefined;
    return { exitCode: code === 'commander.helpDisplayed' || code === 'commander.version' ? EXIT.ok : EXIT.usage };
  }
  return { flags: command.opts<Flags>() };
}

/** What the run needs beyond the flags, once they are found valid. */
export interface Plan {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly suite: Suite;
  /** The spec given with --spec, compiled; absent for the bundled one. */
  readonly spec?: CompiledSpec;
}

function apiKeyOf(flags: Flags): string {
  if (flags.apiKey === undefined || flags.apiKey.trim() === '')
    throw new UsageError('--api-key is required (or set PETSTORE_API_KEY): the key the deployment accepts, not empty');
  // A header value is visible ASCII, spaces and tabs (RFC 9110 §5.5): fetch rejects anything else before sending.
  if (!isHeaderValue(flags.apiKey))
    throw new UsageError(
      'the key cannot be sent in an HTTP header: it holds a line break, a control character, a non-ASCII character or spaces around it; give the key exactly as the deployment issued it',
    );
  return flags.apiKey;
}

/**
 * The spec of `--spec`, read and compiled before the first request (src/openapi, as the mock's `--spec`
 * is): a file that is no OpenAPI document, or an operation of no known kind, is a usage error naming it.
 */
async function specOf(path: string): Promise<CompiledSpec> {
  const [{ loadSpecFile }, { compileSpec }] = await Promise.all([import('../openapi/load.js'), import('../openapi/ajv.js')]);
  try {
    return compileSpec(await loadSpecFile(path));
  } catch (error) {
    // A file that cannot be read, is no OpenAPI document, or whose schemas ajv cannot compile: each is the file's problem.
    throw new UsageError(`--spec ${path}: ${messageOf(error).replace(/\.$/, '')}. Fix the spec, or verify against the bundled one without --spec.`);
  }
}

/** Checks the flags together, before the first request; throws a `UsageError` that says what to change. */
async function planOf(flags: Flags): Promise<Plan> {
  const baseUrl = baseUrlOf(flags);
  const apiKey = apiKeyOf(flags);
  if (flags.output && flags.reporter === 'console') throw new UsageError('--output needs --reporter json, junit or html');
  if (flags.strict && flags.warnings !== undefined && flags.warnings !== 'all')
    throw new UsageError(`--strict reports every warning, --warnings ${flags.warnings} fewer: give one of them`);
  const suite = flags.suite ?? defaultSuite();
  if ((suite === 'pact' || suite === 'all') && !pactInstalled()) throw new UsageError(PACT_INSTALL_HINT);
  const fuzzes = suite === 'fuzz' || flags.fuzzRuns !== undefined;
  if (flags.seed !== undefined && !fuzzes) throw new UsageError("--seed is the fuzz suite's: add --fuzz-runs N (or --suite fuzz) to run it");
  if (fuzzes && !fastCheckInstalled()) throw new UsageError(FAST_CHECK_INSTALL_HINT);
  const badPact = flags.pact.map(pactUrlProblem).find((problem) => problem !== undefined);
  if (badPact) throw new UsageError(badPact);
  const files = [
    flags.output && outputProblem(flags.output),
    flags.har && outputProblem(flags.har, '--har', 'petstore-verify.har'),
    flags.coverage && outputProblem(flags.coverage, '--coverage', 'coverage.json'),
    flags.writeProfile && outputProblem(flags.writeProfile, '--write-profile', 'profile.json'),
  ];
  const unwritableFile = (await Promise.all(files)).find((problem) => typeof problem === 'string');
  if (unwritableFile) throw new UsageError(unwritableFile);
  return { baseUrl, apiKey, suite, ...(flags.spec === undefined ? {} : { spec: await specOf(flags.spec) }) };
}

/** The version of the package, for `--version` before anything else is loaded: `petstore-verify -v` answers at once. */
function isVersionOnly(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v');
}

/** Runs the CLI and resolves to its exit code. */
export async function runVerifyCli(argv: readonly string[]): Promise<number> {
  if (isVersionOnly(argv)) {
    process.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const parsed = await parseFlags(argv);
  if ('exitCode' in parsed) return parsed.exitCode;
  const { flags } = parsed;
  try {
    const plan = await planOf(flags);
    // The run, its suites and its reporters are loaded only now: --help and a usage error answer without them.
    const { runPlanned } = await import('./cli-run.js');
    return await runPlanned(flags, plan);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`petstore-verify: ${redactUsage(error.message, argv)}\n`);
    return EXIT.usage;
  }
}
