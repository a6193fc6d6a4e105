import { randomBytes, randomInt } from 'node:crypto';
import { EXIT, type ExitCode, messageOf } from '../errors.js';
import type { JsonValue } from '../json/lossless.js';
import type { CompiledSpec } from '../openapi/bundled-model.js';
import { basePathOf } from '../openapi/document.js';
import { operationOfKind } from '../openapi/resource-model.js';
import { shortened } from '../terminal/excerpt-text.js';
import { DROPPED } from './causes.js';
import { Advice, type Check, type CheckResult, type Outcome, ofKinds, type RunState, runCheck } from './check.js';
import { authChecks } from './checks/auth-checks.js';
import { inputChecks } from './checks/check-inputs.js';
import { createChecks } from './checks/create.js';
import { deleteChecks, deleteWrites } from './checks/delete-checks.js';
import { getChecks } from './checks/get.js';
import { listChecks } from './checks/list.js';
import { replaceChecks, replaceWrites } from './checks/replace-checks.js';
import { variationChecks } from './checks/variation.js';
import { type Contract, fullPage, loadContract, sizedPage } from './contract.js';
import { DeploymentModel, followedOperations } from './deployment/deployment-model.js';
import { runModelPhase } from './deployment/model-phase.js';
import { shortenedResult } from './excerpt.js';
import { FAST_CHECK_INSTALL_HINT, fastCheckInstalled } from './fuzz/fast-check-module.js';
import {
  DroppedError,
  type Exchange,
  type ExchangeObserver,
  HttpClient,
  type ObservedExchange,
  RETRYABLE_STATUSES,
  type Retries,
  TransportError,
} from './http.js';
import { BigIntegers, groupWithRoundedIntegers } from './lossy-integers.js';
import { pactInstalled } from './pact/pact-module.js';
import { type PactWorker, pactWriteBudget, pactWritesProblem, startPactWorker, verifyPacts } from './pact/pact-suite.js';
import { type LoadedPact, loadPacts, pactProblem } from './pact/pacts.js';
import { Removals } from './removal.js';
import { type Coverage, CoverageRecorder } from './reporters/coverage-reporter.js';
import { DEFAULT_FUZZ_RUNS, MAX_FUZZ_WRITES, SPEC_WRITES } from './run-bounds.js';

/** `fuzz` runs the fuzz suite alone; with another suite it runs when `VerifyOptions.fuzz` asks for it. */
export type Suite = 'spec' | 'pact' | 'all' | 'fuzz';

/**
 * Which warnings a run reports: `off`, none; `notices` (the default), only what may matter and could
 * not be judged (a pending pact interaction not met, a server error on a path the spec does not name);
 * `all` (`--strict`), advice too, where the deployment differs from what the spec describes but the
 * interface does not ask for (a `Location`, a `Sunset`, the form of `Deprecation`). A correct
 * deployment's run is quiet by default.
 */
export type WarningLevel = 'off' | 'notices' | 'all';

export { MAX_WRITES, SPEC_WRITES } from './run-bounds.js';

export interface VerifyOptions {
  /** The deployment's base URL, with its version prefix: `https://staging.example.com/v1`. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly suite?: Suite;
  /**
   * The spec to verify against, a variant of this interface: `compileSpec(await loadSpecFile('variant.yaml'))`
   * (`--spec FILE`). Default: the bundled spec/openapi.yaml.
   */
  readonly spec?: CompiledSpec;
  /** No write at all (no request of a method other than GET, HEAD, OPTIONS or TRACE): the checks and pact interactions that need one are skipped. */
  readonly readOnly?: boolean;
  /** A category the deployment accepts, as exact digits: tried before any guess when creating pets. */
  readonly categoryId?: string;
  /** Per request, in milliseconds. Default 10 000. */
  readonly timeoutMs?: number;
  /** Requests in flight at once. Default 4. */
  readonly concurrency?: number;
  /** Requests started per second at most, so a staging is not flooded. Default unlimited. */
  readonly rps?: number;
  /** The whole run, in milliseconds: what is still running then cannot verify. Default 120 000. */
  readonly deadlineMs?: number;
  /** The clock, for deprecation warnings. Default: now. */
  readonly now?: Date;
  /** More pacts to verify besides the bundled ones: files or URLs. */
  readonly pacts?: readonly string[];
  /**
   * Runs the fuzz suite (src/contracts/fuzz) after the others: `runs` generated sequences of calls
   * from `seed`. Always run with the suite `fuzz`; default 40 sequences from a random seed.
   */
  readonly fuzz?: { readonly runs?: number; readonly seed?: number };
  /** Called as each check finishes, for live output. */
  readonly onResult?: (result: CheckResult) => void;
  /** Hears each response of both suites as it arrives, redacted (the HAR file's recorder). */
  readonly observe?: ExchangeObserver;
  /** Which warnings to report. Default `notices`. */
  readonly warnings?: WarningLevel;
}

