/**
 * Runs the Pact Verifier in a child process: the verifier's native core writes its own report
 * straight to file descriptor 1, which must not mix with petstore-verify's output. The parent
 * sends a job over IPC (the key comes in the environment, never in argv) and gets the verifier's
 * JSON report of each interaction back, with what the bounded proxy stopped and counted.
 */

import { DeadlineError, messageOf } from '../../errors.js';
import { shortened } from '../../terminal/excerpt-text.js';
import { HttpClient, type ObservedExchange, type RecordedRequest } from '../http.js';
import { Pacer } from '../pace.js';
import { loadPactCore, PACT_INSTALL_HINT, type PactCore } from './pact-module.js';
import { type ProxyProblem, startBoundedProxy } from './proxy.js';
import { startStateChangeServer } from './state-change.js';
import { type StateSpec, stateSetups } from './states.js';

export interface PactJob {
  readonly baseUrl: string;
  /** The spec's base path (`/v1`) that pact paths start with and the base URL already ends in. */
  readonly basePath: string;
  /** One pact file per interaction, in order: what the proxy saw is then known per interaction. */
  readonly interactions: readonly { readonly description: string; readonly pactFile: string }[];
  readonly runId: string;
  /** What the provider states need of the spec: the worker does not load the spec itself. */
  readonly states: StateSpec;
  /** A category the deployment accepted (learned by the spec suite, or given with --category-id). */
  readonly categoryId?: string;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly rps?: number;
  /** Writes the run's budget still allows this worker: past them the proxy sends none. */
  readonly writesLeft: number;
  /** Whether the parent reads the answers' bodies (the HAR file, the run-wide model): otherwise they are not sent over IPC. */
  readonly bodies: boolean;
  /** When the run's deadline falls, as `Date.now()` counts. */
  readonly deadlineAt: number;
}

export interface InteractionOutcome {
  readonly description: string;
  /** The Pact Verifier's JSON report, or why there is none. */
  readonly report?: string;
  readonly error?: string;
  /** The interaction's requests as the deployment got them (real ids, the key as a placeholder). */
  readonly requests: readonly RecordedRequest[];
  /** What the proxy capped, stopped (a redirect) or could not get while this interaction ran. */
  readonly problems: readonly ProxyProblem[];
  /** Provider states that could not be set up for it. */
  readonly stateFailures: readonly string[];
  /** Provider states the deployment legitimately could not serve: the interaction is not verifiable. */
  readonly stateUnavailable: readonly string[];
}

export type PactOutcome = { readonly interactions: readonly InteractionOutcome[] } | { readonly error: string };

/**
 * What the worker tells its parent: each request as it is sent (so the report counts it even if
 * the worker is stopped at the deadline), then the outcome.
 */
export type WorkerMessage = { readonly sent: string } | { readonly exchange: ObservedExchange } | { readonly outcome: PactOutcome };

function tell(message: WorkerMessage, then: () => void = () => {}): void {
  process.send?.(message, then);
}

// The Verifier's own timeout is a little longer than the proxy's, so that the proxy's clearer response comes first.
const VERIFIER_GRACE_MS = 2_000;

/**
 * The Verifier's JSON report with every long string in it an excerpt: it quotes the deployment's
 * answer in each mismatch (a body of megabytes, several times over), which the parent would otherwise
 * receive over IPC and parse whole, only to show an excerpt of it.
 */
function shortReport(report: string): string {
  try {
    return JSON.stringify(JSON.parse(report, (_key, value: unknown) => (typeof value === 'string' ? shortened(value) : value)));
  } catch {
    return report;
  }
}

async function verifyOne(
  core: PactCore,
  job: PactJob,
  pactFile: string,
  providerBaseUrl: string,
  providerStatesSetupUrl: string,
): Promise<{ report: string } | { error: string }> {
  try {
    const report = await core.verifyPacts({
      providerBaseUrl,
      providerStatesSetupUrl,
      pactUrls: [pactFile],
      logLevel: 'error',
      timeout: job.timeoutMs + VERIFIER_GRACE_MS,
    });
    return { report: shortReport(report) };
  } catch (error) {
    // Pact rejects with an Error whose message is the JSON report. Its native core may also reject with a bare
    // string, or with nothing to say: the interaction could not run, and the report says what there is of why.
    const message = typeof error === 'string' ? error : messageOf(error);
    if (message.trimStart().startsWith('{')) return { report: shortReport(message) };
    return { error: message.trim() === '' ? 'the Pact verifier stopped without a report or a reason' : `the Pact verifier stopped: ${message}` };
  }
}

// Loaded as the worker starts, before its job comes: a worker forked when the run starts has it ready by the Pact suite.
const core = loadPactCore();

async function run(job: PactJob): Promise<PactOutcome> {
  if (core === undefined) return { error: PACT_INSTALL_HINT };
  const apiKey = process.env.PETSTORE_API_KEY ?? '';
  const deadline = AbortSignal.timeout(Math.max(0, job.deadlineAt - Date.now()));
  const pacer = new Pacer({ concurrency: job.concurrency, rps: job.rps, deadline });
  // The proxy and the state endpoint each need the other: this is filled in once both exist.
  let settingUp = () => false;
  const proxy = await startBoundedProxy({
    target: job.baseUrl,
    basePath: job.basePath,
    apiKey,
    timeoutMs: job.timeoutMs,
    pacer,
    deadline,
    writesLeft: job.writesLeft,
    onSend: (method) => tell({ sent: method }),
    // A body of megabytes sent over IPC costs both processes time and memory: only a HAR file needs it.
    onExchange: (exchange) => tell({ exchange: job.bodies ? exchange : { ...exchange, text: '' } }),
    settingUp: () => settingUp(),
  });
  // The states set themselves up through the proxy too: their requests are bounded and counted alike.
  const client = new HttpClient({ baseUrl: proxy.url, apiKey, timeoutMs: job.timeoutMs, concurrency: 1, retries: 0 });
  const states = await startStateChangeServer(stateSetups(job.states, client, job.runId, job.categoryId));
  settingUp = states.settingUp;
  const interactions: InteractionOutcome[] = [];
  try {
    for (const { description, pactFile } of job.interactions) {
      const before = {
        problems: proxy.problems.length,
        failures: states.failures.length,
        unavailable: states.unavailable.length,
        requests: proxy.forwarded.length,
      };
      const verdict = deadline.aborted ? { error: new DeadlineError().message } : await verifyOne(core, job, pactFile, proxy.url, states.url);
      interactions.push({
        description,
        ...verdict,
        requests: proxy.forwarded.slice(before.requests),
        problems: proxy.problems.slice(before.problems),
        stateFailures: states.failures.slice(before.failures),
        stateUnavailable: states.unavailable.slice(before.unavailable),
      });
    }
  } finally {
    await Promise.all([proxy.close(), states.close()]);
  }
  return { interactions };
}

process.once('message', (job: PactJob) => {
  void run(job)
    .catch((error: Error): PactOutcome => ({ error: error.message }))
    .then((outcome) => tell({ outcome }, () => process.exit(0)));
});

// petstore-verify is gone (killed, or its run stopped): nobody would read the outcome. Killed at once,
// as process.exit() would wait on the native verifier's runtime, which waits on its request in flight.
process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
