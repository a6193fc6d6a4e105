/**
 * Runs the Pact Verifier in a child process: the verifier's native core writes its own report
 * straight to file descriptor 1, which must not mix with petstore-verify's output. The parent
 * sends a job over IPC (the key comes in the environment, never in argv) and gets the verifier's
 * JSON report of each interaction back, with what the bounded proxy stopped and counted.
 */

import { DeadlineError, messageOf } from '../../errors.js';
import { loadContract } from '../contract.js';
import { HttpClient, type ObservedExchange, type RecordedRequest } from '../http.js';
import { Pacer } from '../pace.js';
import { loadPactVerifier, PACT_INSTALL_HINT } from './pact-module.js';
import { type ProxyProblem, startBoundedProxy } from './proxy.js';
import { startStateChangeServer } from './state-change.js';
import { stateSetups } from './states.js';

export interface PactJob {
  readonly baseUrl: string;
  /** The spec's base path (`/v1`) that pact paths start with and the base URL already ends in. */
  readonly basePath: string;
  /** One pact file per interaction, in order: what the proxy saw is then known per interaction. */
  readonly interactions: readonly { readonly description: string; readonly pactFile: string }[];
  readonly runId: string;
  /** A category the deployment accepted (learned by the spec suite, or given with --category-id). */
  readonly categoryId?: string;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly rps?: number;
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

type PactVerifier = NonNullable<Awaited<ReturnType<typeof loadPactVerifier>>>;

async function verifyOne(
  Verifier: PactVerifier,
  job: PactJob,
  pactFile: string,
  providerBaseUrl: string,
  providerStatesSetupUrl: string,
): Promise<{ report: string } | { error: string }> {
  const verifier = new Verifier({
    providerBaseUrl,
    providerStatesSetupUrl,
    pactUrls: [pactFile],
    logLevel: 'error',
    timeout: job.timeoutMs + VERIFIER_GRACE_MS,
  });
  try {
    return { report: await verifier.verifyProvider() };
  } catch (error) {
    // Pact rejects with an Error whose message is the JSON report. Its native core may also reject with a bare
    // string, or with nothing to say: the interaction could not run, and the report says what there is of why.
    const message = typeof error === 'string' ? error : messageOf(error);
    if (message.trimStart().startsWith('{')) return { report: message };
    return { error: message.trim() === '' ? 'the Pact verifier stopped without a report or a reason' : `the Pact verifier stopped: ${message}` };
  }
}

async function run(job: PactJob): Promise<PactOutcome> {
  const Verifier = await loadPactVerifier();
  if (Verifier === undefined) return { error: PACT_INSTALL_HINT };
  const apiKey = process.env.PETSTORE_API_KEY ?? '';
  const deadline = AbortSignal.timeout(Math.max(0, job.deadlineAt - Date.now()));
  const contract = await loadContract();
  const pacer = new Pacer({ concurrency: job.concurrency, rps: job.rps, deadline });
  // The proxy and the state endpoint each need the other; these are filled in once both exist.
  let exactValues: () => Iterable<bigint> = () => [];
  let settingUp = () => false;
  const proxy = await startBoundedProxy({
    target: job.baseUrl,
    basePath: job.basePath,
    apiKey,
    timeoutMs: job.timeoutMs,
    pacer,
    deadline,
    exactValues: () => exactValues(),
    onSend: (method) => tell({ sent: method }),
    onExchange: (exchange) => tell({ exchange }),
    settingUp: () => settingUp(),
  });
  // The states set themselves up through the proxy too: their requests are bounded and counted alike.
  const client = new HttpClient({ baseUrl: proxy.url, apiKey, timeoutMs: job.timeoutMs, concurrency: 1, retries: 0 });
  const states = await startStateChangeServer(stateSetups(contract, client, job.runId, job.categoryId));
  exactValues = states.exactValues;
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
      const verdict = deadline.aborted ? { error: new DeadlineError().message } : await verifyOne(Verifier, job, pactFile, proxy.url, states.url);
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