interface Counts {
  readonly passed: number;
  /** Failures with a fault of their own: one per fault. */
  readonly failed: number;
  /** Failed checks that follow from one of those (`CheckResult.follows`), not counted in `failed`. */
  readonly following: number;
  readonly skipped: number;
  readonly errors: number;
  readonly warnings: number;
}

/** Everything a run found, as data: the reporters and the exit code are made from it. */
export interface VerificationReport {
  readonly baseUrl: string;
  readonly suite: Suite;
  readonly runId: string;
  readonly readOnly: boolean;
  readonly startedAt: string;
  readonly ms: number;
  /** Requests sent to the deployment by both suites, retries and provider-state setups included. */
  readonly requests: number;
  /** How many of them were writes: requests of a method that is not safe (RFC 9110 §9.2.1), POST for this API. */
  readonly posts: number;
  /** Writes taken from the run's budget, retries counted: at most `RUN_WRITES` in all with the bundled spec (`MAX_WRITES` by the spec suite, `PACT_WRITES` by the Pact suite, `MAX_FUZZ_WRITES` by the fuzz suite). */
  readonly writes: number;
  /** Requests sent again after a 429, a gateway error or a dropped connection: `GET <url> after 503`. */
  readonly retried: readonly string[];
  /** The same, counted by cause, with the time spent waiting for Retry-After: what the report's one line says. */
  readonly retries: Omit<Retries, 'lines'>;
  /** Advice (`--strict`), each said once: see `Advice`. Empty unless the warning level is `all`. */
  readonly advice: readonly string[];
  readonly results: readonly CheckResult[];
  readonly counts: Counts;
  /** Why the run could not verify at all (unreachable, key rejected); then `results` is empty. */
  readonly fatal?: string;
  /** 0: every check passed; 1: the deployment breaks the contract; 2: it could not be verified. */
  readonly exitCode: ExitCode;
  /** What of the spec the run exercised, and what the deployment answered. */
  readonly coverage?: Coverage;
}

/** The checks of the spec suite, for this contract. */
export function specChecks(contract: Contract): Check[] {
  // The auth checks of the list, the create and the read; a delete has its own (checks/delete-checks.ts), which removes only what it created.
  const followed = contract.model.operations.filter((operation) => ['list', 'create', 'read'].includes(operation.kind));
  const operations = followed.map(({ operationId }) => contract.operation(operationId));
  return [
    ...authChecks(operations),
    ...ofKinds(contract, [...listChecks(contract), ...createChecks, ...getChecks]),
    ...deleteChecks(contract),
    ...replaceChecks(contract),
    ...inputChecks(contract.doc),
    ...variationChecks(contract),
  ];
}

function count(results: readonly CheckResult[], outcome: Outcome): number {
  return results.filter((result) => result.outcome === outcome && result.follows === undefined).length;
}

/** A failed check means the deployment breaks the contract (1); a check that could not verify, that the run is incomplete (2). */
function exitCodeOfResults(results: readonly CheckResult[]): ExitCode {
  if (results.some((result) => result.outcome === 'fail')) return EXIT.failed;
  return count(results, 'error') > 0 ? EXIT.usage : EXIT.ok;
}

/**
 * What is wrong with a base URL's path, if the deployment does not respond there: it goes past the
 * spec's version prefix (`.../v1/pets`), which is never right, or it lacks it, which is right only
 * for a deployment serving the API at its root (as Prism's mock does), so that is said only once
 * the listing is not found there.
 */
