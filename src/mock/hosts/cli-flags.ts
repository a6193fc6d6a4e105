/**
 * The flags of `petstore-mock`: each option, the parser that checks its value as commander parses the
 * command line, and `MockFlags`, the parsed flags the command runs with, the files they name read. A
 * value a parser rejects, or a file that cannot be used, stops the CLI with exit 2 before anything starts.
 */
import { createRequire as requireFrom } from 'node:module';
import { Command, InvalidArgumentError, Option } from 'commander';
import { codeOf, messageOf, UsageError } from '../../errors.js';
import { MAX_PETS_FILE_BYTES, readRegularFile, UnreadableFileError } from '../../files/read-file.js';
import { apiKeyProblem } from '../../http/header-value.js';
import { jsonFault } from '../../json/json-fault.js';
import { parseJson } from '../../json/lossless.js';
import { compileSpec } from '../../openapi/ajv.js';
import { BUNDLED_MODEL, type CompiledSpec } from '../../openapi/bundled-model.js';
import { loadSpecFile } from '../../openapi/load.js';
import { type ProfileDocument, readProfile } from '../../profile/profile.js';
import { ADMIN_ENDPOINTS } from '../admin/endpoints.js';
import { MOCK_BOUNDS, MOCK_DEFAULTS } from '../core/defaults.js';
import { type FaultRates, parseFaultRates } from '../core/faults.js';
import { LABEL_WITHOUT_KEY, type LabelledApiKey, parseApiKey } from '../pipeline/auth.js';
import { allowedHostProblem, interfaceProblem } from '../pipeline/server-reach.js';
import { parseIsoDate } from '../state/clock.js';
import type { PetData } from '../state/pet-data.js';
import { readPetData } from '../state/pet-data-file.js';
import { displayUrl, namespaceProblem } from '../state/redis/redis-store.js';

/** The flags the command runs with: one field per option, named as commander names it, the files they name read (`readFlagFiles`). */
export interface MockFlags {
  port: number;
  host: string;
  allowedHost?: string[];
  allowDefaultKey?: boolean;
  seed: number;
  count: number;
  data?: PetData;
  apiKey?: (string | LabelledApiKey)[];
  delay: number;
  now?: number;
  bigIds?: boolean;
  prefer: boolean;
  faults?: FaultRates;
  sessionTtl: number;
  maxSessions: number;
  coverage?: boolean;
  selfCheck?: boolean;
  state?: string;
  profile?: ProfileDocument;
  proxy?: string;
  upstreamKey?: string;
  record?: string;
  store?: string;
  namespace?: string;
  storeTimeout?: number;
  workers?: number;
  quiet?: boolean;
  journal: boolean;
  journalSize: number;
  journalBody: number;
  /** Another spec to serve (`--spec FILE`), compiled as the flags are parsed. */
  spec?: { readonly path: string; readonly compiled: CompiledSpec };
}

/** The flags as commander parses them: `--data`, `--profile` and `--spec` are the paths of their files, still to be read. */
export type ParsedMockFlags = Omit<MockFlags, 'data' | 'profile' | 'spec'> & { data?: string; profile?: string; spec?: string };

function integerIn(min: number, max: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`Expected ${what} from ${min} to ${max}.`);
    return n;
  };
}

/** `--now`: an ISO 8601 date of the calendar; one `Date.parse` would move (2030-02-30 to 2 March) is refused, saying why. */
function isoDate(value: string): number {
  const parsed = parseIsoDate(value);
  if ('time' in parsed) return parsed.time;
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) throw new InvalidArgumentError('Expected an ISO 8601 date such as 2030-12-06T00:00:00Z.');
  throw new InvalidArgumentError(`${parsed.problem}. Give a date of the calendar, such as 2030-12-06T00:00:00Z.`);
}

/** `--host`: an interface to bind, named; an empty one would bind every interface unsaid. */
function interfaceHost(value: string): string {
  const problem = interfaceProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return value;
}

/** A file the mock writes: any path but the empty one, which names none. */
function filePath(example: string) {
  return (value: string): string => {
    if (value === '') throw new InvalidArgumentError(`Expected the path of a file, such as ${example}.`);
    return value;
  };
}

function redisUrl(value: string): string {
  try {
    displayUrl(value);
  } catch (error) {
    throw new InvalidArgumentError(messageOf(error));
  }
  return value;
}

function namespace(value: string): string {
  const problem = namespaceProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return value;
}

function collectHost(value: string, previous: string[] | undefined): string[] {
  const problem = allowedHostProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return [...(previous ?? []), value];
}

