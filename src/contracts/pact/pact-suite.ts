import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWrite } from '../../http/methods.js';
import { definedFields } from '../../json/defined-fields.js';
import { parseJsonFast, stringifyJson } from '../../json/lossless.js';
import { basePathOf } from '../../openapi/document.js';
import { DROPPED, operationAt, TOO_LARGE } from '../causes.js';
import { type CheckResult, type Finding, type Outcome, type RunState, statusFault, undocumentedStatusFault } from '../check.js';
import type { Contract } from '../contract.js';
import { type ExchangeObserver, KEY_PLACEHOLDER, type ObservedExchange, type RecordedRequest } from '../http.js';
import { acceptedCategoryId } from '../pets.js';
import { PACT_WRITES } from '../run-bounds.js';
import { isObject } from './guards.js';
import { type Mismatch, mismatchFault } from './pact-faults.js';
import { type LoadedPact, type PactDocument, type PactInteraction, statesOf, withStatesOnce } from './pacts.js';
import { breaksContract } from './proxy.js';
import { stateMayWrite, stateSpecOf } from './states.js';
import type { InteractionOutcome, PactJob, PactOutcome, WorkerMessage } from './worker.js';

/** One interaction's verdict in the verifier's JSON report. */
interface InteractionReport {
  readonly description: string;
  readonly duration?: string;
  readonly result?: unknown;
}

interface MismatchReport extends Mismatch {
  readonly expected?: unknown;
  readonly actual?: unknown;
}

interface VerifierReport {
  readonly interactionResults?: readonly InteractionReport[];
  /** What the Verifier printed while it ran: where it says why an interaction could not run. */
  readonly output?: readonly string[];
  readonly errors?: readonly VerifierError[];
  /** The same, for pending interactions: what they did not meet, which fails nothing. */
  readonly pendingErrors?: readonly VerifierError[];
}

interface VerifierError {
  readonly interaction: string;
  readonly mismatch?: { readonly type?: string; readonly message?: string; readonly mismatches?: readonly MismatchReport[] };
}

// From sources the worker is TypeScript and needs tsx to run; from dist it is plain JavaScript.
const fromSources = import.meta.url.endsWith('.ts');
const WORKER = fileURLToPath(new URL(fromSources ? './worker.ts' : './worker.js', import.meta.url));

/** At the deadline the worker stops itself and reports; if it has not within this time, it is killed. */
const KILL_GRACE_MS = 1_000;

/**
 * A worker process, forked ahead of its job: it loads the Pact Verifier (some 0.5 s of modules) as soon
 * as it starts, so that a worker forked when the run starts has it loaded by the time the spec suite is
 * done. One job each; `dispose` ends one that got none.
 */
export interface PactWorker {
  /** Takes the worker for a job, or undefined once it was taken (a second pact forks its own). */
  take(): ChildProcess | undefined;
  dispose(): void;
}