function prefixProblems(baseUrl: string, basePath: string): { past?: string; lacking?: string } {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  if (basePath === '' || path.endsWith(basePath)) return {};
  const past = path.lastIndexOf(`${basePath}/`);
  if (past >= 0)
    return {
      past: `--base-url ${url.origin}${path} goes past the API's version prefix ${basePath}: give the URL the API's paths start from, ${url.origin}${path.slice(0, past + basePath.length)}`,
    };
  return {
    lacking: `--base-url ${url.origin}${path} lacks the API's version prefix ${basePath}, and the listing is not there: give the URL the API's paths start from, like ${url.origin}${path}${basePath}`,
  };
}

/** True for a response that is a web page: what a single-page app or a web server's index gives for any path. */
function isWebPage(exchange: Exchange): boolean {
  const type = exchange.headers.get('content-type') ?? '';
  return exchange.json === undefined && (/^text\/html\b/i.test(type) || /^\s*</.test(exchange.text));
}

/** Lists the pets once before any check: it proves the deployment responds and takes the key. */
async function preflight(
  contract: Contract,
  client: HttpClient,
  lacking: string | undefined,
): Promise<{ listing: Record<string, JsonValue>[] } | { fatal: string }> {
  const list = operationOfKind(contract.model, 'list');
  if (list === undefined) return { fatal: 'the spec has no list of its resource (a GET on the collection answering an array), which every run starts with' };
  try {
    const exchange = await client.send({ method: 'GET', path: list.path, query: fullPage(list) });
    const where = `GET ${exchange.request.url}`;
    if (exchange.status === 401 || exchange.status === 403) {
      return {
        fatal: `the deployment refused the given key (${exchange.status} on ${where}). This is a configuration problem, not a contract failure: check --api-key or PETSTORE_API_KEY.`,
      };
    }
    if (exchange.status >= 300 && exchange.status < 400) {
      const location = exchange.headers.get('location') ?? '(no Location)';
      return {
        fatal: `${where} redirects (${exchange.status}) to ${location}. petstore-verify follows no redirect, so the key never goes to another host: give the final URL as --base-url.`,
      };
    }
    if (RETRYABLE_STATUSES.has(exchange.status))
      return { fatal: `the deployment is unavailable: ${where} answered ${exchange.status} ${exchange.attempts} times. Try again when it is up.` };
    if (lacking && (exchange.status === 404 || isWebPage(exchange))) return { fatal: `${lacking} (${where} answered ${exchange.status}).` };
    if (exchange.status < 300 && isWebPage(exchange)) {
      return {
        fatal: `${where} answered ${exchange.status} with a web page (${exchange.headers.get('content-type') ?? 'no Content-Type'}), not the API's JSON: --base-url must be the API's URL, ending in its version prefix like https://staging.example.com/v1, not a web site's.`,
      };
    }
    if (exchange.status === 404 || (exchange.status >= 400 && exchange.json === undefined)) {
      const type = exchange.headers.get('content-type') ?? 'no Content-Type';
      return {
        fatal: `${where} answered ${exchange.status} with ${type}, not the API: is --base-url right? It must end with the API's version prefix, like https://staging.example.com/v1.`,
      };
    }
    const listing = Array.isArray(exchange.json)
      ? exchange.json.filter((pet): pet is Record<string, JsonValue> => typeof pet === 'object' && pet !== null && !Array.isArray(pet))
      : [];
    return { listing };
  } catch (error) {
    // An oversized listing is the deployment's fault, not the network's: the checks will say so.
    if (error instanceof TransportError && error.problem === 'too-large') return { listing: [] };
    if (error instanceof TransportError) return { fatal: error.problem === 'rate-limited' ? error.message : `cannot reach the deployment: ${error.message}` };
    throw error;
  }
}

