/**
 * Runs the Pact Verifier in a child process: the verifier's native core writes its own report
 * straight to file descriptor 1, which must not mix with petstore-verify's output. The parent
 * sends a job over IPC (the key comes in the environment, never in argv) and gets the verifier's
 * JSON report back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadContract } from '../contract.js';
import { HttpClient } from '../http.js';
import { loadPactVerifier, PACT_INSTALL_HINT } from './pact-module.js';
import { stateSetups } from './states.js';

export interface PactJob {
  readonly baseUrl: string;
  /** The spec's base path (`/v1`) that pact paths carry and the base URL already ends in. */
  readonly basePath: string;
  readonly pactFile: string;
  readonly runId: string;
  readonly timeoutMs: number;
  readonly specPath?: string;
}

export type PactOutcome = { readonly report: string } | { readonly error: string };

async function run(job: PactJob): Promise<PactOutcome> {
  const Verifier = await loadPactVerifier();
  if (Verifier === undefined) return { error: PACT_INSTALL_HINT };
  const apiKey = process.env.PETSTORE_API_KEY ?? '';
  const contract = await loadContract(job.specPath);
  const client = new HttpClient({ baseUrl: job.baseUrl, apiKey, timeoutMs: job.timeoutMs, concurrency: 1 });
  const setups = stateSetups(contract, client, job.runId);
  const prefix = new RegExp(`^${job.basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$|\\?)`);
  const verifier = new Verifier({
    providerBaseUrl: job.baseUrl,
    pactUrls: [job.pactFile],
    logLevel: 'error',
    timeout: job.timeoutMs,
    changeOrigin: true,
    validateSSL: true,
    // Pact paths carry /v1; the base URL ends in it already, perhaps after a path of its own.
    requestFilter: (request: IncomingMessage, _response: ServerResponse, next: () => void) => {
      request.url = (request.url ?? '/').replace(prefix, '');
      if (request.headers.authorization !== undefined) request.headers.authorization = `Bearer ${apiKey}`;
      next();
    },
    stateHandlers: Object.fromEntries(Object.entries(setups).map(([name, state]) => [name, () => state.setup()])),
  });
  try {
    return { report: await verifier.verifyProvider() };
  } catch (error) {
    const message = (error as Error).message;
    return message.trimStart().startsWith('{') ? { report: message } : { error: message };
  }
}

process.once('message', (job: PactJob) => {
  void run(job)
    .catch((error: Error) => ({ error: error.message }))
    .then((outcome) => process.send?.(outcome, () => process.exit(0)));
});
