import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { basePathOf } from '../../spec/document.js';
import type { CheckResult, Finding, RunState } from '../check.js';
import { KEY_PLACEHOLDER, type RecordedRequest } from '../http.js';
import { type LoadedPact, type PactInteraction, statesOf } from './pacts.js';
import { stateSetups } from './states.js';
import type { PactJob, PactOutcome } from './worker.js';

/** One interaction's verdict in the verifier's JSON report. */
interface InteractionReport {
  readonly description: string;
  readonly duration?: string;
  readonly result?: string;
}

interface MismatchReport {
  readonly type?: string;
  readonly mismatch?: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly path?: string;
  readonly key?: string;
}

interface VerifierReport {
  readonly interactionResults?: readonly InteractionReport[];
  readonly errors?: readonly {
    readonly interaction: string;
    readonly mismatch?: { readonly type?: string; readonly message?: string; readonly mismatches?: readonly MismatchReport[] };
  }[];
}

// From sources the worker is TypeScript and needs tsx to run; from dist it is plain JavaScript.
const fromSources = import.meta.url.endsWith('.ts');
const WORKER = fileURLToPath(new URL(fromSources ? './worker.ts' : './worker.js', import.meta.url));

function runWorker(job: PactJob, apiKey: string, deadline: AbortSignal): Promise<PactOutcome> {
  return new Promise((resolve) => {
    if (deadline.aborted) {
      resolve({ error: "the run's deadline passed before the pact could be verified" });
      return;
    }
    const child = fork(WORKER, [], {
      execArgv: fromSources ? ['--import', 'tsx'] : [],
      env: { ...process.env, PETSTORE_API_KEY: apiKey, PACT_DO_NOT_TRACK: 'true' },
      // The native verifier prints its own report on stdout; ours is made from its JSON instead.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    let outcome: PactOutcome | undefined;
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('message', (message: PactOutcome) => (outcome = message));
    const stop = () => {
      outcome ??= { error: "the run's deadline passed while the pact was being verified" };
      child.kill();
    };
    deadline.addEventListener('abort', stop, { once: true });
    child.on('exit', (code) => {
      deadline.removeEventListener('abort', stop);
      resolve(outcome ?? { error: `the Pact verifier exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}` });
    });
    child.send(job);
  });
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
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
  const content = (request.body as { content?: unknown } | undefined)?.content ?? request.body;
  return {
    method: request.method.toUpperCase(),
    url: `${baseUrl}${path}${query ? `?${query}` : ''}`,
    headers,
    ...(content === undefined ? {} : { body: text(content) }),
  };
}

function findingsOf(error: NonNullable<VerifierReport['errors']>[number], request: RecordedRequest): Finding[] {
  const mismatches = error.mismatch?.mismatches ?? [];
  if (mismatches.length === 0) return [{ message: error.mismatch?.message ?? `the interaction failed (${error.mismatch?.type ?? 'unknown'})`, request }];
  return mismatches.map((mismatch) => ({
    message: `${mismatch.type ?? 'Mismatch'}${mismatch.path ? ` at ${mismatch.path}` : mismatch.key ? ` of ${mismatch.key}` : ''}: ${mismatch.mismatch ?? 'differs'}`,
    ...(mismatch.expected === undefined ? {} : { expected: text(mismatch.expected) }),
    ...(mismatch.actual === undefined ? {} : { actual: text(mismatch.actual) }),
    request,
  }));
}

function skipReason(interaction: PactInteraction, state: RunState, setups: ReturnType<typeof stateSetups>): string | undefined {
  if (!state.readOnly) return undefined;
  if (interaction.request.method.toUpperCase() === 'POST') return '--read-only: the interaction sends a POST';
  const writing = statesOf(interaction).find((name) => setups[name]?.mayWrite);
  return writing ? `--read-only: the state "${writing}" may need a pet created` : undefined;
}

export interface PactRunOptions {
  readonly apiKey: string;
  readonly timeoutMs: number;
  /** The run's global deadline: a verifier still running then is stopped. */
  readonly deadline: AbortSignal;
  readonly onResult?: ((result: CheckResult) => void) | undefined;
}

/**
 * Replays each pact against the deployment with the Pact Verifier: one result per interaction,
 * each named `pact.<consumer>.<description>`. Under `--read-only`, interactions that would write
 * are reported as skipped and never sent.
 */
export async function verifyPacts(state: RunState, pacts: readonly LoadedPact[], options: PactRunOptions): Promise<CheckResult[]> {
  const { apiKey, timeoutMs, deadline, onResult } = options;
  const basePath = basePathOf(state.contract.doc);
  const baseUrl = state.client.redact(state.client.baseUrl);
  const setups = stateSetups(state.contract, state.client, state.runId);
  const folder = await mkdtemp(join(tmpdir(), 'petstore-verify-pacts-'));
  const results: CheckResult[] = [];
  const emit = (result: CheckResult) => {
    results.push(result);
    onResult?.(result);
  };
  try {
    for (const [index, { source, pact }] of pacts.entries()) {
      const consumer = pact.consumer.name;
      const base = (interaction: PactInteraction) => ({
        id: `pact.${consumer}.${interaction.description.replace(/\s+/g, '-')}`,
        suite: 'pact' as const,
        title: `${consumer}: ${interaction.description}${statesOf(interaction).length > 0 ? ` (given ${statesOf(interaction).join(', ')})` : ''}`,
        operationId: undefined,
        warnings: [],
      });
      const kept = pact.interactions.filter((interaction) => {
        const reason = skipReason(interaction, state, setups);
        if (reason) emit({ ...base(interaction), outcome: 'skip', ms: 0, findings: [], reason });
        return !reason;
      });
      if (kept.length === 0) continue;
      const pactFile = join(folder, `${index}.json`);
      await writeFile(pactFile, JSON.stringify({ ...pact, interactions: kept }));
      const started = performance.now();
      const outcome = await runWorker({ baseUrl: state.client.baseUrl, basePath, pactFile, runId: state.runId, timeoutMs }, apiKey, deadline);
      if ('error' in outcome) {
        for (const interaction of kept)
          emit({
            ...base(interaction),
            outcome: 'error',
            ms: performance.now() - started,
            findings: [],
            reason: `could not verify ${source}: ${state.client.redact(outcome.error)}`,
          });
        continue;
      }
      const report = JSON.parse(state.client.redact(outcome.report)) as VerifierReport;
      for (const interaction of kept) {
        const verdict = report.interactionResults?.find((candidate) => candidate.description === interaction.description);
        // The report names an error's interaction "Verifying a pact between ... - <description>".
        const errors = (report.errors ?? []).filter(
          (error) => error.interaction === interaction.description || error.interaction.endsWith(` - ${interaction.description}`),
        );
        const request = recordedRequest(interaction, baseUrl, basePath);
        const findings = errors.flatMap((error) => findingsOf(error, request));
        const ms = Number.parseFloat(verdict?.duration ?? '0') * (verdict?.duration?.endsWith('ms') ? 1 : 1000);
        if (!verdict) emit({ ...base(interaction), outcome: 'error', ms, findings, reason: 'the Pact verifier did not report this interaction' });
        else if (verdict.result === 'OK' && findings.length === 0) emit({ ...base(interaction), outcome: 'pass', ms, findings });
        else if (interaction.pending) {
          const what = findings.map((finding) => finding.message).join('; ') || verdict.result;
          emit({ ...base(interaction), outcome: 'pass', ms, findings: [], warnings: [`pending interaction not met (does not fail the run): ${what}`] });
        } else
          emit({
            ...base(interaction),
            outcome: 'fail',
            ms,
            findings: findings.length > 0 ? findings : [{ message: `the Pact verifier reports ${verdict.result}`, request }],
          });
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return results;
}