/** What the steps of one run share: its settings, the spec, the client to the deployment, and what the pact suite sent. */
interface Run {
  readonly options: VerifyOptions;
  readonly suite: Suite;
  readonly readOnly: boolean;
  readonly contract: Contract;
  readonly client: HttpClient;
  readonly runId: string;
  /** When the run started, by `performance.now()` for its duration and as an ISO date for the report. */
  readonly started: number;
  readonly startedAt: string;
  /** When the run's deadline falls, by `Date.now()`: the pact suite's workers keep to it too. */
  readonly deadlineAt: number;
  /** Requests and writes of the pact suite, sent by its workers' own clients and counted here. */
  readonly pactTotals: { requests: number; writes: number };
  readonly coverage: CoverageRecorder;
  /** The integers beyond 2^53 the deployment wrote: all doubles, they name the cause of the failures about them. */
  readonly bigIntegers: BigIntegers;
  /** The Pact suite's worker, forked as the run starts so that it loads the Pact Verifier while the spec suite runs. */
  readonly pactWorker: PactWorker | undefined;
  /** The run-wide model of the deployment, fed by every response of every suite; undefined when the spec's shape is not one it knows. */
  readonly model: DeploymentModel | undefined;
  /**
   * Hears each response of every suite: the coverage, the integers beyond 2^53, the model, then the
   * caller's observer; `inspect` for one no check inspected (see `DeploymentModel.observe`).
   */
  readonly observe: (exchange: ObservedExchange, inspect?: boolean) => void;
}

/** Each request's bound when `timeoutMs` is not given. */
export const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONCURRENCY = 4;

async function prepareRun(options: VerifyOptions): Promise<Run> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const suite = options.suite ?? 'all';
  // Forked first, so that it loads while this process loads the spec and the spec suite runs.
  const pactWorker = (suite === 'all' || suite === 'pact') && pactInstalled() ? startPactWorker(options.apiKey) : undefined;
  const contract = await loadContract(options.spec);
  const deadlineMs = options.deadlineMs ?? 120_000;
  const deadlineAt = Date.now() + deadlineMs;
  const coverage = new CoverageRecorder(contract, options.baseUrl, (url) => client.shown(url));
  const bigIntegers = new BigIntegers();
  const kinds = followedOperations(contract.model);
  const model = kinds && new DeploymentModel(kinds, contract, options.baseUrl);
  const observe = (exchange: ObservedExchange, inspect = false) => {
    coverage.observe(exchange);
    bigIntegers.observe(exchange.text);
    model?.observe(exchange, inspect);
    // The caller's observer (the HAR) is given the URL as every report shows it: without a key the base URL holds.
    options.observe?.(client.baseHoldsKey ? { ...exchange, request: { ...exchange.request, url: client.shown(exchange.request.url) } } : exchange);
  };
  const client = new HttpClient({
    // The spec suite's, and those the checks of an operation its spec adds (a delete, a replace) bring.
    maxWrites: SPEC_WRITES + deleteWrites(contract) + replaceWrites(contract),
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    deadline: AbortSignal.timeout(deadlineMs),
    ...(options.rps === undefined ? {} : { rps: options.rps }),
    observe,
  });
  return {
    options,
    suite,
    readOnly: options.readOnly ?? false,
    contract,
    client,
    runId: randomBytes(4).toString('hex'),
    started,
    startedAt,
    deadlineAt,
    pactTotals: { requests: 0, writes: 0 },
    coverage,
    model,
    observe,
    bigIntegers,
    pactWorker,
  };
}

/** The pacts the run replays (none for the spec suite alone), or why they cannot be. */
async function pactsToVerify(run: Run): Promise<{ pacts: LoadedPact[] } | { fatal: string }> {
  if (run.suite === 'spec' || run.suite === 'fuzz') return { pacts: [] };
  let pacts: LoadedPact[];
  try {
    pacts = await loadPacts(run.options.pacts, AbortSignal.timeout(Math.max(1, run.deadlineAt - Date.now())));
  } catch (error) {
    return { fatal: messageOf(error) };
  }
  const problem = pacts.map(pactProblem).find((found) => found !== undefined) ?? pactWritesProblem(pacts, run.readOnly);
  return problem ? { fatal: problem } : { pacts };
}

function runStateOf(run: Run, listing: readonly Record<string, JsonValue>[]): RunState {
  const now = run.options.now ?? new Date();
  return {
    contract: run.contract,
    client: run.client,
    runId: run.runId,
    readOnly: run.readOnly,
    listing,
    now,
    get writesLeft() {
      return run.client.writesLeft;
    },
    advice: new Advice(),
    removals: new Removals(run.contract, now),
    ...(run.options.categoryId === undefined ? {} : { categoryId: run.options.categoryId }),
  };
}