function collectApiKey(value: string, previous: (string | LabelledApiKey)[] | undefined): (string | LabelledApiKey)[] {
  const parsed = parseApiKey(value);
  // `--api-key ci:$CI_KEY` with the variable unset: a label and nothing after it is no key at all.
  // The message names neither the label nor the value: what looks like a label may be a key.
  if (typeof parsed !== 'string' && parsed.key === '') throw new InvalidArgumentError(LABEL_WITHOUT_KEY);
  const problem = apiKeyProblem(typeof parsed === 'string' ? parsed : parsed.key);
  if (problem !== undefined) throw new InvalidArgumentError(`${problem[0]?.toUpperCase()}${problem.slice(1)}.`);
  return [...(previous ?? []), parsed];
}

/** Why a file a flag names cannot be read, in the words of a refusal: what it is, or the file system's code. */
function unreadable(error: unknown): string {
  return error instanceof UnreadableFileError ? `It cannot be read: ${error.message}` : `Cannot read it (${codeOf(error) ?? String(error)})`;
}

/** The `--profile` file, read (a regular file within the cap) and parsed: a profile the contract forbids stops the CLI (exit 2) naming its field. */
async function readProfileFile(path: string): Promise<ProfileDocument> {
  const text = await readRegularFile(path).catch((error: unknown) => {
    throw new UsageError(`--profile ${path}: ${unreadable(error)}; learn one with petstore-verify --write-profile ${path}.`);
  });
  try {
    return readProfile(parseJson(text));
  } catch (error) {
    const problem = error instanceof SyntaxError ? jsonFault(error).replace(/^it/, 'It') : messageOf(error);
    throw new UsageError(`--profile ${path}: ${problem}; fix the file, or learn it again with petstore-verify --write-profile.`);
  }
}

function faultRates(value: string): FaultRates {
  try {
    return parseFaultRates(value);
  } catch (error) {
    throw new InvalidArgumentError(messageOf(error));
  }
}

/** The `--data` file's pets, read (a regular file within the cap) and checked: every fault stops the CLI (exit 2), named by index and field. */
async function readDataFile(path: string): Promise<PetData> {
  const text = await readRegularFile(path, MAX_PETS_FILE_BYTES).catch((error: unknown) => {
    throw new UsageError(`--data ${path}: ${unreadable(error)}; give a JSON or YAML file holding a list of pets.`);
  });
  try {
    return await readPetData(text, path);
  } catch (error) {
    throw new UsageError(
      `--data ${path}: ${messageOf(error)}. Fix the file: each pet is a ${BUNDLED_MODEL.name} of spec/openapi.yaml (${BUNDLED_MODEL.fields.map((field) => field.name).join(', ')}).`,
    );
  }
}

/**
 * The flags with the files they name read: `--data` and `--profile` as commander parsed them are
 * paths, read here, after the command line is parsed, so that the reads are asynchronous (SIGINT and
 * SIGTERM stop a long one) and bounded (src/files/read-file.ts). A file that cannot be used is a
 * `UsageError` naming its flag (exit 2).
 */
export async function readFlagFiles(parsed: ParsedMockFlags): Promise<MockFlags> {
  const { data, profile, spec, ...rest } = parsed;
  return {
    ...rest,
    ...(data === undefined ? {} : { data: await readDataFile(data) }),
    ...(profile === undefined ? {} : { profile: await readProfileFile(profile) }),
    ...(spec === undefined ? {} : { spec: await readSpecFile(spec) }),
  };
}

/** A spec file, read and compiled before anything starts: an operation of no known kind stops the CLI (exit 2), named with what would make it one. */
async function readSpecFile(path: string): Promise<NonNullable<MockFlags['spec']>> {
  const doc = await loadSpecFile(path).catch((error: unknown) => {
    throw new UsageError(`--spec ${path}: ${messageOf(error).replace(/\.$/, '')}; give an OpenAPI 3.1 file, a variant of spec/openapi.yaml.`);
  });
  try {
    return { path, compiled: compileSpec(doc) };
  } catch (error) {
    throw new UsageError(`--spec ${path}: ${messageOf(error).replace(/\.$/, '')}. Fix the spec, or serve the bundled one without --spec.`);
  }
}