function forkWorker(apiKey: string): ChildProcess {
  return fork(WORKER, [], {
    execArgv: fromSources ? ['--import', 'tsx'] : [],
    env: { ...process.env, PETSTORE_API_KEY: apiKey, PACT_DO_NOT_TRACK: 'true' },
    // The native verifier prints its own report on stdout; ours is made from its JSON instead.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

/** Forks a worker now, for the Pact suite to take later; its stderr is kept for the error of a worker that dies. */
export function startPactWorker(apiKey: string): PactWorker {
  let child: ChildProcess | undefined = forkWorker(apiKey);
  const forked = child;
  return {
    take() {
      const taken = child;
      child = undefined;
      return taken;
    },
    dispose() {
      if (forked.exitCode === null && forked.signalCode === null && child !== undefined) forked.kill();
    },
  };
}

/** Runs the worker; `onSent` hears of each request it sends, as it sends it, and `onExchange` of each response. */
function runWorker(job: PactJob, child: ChildProcess, onSent: (method: string) => void, onExchange: ExchangeObserver): Promise<PactOutcome> {
  return new Promise((resolve) => {
    if (job.deadlineAt <= Date.now()) {
      child.kill();
      resolve({ error: "the run's deadline passed before the pact could be verified" });
      return;
    }
    let stderr = '';
    let outcome: PactOutcome | undefined;
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('message', (message: WorkerMessage) => {
      if ('sent' in message) onSent(message.sent);
      else if ('exchange' in message) onExchange(message.exchange);
      else outcome = message.outcome;
    });
    const killer = setTimeout(
      () => {
        outcome ??= { error: "the run's deadline passed while the pact was being verified" };
        child.kill('SIGKILL');
      },
      job.deadlineAt - Date.now() + KILL_GRACE_MS,
    );
    const exited = (code: number | null) => {
      clearTimeout(killer);
      resolve(outcome ?? { error: `the Pact verifier exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}` });
    };
    // A worker forked ahead that died before its job (it could not load the Pact Verifier) says so at once.
    if (child.exitCode !== null || child.signalCode !== null) return exited(child.exitCode);
    child.on('exit', exited);
    child.send(job);
  });
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : stringifyJson(value);
}

/** The interaction's request as petstore-verify records requests: against the base URL, key redacted. */
function recordedRequest(interaction: PactInteraction, baseUrl: string, basePath: string): RecordedRequest {
  const { request } = interaction;
  const query =
    typeof request.query === 'string'
      ? request.query
      : new URLSearchParams(
          Object.entries(request.query ?? {}).flatMap(([name, values]) => (Array.isArray(values) ? values : [values]).map((value) => [name, value])),
        ).toString();
  const path = request.path.startsWith(basePath) ? request.path.slice(basePath.length) : request.path;
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]),
  );
  if (headers.authorization !== undefined) headers.authorization = `Bearer ${KEY_PLACEHOLDER}`;
  // A V4 pact wraps the body as `{ content, contentType, encoded }`; earlier versions give it as it is.
  const content = (isObject(request.body) ? request.body.content : undefined) ?? request.body;
  return {
    method: request.method.toUpperCase(),
    url: `${baseUrl}${path}${query ? `?${query}` : ''}`,
    headers,
    ...(content === undefined ? {} : { body: text(content) }),
  };
}

function findingsOf(error: VerifierError, request: RecordedRequest, fault: FaultOf, expectedStatus: number): Finding[] {
  const mismatches = error.mismatch?.mismatches ?? [];
  if (mismatches.length === 0) return [{ message: error.mismatch?.message ?? `the interaction failed (${error.mismatch?.type ?? 'unknown'})`, request }];
  // A status other than the pact's is the fault the spec suite names by that status too: one fault, one
  // failure; the body of another status differs from the pact's because of it.
  const statusMismatch = mismatches.find((mismatch) => mismatch.type === 'StatusMismatch' && Number.isInteger(Number(mismatch.actual)));
  const byStatus = statusMismatch && fault(request.method, request.url, Number(statusMismatch.actual));
  return mismatches.map((mismatch) => {
    const shared = byStatus ?? mismatchFault(mismatch, expectedStatus, request.url);
    return {
      message: `${mismatch.type ?? 'Mismatch'}${mismatch.path ? ` at ${mismatch.path}` : mismatch.key ? ` of ${mismatch.key}` : ''}: ${mismatch.mismatch ?? 'differs'}`,
      ...(mismatch.expected === undefined ? {} : { expected: text(mismatch.expected) }),
      ...(mismatch.actual === undefined ? {} : { actual: text(mismatch.actual) }),
      request,
      ...(shared === undefined ? {} : { fault: shared }),
    };
  });
}

/** The fault of a request's operation answering `status`, as the spec suite names it; undefined for a request of no operation. */
type FaultOf = (method: string, url: string, status: number) => string | undefined;

function faultOf(contract: Contract): FaultOf {
  return (method, url, status) => {
    const operationId = operationAt(contract, method, url);
    if (operationId === undefined) return undefined;
    return contract.operation(operationId).statuses.has(status) ? statusFault(operationId, status) : undocumentedStatusFault(operationId, status);
  };
}

/** A provider state that could not be set up because a request of it was answered a status: `... POST /pets answered 200`. */
function stateFailureFinding(failure: string, request: RecordedRequest, fault: FaultOf): Finding {
  const [, method, url, status] = /\b([A-Z]+) (\S+) answered (\d{3})\b/.exec(failure) ?? [];
  const shared = method !== undefined && url !== undefined ? fault(method, url, Number(status)) : undefined;
  return { message: failure, request, ...(shared === undefined ? {} : { fault: shared }) };
}