/**
 * A text as every report shows it: an excerpt (src/terminal/excerpt-text.ts) of what the deployment may have
 * put in it; and when the base URL holds the key, without the key, which every text written from the
 * base URL would show (a Location resolved against it, the URL that could not be reached).
 */
function reportText(client: HttpClient): (text: string) => string {
  return client.baseHoldsKey ? (text) => shortened(client.shown(text)) : shortened;
}

/** A result as the run's warning level shows it: without its warnings under `off`. */
function shown(run: Run, result: CheckResult): CheckResult {
  const short = shortenedResult(result, reportText(run.client));
  return run.options.warnings === 'off' && short.warnings.length > 0 ? { ...short, warnings: [] } : short;
}

/** The spec suite's checks, all started at once: the client's pacer bounds what is in flight. */
async function runSpecSuite(run: Run, state: RunState): Promise<CheckResult[]> {
  const checks = run.suite === 'pact' || run.suite === 'fuzz' ? [] : specChecks(run.contract);
  return Promise.all(
    checks.map(async (check) => {
      const result = shown(run, await runCheck(check, state, 'spec'));
      run.options.onResult?.(result);
      return result;
    }),
  );
}

/**
 * Why the Pact suite replays nothing: the deployment stopped answering during the spec suite (a crash,
 * found there) and still does not answer its listing. Its interactions would each meet the same fault.
 */
async function stoppedAnswering(run: Run, results: readonly CheckResult[]): Promise<string | undefined> {
  const met = results.find((result) => result.findings.some((finding) => finding.fault === DROPPED));
  if (met === undefined) return undefined;
  try {
    const list = operationOfKind(run.contract.model, 'list');
    await run.client.send({ method: 'GET', path: list?.path ?? '/', query: list?.pageSize === undefined ? '' : sizedPage(list, list.pageSize.minimum) });
    return undefined;
  } catch (error) {
    if (!(error instanceof DroppedError)) throw error;
    return `not replayed: the deployment stopped answering during the spec suite (see ${met.id}), and still does not answer`;
  }
}

async function runPactSuite(run: Run, state: RunState, pacts: readonly LoadedPact[], before: readonly CheckResult[]): Promise<CheckResult[]> {
  if (run.suite === 'spec' || run.suite === 'fuzz') return [];
  const { options } = run;
  const notRun = await stoppedAnswering(run, before);
  // Its own writes, besides what the spec suite left of the run's budget; those it sends are taken from it.
  const writeBudget = pactWriteBudget(pacts);
  run.client.grantWrites(writeBudget);
  const pactRun = await verifyPacts(state, pacts, {
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    rps: options.rps,
    deadlineAt: run.deadlineAt,
    onResult: options.onResult && ((result) => options.onResult?.(shown(run, result))),
    // The Pact Verifier judges its answers against the pact: the model holds them to the spec as well.
    onExchange: (exchange) => run.observe(exchange, true),
    notRun,
    worker: run.pactWorker,
    // The HAR file and the run-wide model read the answers' bodies.
    bodies: options.observe !== undefined || run.model !== undefined,
    writeBudget,
  });
  run.pactTotals.requests = pactRun.requests;
  run.pactTotals.writes = pactRun.writes;
  run.client.spendWrites(pactRun.writes);
  return pactRun.results.map((result) => shown(run, result));
}

/** The fuzz suite, after the others, when asked for: loaded only then, so that other runs do not load fast-check (an optional peer). */
async function runFuzzSuite(run: Run, state: RunState): Promise<CheckResult[]> {
  const asked = run.options.fuzz;
  if (run.suite !== 'fuzz' && asked === undefined) return [];
  const options = { seed: asked?.seed ?? randomInt(2 ** 31), runs: asked?.runs ?? DEFAULT_FUZZ_RUNS, deadlineAt: run.deadlineAt };
  // Its own writes, besides what the other suites left of the run's budget.
  run.client.grantWrites(MAX_FUZZ_WRITES);
  const result = fastCheckInstalled()
    ? shown(run, await runCheck((await import('./fuzz/fuzz-suite.js')).fuzzCheck(options), state, 'fuzz'))
    : {
        id: 'fuzz.model',
        suite: 'fuzz' as const,
        title: 'the fuzz suite',
        operationId: undefined,
        outcome: 'error' as const,
        ms: 0,
        findings: [],
        warnings: [],
        reason: FAST_CHECK_INSTALL_HINT,
      };
  run.options.onResult?.(result);
  return [result];
}