/** Where the mock listens, and who may reach it. */
function listenOptions(): Option[] {
  return [
    new Option('-p, --port <port>', 'TCP port; 0 picks a free one').default(MOCK_DEFAULTS.port).argParser(integerIn(...MOCK_BOUNDS.port, 'a port')),
    new Option('-H, --host <host>', 'interface to bind; 0.0.0.0 exposes the mock to your network').default(MOCK_DEFAULTS.host).argParser(interfaceHost),
    new Option('--allowed-host <name>', 'a host name clients may reach the mock by, besides localhost and IP addresses; repeat for several').argParser(
      collectHost,
    ),
    new Option('--allow-default-key', `with --host beyond this machine, accept the public default key ${MOCK_DEFAULTS.apiKey} instead of refusing to start`),
  ];
}

/** The pets the mock starts with, the keys it accepts, and how it responds. */
function behaviourOptions(): Option[] {
  return [
    new Option('--seed <n>', 'seed of the generated pets: the same seed gives the same pets')
      .default(MOCK_DEFAULTS.seed)
      .argParser(integerIn(...MOCK_BOUNDS.seed, 'a whole number')),
    new Option('--count <n>', 'how many pets to start with').default(MOCK_DEFAULTS.count).argParser(integerIn(...MOCK_BOUNDS.count, 'a whole number')),
    new Option(
      '-k, --api-key <key>',
      `accepted bearer key, or label:key (or label=key) to log it as key=label; repeat for several (default: ${MOCK_DEFAULTS.apiKey})`,
    )
      .env('PETSTORE_API_KEY')
      .argParser(collectApiKey),
    new Option('--delay <ms>', 'latency added to every API answer').default(MOCK_DEFAULTS.delay).argParser(integerIn(...MOCK_BOUNDS.delay, 'milliseconds')),
    new Option('--now <date>', "start the mock's clock at this ISO date (after 2030-12-05, getPet answers 410)").argParser(isoDate),
    new Option('--data <file>', 'serve these pets (a JSON or YAML list of Pets) instead of seeded ones; not with --seed, --count, --big-ids'),
    new Option('--big-ids', 'ids beyond 2^53, exact in the JSON: shows clients that read ids into JavaScript numbers'),
    new Option(
      '--spec <file>',
      'serve this variant of spec/openapi.yaml instead: each operation by its kind (list, create, read, replace, delete), its fields and bounds',
    ),
    new Option('--no-prefer', 'ignore Prefer: code=, delay=, auth=expired, fault= and the __code-style query parameters'),
    new Option(
      '--faults <kind:rate,...>',
      'break this share of API requests at the network: reset, close, garbage, truncate, slow (reset:0.02,slow:0.1); drawn from --seed, so a run repeats',
    ).argParser(faultRates),
  ];
}

/** Named sessions, what the mock checks and keeps, and the deployment it mimics. */
function stateOptions(): Option[] {
  return [
    new Option('--session-ttl <seconds>', 'drop a named session (X-Mock-Session) after this long idle')
      .default(MOCK_DEFAULTS.sessionTtl / 1000)
      .argParser(integerIn(MOCK_BOUNDS.sessionTtl[0], MOCK_BOUNDS.sessionTtl[1] / 1000, 'seconds')),
    new Option('--max-sessions <n>', 'how many named sessions may be open at once')
      .default(MOCK_DEFAULTS.maxSessions)
      .argParser(integerIn(...MOCK_BOUNDS.maxSessions, 'a whole number')),
    new Option('--coverage', 'on exit, print which documented statuses and enum values clients exercised (also GET /__mock/coverage)'),
    new Option('--self-check', 'check every answer against spec/openapi.yaml; a mismatch is logged and answered 500'),
    new Option(
      '--state <file>',
      'keep the pets created, replaced and removed in this JSON file across restarts (each change saved before its answer)',
    ).argParser(filePath('./pets-state.json')),
    new Option('--profile <file>', "mimic a deployment's choices where the interface leaves room (learned by petstore-verify --write-profile)"),
    new Option('--journal-size <n>', 'requests the journal keeps per session (GET /__mock/requests); 0 turns it off')
      .default(MOCK_DEFAULTS.journalSize)
      .argParser(integerIn(...MOCK_BOUNDS.journalSize, 'a whole number')),
    new Option('--journal-body <chars>', 'characters of a request body a journal entry shows')
      .default(MOCK_DEFAULTS.journalBodyLimit)
      .argParser(integerIn(...MOCK_BOUNDS.journalBodyLimit, 'a whole number')),
    new Option('--no-journal', 'keep no request journal (GET /__mock/requests answers 404)'),
  ];
}