function hasReport(outcome: InteractionOutcome): outcome is InteractionOutcome & { report: string } {
  return outcome.report !== undefined;
}

/** The Verifier's output as plain text: its colours dropped. */
function plain(line: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape of a terminal colour is the point
  return line.replace(/\u001b\[[0-9;]*m/g, '').trim();
}

/**
 * Why an interaction the Verifier did not pass has no mismatch to show: what its report says of it
 * (its errors, else its output), and whether the deployment got its request at all. Never a bare "Error".
 */
function whyNotVerified(report: VerifierReport, interaction: PactInteraction, outcome: InteractionOutcome, verdict: InteractionReport): string {
  const errors = errorsAbout(report, interaction).map((error) => error.mismatch?.message ?? error.mismatch?.type ?? text(error.mismatch));
  const said = errors.length > 0 ? errors : (report.output ?? []).map(plain).filter((line) => /fail|error/i.test(line));
  const result = typeof verdict.result === 'string' ? verdict.result : text(verdict.result);
  const why = said.length > 0 ? `: ${[...new Set(said)].join('; ')}` : ' and says no more';
  const sent = outcome.requests.map((request) => `${request.method} ${request.url}`);
  return `the Pact verifier reports ${result}${why}; ${
    sent.length > 0
      ? `the deployment got ${sent.join(', ')}`
      : "the deployment got no request of it: the Verifier could not send it (check the pact's request: its body, headers and path)"
  }`;
}

/** The method the Pact Verifier sends for an interaction: a pact may write it in lower case (V2), the Verifier sends it in upper case. */
function methodOf(interaction: PactInteraction): string {
  return interaction.request.method.toUpperCase();
}

/** How many writes an interaction may send: its own request when its method is not safe, and one per state (each named once) that may create a pet. */
function writesOf(interaction: PactInteraction): number {
  return (isWrite(methodOf(interaction)) ? 1 : 0) + statesOf(interaction).filter(stateMayWrite).length;
}

function skipReason(interaction: PactInteraction, state: RunState): string | undefined {
  if (!state.readOnly) return undefined;
  const method = methodOf(interaction);
  if (isWrite(method))
    return `--read-only: the interaction sends ${method}, a write (only GET, HEAD, OPTIONS and TRACE are safe, RFC 9110 §9.2.1), so it is not replayed`;
  const writing = statesOf(interaction).find(stateMayWrite);
  return writing ? `--read-only: the state "${writing}" may need a pet created` : undefined;
}

/** The writes the pacts' interactions and their states need, in all. */
function writesNeeded(pacts: readonly LoadedPact[]): number {
  return pacts.reduce((sum, { pact }) => sum + pact.interactions.reduce((writes, interaction) => writes + writesOf(interaction), 0), 0);
}

/**
 * The writes the Pact suite may send, a budget of its own besides the spec suite's, within the run's
 * one bound (`PACT_WRITES`): twice what its interactions and their states need, so that a write sent
 * again after a 429 is not taken from another.
 */
export function pactWriteBudget(pacts: readonly LoadedPact[]): number {
  return Math.min(2 * writesNeeded(pacts), PACT_WRITES);
}

/**
 * Why the pacts cannot be replayed within the Pact suite's bound of writes, or `undefined`: said at
 * start, before the run's first request, naming the pact that passes it. Under `--read-only` none is sent.
 */
export function pactWritesProblem(pacts: readonly LoadedPact[], readOnly: boolean): string | undefined {
  if (readOnly) return undefined;
  let needed = 0;
  for (const loaded of pacts) {
    needed += writesNeeded([loaded]);
    if (needed > PACT_WRITES)
      return `the pacts to verify (--pact, with the bundled ones) may need more than ${PACT_WRITES} writes on the deployment, the most a run's Pact suite sends, past ${loaded.source} (${needed} so far: each interaction's request of a method that is not safe, and each provider state of it that may create a pet, named once); nothing was sent. Give fewer pacts, or interactions that need fewer such states, split them across runs, or replay them with --read-only (which skips the interactions that write)`;
  }
  return undefined;
}

export interface PactRunOptions {
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly rps?: number | undefined;
  /** When the run's deadline falls, as `Date.now()` counts: the Pact suite stops then too. */
  readonly deadlineAt: number;
  readonly onResult?: ((result: CheckResult) => void) | undefined;
  /** Hears each response the deployment sent the suite, redacted as the spec suite's are. */
  readonly onExchange?: ExchangeObserver | undefined;
  /** Why no interaction is replayed (the deployment stopped answering before the suite), each reported as skipped with it. */
  readonly notRun?: string | undefined;
  /** A worker forked when the run started, taken by the first pact that sends an interaction. */
  readonly worker?: PactWorker | undefined;
  /** Whether `onExchange` needs each answer's body (a HAR file is written). */
  readonly bodies?: boolean;
  /** The writes the suite may send (`pactWriteBudget`), within what the run's budget has left. */
  readonly writeBudget: number;
}

/** The Pact suite's results, and the requests it sent, for the report's totals. */
export interface PactRun {
  readonly results: CheckResult[];
  readonly requests: number;
  /** Of them, the writes (methods that are not safe), each taken from the run's budget. */
  readonly writes: number;
}

/** A finding as the report shows it: every text the deployment may have echoed the key into, redacted. */
function redacted(finding: Finding, redact: (text: string) => string): Finding {
  return {
    ...finding,
    message: redact(finding.message),
    ...(finding.expected === undefined ? {} : { expected: redact(finding.expected) }),
    ...(finding.actual === undefined ? {} : { actual: redact(finding.actual) }),
  };
}

/** One interaction's result, from the Verifier's report and what the proxy and the states saw. */
function judge(interaction: PactInteraction, outcome: InteractionOutcome, request: RecordedRequest, redact: (text: string) => string, fault: FaultOf) {
  // What the proxy capped, stopped or could not get is the failure: the Verifier only saw the proxy's 502.
  const stopped: Finding[] = outcome.problems.map((problem) => ({
    message: redact(problem.message),
    request: problem.request,
    ...(problem.problem === 'dropped' ? { fault: DROPPED } : problem.problem === 'too-large' ? { fault: TOO_LARGE } : {}),
  }));
  // Judged before the Verifier's report, none of these results has a time of its own.
  const early = (judged: Outcome, findings: Finding[], reason?: string) => ({ outcome: judged, ms: 0, findings, ...definedFields({ reason }) });
  const spent = outcome.problems.find((problem) => problem.problem === 'budget');
  if (spent) return early('skip', [], redact(spent.message));
  // A deployment that stopped answering fails the interaction, whatever its states then could not set up.
  const dropped = stopped.filter((finding) => finding.fault === DROPPED);
  if (dropped.length > 0) return early('fail', dropped);
  const unasked = outcome.problems.find((problem) => !breaksContract(problem));
  if (unasked) return early('error', stopped, `could not verify: ${redact(unasked.message)}`);
  // A state is set up through the API, so a state that cannot be is the deployment's response failing.
  if (outcome.stateFailures.length > 0)
    return early('fail', [...stopped, ...outcome.stateFailures.map((failure) => stateFailureFinding(redact(failure), request, fault))]);
  // A state the deployment legitimately cannot serve (it knows none of the categories tried) leaves the interaction unverifiable.
  if (outcome.stateUnavailable.length > 0) return early('skip', [], redact([...new Set(outcome.stateUnavailable)].join('; ')));
  if (!hasReport(outcome)) return early('error', stopped, `could not verify: ${redact(outcome.error ?? 'the Pact verifier gave no report and no reason')}`);
  return judgeReport(interaction, outcome, request, redact, fault, stopped);
}

/** One interaction's result from the Verifier's JSON report (given what the proxy stopped). */
function judgeReport(
  interaction: PactInteraction,
  outcome: InteractionOutcome & { report: string },
  request: RecordedRequest,
  redact: (text: string) => string,
  fault: FaultOf,
  stopped: Finding[],
) {
  // The Pact Verifier's own JSON report, in the shape it writes; the fields it may leave out are optional in VerifierReport.
  const report = parseJsonFast(outcome.report) as VerifierReport;
  const verdict = report.interactionResults?.find((candidate) => candidate.description === interaction.description);
  // The report names an error's interaction "Verifying a pact between ... - <description>". An error of the
  // Verifier's own (type `error`: it could not send the request) is no mismatch: the interaction did not run.
  const mismatched = errorsAbout(report, interaction).filter((error) => error.mismatch?.type !== 'error');
  const ms = Number.parseFloat(verdict?.duration ?? '0') * (verdict?.duration?.endsWith('ms') ? 1 : 1000);
  const findings =
    stopped.length > 0
      ? stopped
      : mismatched.flatMap((error) => findingsOf(error, request, fault, interaction.response?.status ?? 200)).map((finding) => redacted(finding, redact));
  if (!verdict) return { outcome: 'error' as const, ms, findings, reason: 'could not verify: the Pact verifier did not report this interaction' };
  if (verdict.result === 'OK' && findings.length === 0) return { outcome: 'pass' as const, ms, findings };
  if (interaction.pending) {
    const what = findings.map((finding) => finding.message).join('; ') || text(verdict.result);
    // A pending interaction is a consumer's hope, not the interface: advice, said under --strict.
    return { outcome: 'pass' as const, ms, findings: [], advice: `${interaction.description}: pending interaction not met (does not fail the run): ${what}` };
  }
  // Not passed, and not one mismatch to show: the interaction could not run, which says nothing of the contract.
  if (findings.length === 0)
    return { outcome: 'error' as const, ms, findings, reason: `could not verify: ${redact(whyNotVerified(report, interaction, outcome, verdict))}` };
  return { outcome: 'fail' as const, ms, findings };
}

function errorsAbout(report: VerifierReport, interaction: PactInteraction): VerifierError[] {
  return [...(report.errors ?? []), ...(report.pendingErrors ?? [])].filter(
    (error) => error.interaction === interaction.description || error.interaction.endsWith(` - ${interaction.description}`),
  );
}

/** What the suite shares while it verifies the pacts: the run, where the pact files go, and what it reports. */
interface PactSuiteContext {
  readonly state: RunState;
  readonly options: PactRunOptions;
  readonly basePath: string;
  readonly baseUrl: string;
  readonly redact: (text: string) => string;
  /** The category the spec suite's creates were accepted with: the provider states try it first. */
  readonly categoryId: string | undefined;
  /** A temporary folder for the pact files, one interaction each. */
  readonly folder: string;
  readonly results: CheckResult[];
  /** The requests the worker sent, counted as they leave, for the report's totals. */
  readonly sent: { requests: number; writes: number };
}

function emit(context: PactSuiteContext, result: CheckResult): void {
  context.results.push(result);
  context.options.onResult?.(result);
}

/** A response of the worker's proxy, redacted here with every near miss of the key the run sent, for the run's observer. */
function hear(context: PactSuiteContext, exchange: ObservedExchange): void {
  const date = exchange.headers.find(([name]) => name.toLowerCase() === 'date')?.[1];
  context.state.removals.heardRequest(exchange.request.method, exchange.request.url, exchange.status, date);
  context.options.onExchange?.(context.state.client.redactExchange(exchange));
}

function countSent(context: PactSuiteContext, method: string): void {
  context.sent.requests++;
  if (isWrite(method)) context.sent.writes++;
}

/** What every result of the interaction shows, whatever its outcome. */
function resultBase(consumer: string, interaction: PactInteraction) {
  return {
    id: `pact.${consumer}.${interaction.description.replace(/\s+/g, '-')}`,
    suite: 'pact' as const,
    title: `${consumer}: ${interaction.description}${statesOf(interaction).length > 0 ? ` (given ${statesOf(interaction).join(', ')})` : ''}`,
    operationId: undefined,
    warnings: [],
  };
}

/** The pact's interactions to send; those `--read-only` keeps back are reported as skipped. */
function interactionsToSend(context: PactSuiteContext, pact: PactDocument): PactInteraction[] {
  return pact.interactions.filter((interaction) => {
    const reason = context.options.notRun ?? skipReason(interaction, context.state);
    if (reason) emit(context, { ...resultBase(pact.consumer.name, interaction), outcome: 'skip', ms: 0, findings: [], reason });
    return !reason;
  });
}

/** Writes each interaction into a pact file of its own, so that what the proxy saw is known per interaction. */
function writePactFiles(
  context: PactSuiteContext,
  index: number,
  pact: PactDocument,
  interactions: readonly PactInteraction[],
): Promise<PactJob['interactions']> {
  return Promise.all(
    interactions.map(async (interaction, n) => {
      const pactFile = join(context.folder, `${index}-${n}.json`);
      await writeFile(pactFile, JSON.stringify({ ...pact, interactions: [withStatesOnce(interaction)] }));
      return { description: interaction.description, pactFile };
    }),
  );
}

function workerJob(context: PactSuiteContext, interactions: PactJob['interactions']): PactJob {
  const { options } = context;
  return {
    baseUrl: context.baseUrl,
    basePath: context.basePath,
    interactions,
    runId: context.state.runId,
    states: stateSpecOf(context.state.contract),
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    // What is left of the suite's budget (within the run's), less what the pacts before this one sent.
    writesLeft: Math.min(context.state.writesLeft, options.writeBudget) - context.sent.writes,
    bodies: options.bodies === true,
    deadlineAt: options.deadlineAt,
    ...definedFields({ categoryId: context.categoryId, rps: options.rps }),
  };
}

/** One result per interaction sent, from the worker's outcome. */
function emitOutcomes(
  context: PactSuiteContext,
  { source, pact }: LoadedPact,
  interactions: readonly PactInteraction[],
  outcome: PactOutcome,
  started: number,
): void {
  const consumer = pact.consumer.name;
  const unverified = (interaction: PactInteraction, ms: number, reason: string) =>
    emit(context, { ...resultBase(consumer, interaction), outcome: 'error', ms, findings: [], reason });
  if ('error' in outcome) {
    const reason = `could not verify ${source}: ${context.redact(outcome.error)}`;
    for (const interaction of interactions) unverified(interaction, performance.now() - started, reason);
    return;
  }
  interactions.forEach((interaction, n) => {
    const found = outcome.interactions[n];
    // The request as the deployment got it (the real id in its path), else as the pact writes it.
    const request = found?.requests.at(-1) ?? recordedRequest(interaction, context.baseUrl, context.basePath);
    if (!found) unverified(interaction, 0, "the run's deadline passed before this interaction was verified");
    else {
      const { advice, ...judged } = { advice: undefined, ...judge(interaction, found, request, context.redact, faultOf(context.state.contract)) };
      if (advice !== undefined) context.state.advice.add(`${consumer}: ${advice}`);
      // An interaction that reaches an operation the deployment removed at its sunset (removal.ts) meets its 410, not a fault.
      const removed = judged.outcome === 'fail' ? context.state.removals.reasonFor(request.method, request.url) : undefined;
      emit(context, {
        ...resultBase(consumer, interaction),
        ...(removed === undefined ? judged : { outcome: 'skip', ms: judged.ms, findings: [], reason: removed }),
      });
    }
  });
}

/** Verifies one pact's interactions in one worker: the Pact Verifier, the proxy and the state endpoint. */
async function verifyPact(context: PactSuiteContext, index: number, loaded: LoadedPact): Promise<void> {
  const interactions = interactionsToSend(context, loaded.pact);
  if (interactions.length === 0) return;
  const files = await writePactFiles(context, index, loaded.pact, interactions);
  const started = performance.now();
  const outcome = await runWorker(
    workerJob(context, files),
    context.options.worker?.take() ?? forkWorker(context.options.apiKey),
    (method) => countSent(context, method),
    (exchange) => hear(context, exchange),
  );
  emitOutcomes(context, loaded, interactions, outcome, started);
}

/**
 * Replays each pact against the deployment with the Pact Verifier, through the bounded proxy:
 * one result per interaction, each named `pact.<consumer>.<description>`. Under `--read-only`,
 * interactions that would write are reported as skipped and never sent.
 */
export async function verifyPacts(state: RunState, pacts: readonly LoadedPact[], options: PactRunOptions): Promise<PactRun> {
  const basePath = basePathOf(state.contract.doc);
  const categoryId = acceptedCategoryId(state);
  const folder = await mkdtemp(join(tmpdir(), 'petstore-verify-pacts-'));
  const context: PactSuiteContext = {
    state,
    options,
    basePath,
    baseUrl: state.client.baseUrl,
    redact: (value) => state.client.redact(value),
    categoryId,
    folder,
    results: [],
    sent: { requests: 0, writes: 0 },
  };
  try {
    for (const [index, loaded] of pacts.entries()) await verifyPact(context, index, loaded);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return { results: context.results, ...context.sent };
}