/** The model's last phase (every field, enough creates to cross a small cache, the earliest items read back), then its invariants over the whole run. */
async function runModelSuite(run: Run, state: RunState): Promise<CheckResult[]> {
  if (run.model === undefined) return [];
  const onResult = run.options.onResult && ((result: CheckResult) => run.options.onResult?.(shown(run, result)));
  // Its own requests belong to the spec suite's run; a Pact or fuzz run alone is judged on what it sent.
  const active = run.suite === 'spec' || run.suite === 'all';
  return (await runModelPhase(run.model, state, active, onResult)).map((result) => shown(run, result));
}

/** The report of the run so far: its results, or why it could not verify at all (`fatal`). */
function reportOf(run: Run, checked: readonly CheckResult[], state: RunState | undefined, fatal?: string): VerificationReport {
  const { client, pactTotals } = run;
  const results = groupWithRoundedIntegers(checked, run.bigIntegers.rounded);
  const advice = run.options.warnings === 'all' && state ? state.advice.messages.map(reportText(client)) : [];
  const { byCause, waitedMs } = client.retries;
  return {
    baseUrl: client.shown(run.options.baseUrl),
    suite: run.suite,
    runId: run.runId,
    readOnly: run.readOnly,
    startedAt: run.startedAt,
    ms: performance.now() - run.started,
    requests: client.sent + pactTotals.requests,
    posts: client.writes + pactTotals.writes,
    writes: client.writesSent,
    retried: client.retried.map(reportText(client)),
    retries: { byCause, waitedMs },
    advice,
    results,
    counts: {
      passed: count(results, 'pass'),
      failed: count(results, 'fail'),
      following: results.filter((result) => result.follows !== undefined).length,
      skipped: count(results, 'skip'),
      errors: count(results, 'error'),
      warnings: results.reduce((n, r) => n + r.warnings.length, advice.length),
    },
    ...(fatal === undefined ? { exitCode: exitCodeOfResults(results) } : { fatal: reportText(client)(client.redact(fatal)), exitCode: EXIT.usage }),
    coverage: run.coverage.coverage(),
  };
}

/**
 * Verifies a live deployment against the spec. Never throws for what the deployment does: every
 * finding, and a deployment that cannot be reached, is in the report.
 * @example
 * const report = await verify({ baseUrl: 'https://staging.example.com/v1', apiKey: process.env.PETSTORE_API_KEY! });
 * process.exitCode = report.exitCode;
 */
export async function verify(options: VerifyOptions): Promise<VerificationReport> {
  const run = await prepareRun(options);
  try {
    return await verifyWith(run);
  } finally {
    run.pactWorker?.dispose();
  }
}

/** The run's steps, in order; a misconfiguration or a deployment that cannot be asked ends it early with `fatal`. */
async function verifyWith(run: Run): Promise<VerificationReport> {
  const { options } = run;
  // Misconfiguration is found before the first request: exit 2 with what to fix, not a run of failures.
  const prefix = prefixProblems(options.baseUrl, basePathOf(run.contract.doc));
  if (prefix.past) return reportOf(run, [], undefined, prefix.past);
  const pacts = await pactsToVerify(run);
  if ('fatal' in pacts) return reportOf(run, [], undefined, pacts.fatal);
  const seen = await preflight(run.contract, run.client, prefix.lacking);
  if ('fatal' in seen) return reportOf(run, [], undefined, seen.fatal);
  const state = runStateOf(run, seen.listing);
  const results = await runSpecSuite(run, state);
  results.push(...(await runPactSuite(run, state, pacts.pacts, results)));
  results.push(...(await runFuzzSuite(run, state)));
  results.push(...(await runModelSuite(run, state)));
  return reportOf(run, results, state);
}