/** The proxy, the shared store and its workers, and the request log. */
function deploymentOptions(): Option[] {
  return [
    new Option(
      '--proxy <base url>',
      'forward the API to this deployment instead (admin stays local): violations logged and in X-Contract-Violation, drift from the mock in GET /__mock/drift',
    ),
    new Option('--upstream-key <key>', "the key sent to the --proxy deployment (never printed); without it, the client's Authorization is forwarded").env(
      'PETSTORE_UPSTREAM_KEY',
    ),
    new Option(
      '--record <file>',
      "with --proxy, write the deployment's pets to this file (for --data) and the profile seen beside it (for --profile)",
    ).argParser(filePath('./recorded-pets.json')),
    new Option('--store <url>', 'keep all state in Redis (redis://host:port[/db]), shared by every mock on it; needs the ioredis package').argParser(redisUrl),
    new Option('--namespace <name>', 'key prefix in Redis, so that several mocks share one Redis (default: petstore)').argParser(namespace),
    new Option('--store-timeout <ms>', 'how long a Redis command may take before the mock responds 503 (default: 3000)').argParser(
      integerIn(...MOCK_BOUNDS.storeTimeout, 'milliseconds'),
    ),
    new Option('--workers <n>', 'serve from n processes sharing the port, one per core (needs --store)').argParser(integerIn(1, 256, 'a number of processes')),
    new Option('-q, --quiet', 'no request log'),
  ];
}

/** What `--help` prints after the flags: examples, and the admin endpoints. */
function helpAfterFlags(): string {
  return `
Examples:
  $ petstore-mock                                  # http://127.0.0.1:4010/v1, key ${MOCK_DEFAULTS.apiKey}
  $ petstore-mock --port 0 --seed 7 --count 200    # a free port, other pets
  $ petstore-mock --api-key alpha --api-key beta   # accept two keys
  $ petstore-mock --now 2031-01-01T00:00:00Z       # rehearse the removal of GET /pets/{petId}
  $ petstore-mock --api-key ci:$CI_KEY --coverage  # the log says key=ci; coverage printed on exit
  $ petstore-mock --big-ids --self-check           # ids beyond 2^53; every answer checked against the spec
  $ petstore-mock --state .petstore-state.json     # created pets survive a restart
  $ petstore-mock --faults reset:0.02,slow:0.1     # 2% of requests reset, 10% trickled, the same ones each run
  $ petstore-mock --data pets.yaml                 # serve your own pets
  $ petstore-mock --profile petstore-profile.json  # answer as the deployment it was learned from does
  $ petstore-mock --proxy https://staging.example.com/v1 --profile petstore-profile.json   # watch staging for violations and drift
  $ curl -H 'Authorization: Bearer ${MOCK_DEFAULTS.apiKey}' http://127.0.0.1:4010/v1/pets?limit=2
  $ curl -H 'Authorization: Bearer ${MOCK_DEFAULTS.apiKey}' -H 'Prefer: code=503' http://127.0.0.1:4010/v1/pets
  $ curl -H 'Authorization: Bearer ${MOCK_DEFAULTS.apiKey}' -H 'X-Mock-Session: worker-1' http://127.0.0.1:4010/v1/pets

Admin endpoints (no key needed on 127.0.0.1, the key beyond it; X-Mock-Session picks the session):
${ADMIN_ENDPOINTS.map(({ method, path, summary }) => `  ${`${method} ${path}`.padEnd(38)} ${summary}`).join('\n')}
Scripts call them as they are; pages on other origins are refused (and pages of its own origin send X-Mock-Admin: 1):
  $ curl -X POST http://127.0.0.1:4010/__mock/reset`;
}

/**
 * The version of the installed package, from its package.json. The package resolves its own name from
 * any of its files, so this holds from src/, dist/ and the dist/bin bundle, each at another depth.
 * (`requireFrom`: the bundle's banner declares a `createRequire` of its own.)
 */
function packageVersion(): string {
  const manifest: { readonly version?: unknown } = requireFrom(import.meta.url)('petstore-mock/package.json');
  return String(manifest.version);
}

/** The `petstore-mock` command with every flag and its help, but no action yet: `mockCommand` adds it. */
export function mockFlagsCommand(): Command {
  const command = new Command('petstore-mock').description('Serve a stateful mock of the pet store API (spec/openapi.yaml) over seeded, realistic data.');
  for (const option of [...listenOptions(), ...behaviourOptions(), ...stateOptions(), ...deploymentOptions()]) command.addOption(option);
  return command.version(packageVersion(), '-v, --version', 'print the version and exit').addHelpText('after', helpAfterFlags());
}
