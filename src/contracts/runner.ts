import { randomBytes } from 'node:crypto';
import type { JsonValue } from '../json/lossless.js';
import { basePathOf } from '../openapi/document.js';
import { type Check, type CheckResult, type Outcome, type RunState, runCheck } from './check.js';
import { authChecks } from './checks/auth.js';
import { createChecks } from './checks/create.js';
import { getChecks } from './checks/get.js';
import { listChecks } from './checks/list.js';
import { type Contract, loadContract } from './contract.js';
import { type Exchange, HttpClient, RETRYABLE_STATUSES, TransportError } from './http.js';
import { type LoadedPact, loadPacts, pactProblem } from './pact/pacts.js';
import { verifyPacts } from './pact/suite.js';

export type Suite = 'spec' | 'pact' | 'all';

/** The most POSTs the spec suite sends: 20 to fill an empty listing to the default page, the rest for its checks (most refused by design). */
export const MAX_WRITES = 80;

export interface VerifyOptions {
  /** The deployment's base URL, with its version prefix: `https://staging.example.com/v1`. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly suite?: Suite;
  /** No POST at all: the checks that need one are skipped. */
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
  /** Called as each check finishes, for live output. */
  readonly onResult?: (result: CheckResult) => void;
}

export interface Counts {
  readonly passed: number;
  readonly failed: number;
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
  /** How many of them were POSTs. */
  readonly posts: number;
  /** Of the spec suite's budget of writes (`MAX_WRITES`), how much was spent. */
  readonly writes: number;
  /** Reads retried after a gateway error or a dropped connection: `GET <url> after 503`. */
  readonly retried: readonly string[];
  readonly results: readonly CheckResult[];
  readonly counts: Counts;
  /** Why the run could not verify at all (unreachable, key refused); then `results` is empty. */
  readonly fatal?: string;
  /** 0: every check passed; 1: the deployment breaks the contract; 2: it could not be verified. */
  readonly exitCode: 0 | 1 | 2;
}

/** The checks of the spec suite, for this contract. */
export function specChecks(contract: Contract): Check[] {
  const operations = ['listPets', 'createPet', 'getPet'].map((id) => contract.operation(id));
  return [...authChecks(operations), ...listChecks, ...createChecks, ...getChecks];
}

function count(results: readonly CheckResult[], outcome: Outcome): number {
  return results.filter((result) => result.outcome === outcome).length;
}

function exitCodeOf(results: readonly CheckResult[]): 0 | 1 | 2 {
  if (count(results, 'fail') > 0) return 1;
  return count(results, 'error') > 0 ? 2 : 0;
}

/**
 * What is wrong with a base URL's path, if the deployment does not answer there: it goes past the
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

/** True for an answer that is a web page: what a single-page app or a web server's index gives for any path. */
function isWebPage(exchange: Exchange): boolean {
  const type = exchange.headers.get('content-type') ?? '';
  return exchange.json === undefined && (/^text\/html\b/i.test(type) || /^\s*</.test(exchange.text));
}

/** Reads the listing once before any check: it proves the deployment answers and takes the key. */
async function preflight(
  contract: Contract,
  client: HttpClient,
  lacking: string | undefined,
): Promise<{ listing: Record<string, JsonValue>[] } | { fatal: string }> {
  const { path } = contract.operation('listPets');
  const limit = contract.integerParameter('listPets', 'limit').maximum;
  try {
    const exchange = await client.send({ method: 'GET', path, query: `limit=${limit}` });
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

/**
 * Verifies a live deployment against the spec. Never throws for what the deployment does: every
 * finding, and a deployment that cannot be reached, is in the report.
 * @example
 * const report = await verify({ baseUrl: 'https://staging.example.com/v1', apiKey: process.env.PETSTORE_API_KEY! });
 * process.exitCode = report.exitCode;
 */
export async function verify(options: VerifyOptions): Promise<VerificationReport> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const suite = options.suite ?? 'all';
  const readOnly = options.readOnly ?? false;
  const contract = await loadContract();
  const deadlineMs = options.deadlineMs ?? 120_000;
  const deadlineAt = Date.now() + deadlineMs;
  const deadline = AbortSignal.timeout(deadlineMs);
  const client = new HttpClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? 10_000,
    concurrency: options.concurrency ?? 4,
    deadline,
    ...(options.rps === undefined ? {} : { rps: options.rps }),
  });
  const runId = randomBytes(4).toString('hex');
  const pactTotals = { requests: 0, posts: 0 };
  const report = (results: CheckResult[], state: { writesLeft: number } | undefined, fatal?: string): VerificationReport => ({
    baseUrl: options.baseUrl,
    suite,
    runId,
    readOnly,
    startedAt,
    ms: performance.now() - started,
    requests: client.sent + pactTotals.requests,
    posts: client.posts + pactTotals.posts,
    writes: state ? MAX_WRITES - state.writesLeft : 0,
    retried: client.retried,
    results,
    counts: {
      passed: count(results, 'pass'),
      failed: count(results, 'fail'),
      skipped: count(results, 'skip'),
      errors: count(results, 'error'),
      warnings: results.reduce((n, r) => n + r.warnings.length, 0),
    },
    ...(fatal === undefined ? { exitCode: exitCodeOf(results) } : { fatal, exitCode: 2 as const }),
  });

  // Misconfiguration is found before the first request: exit 2 with what to fix, not a run of failures.
  const prefix = prefixProblems(options.baseUrl, basePathOf(contract.doc));
  if (prefix.past) return report([], undefined, prefix.past);
  let pacts: LoadedPact[] = [];
  if (suite !== 'spec') {
    try {
      pacts = await loadPacts(options.pacts);
    } catch (error) {
      return report([], undefined, (error as Error).message);
    }
    const problem = pacts.map(pactProblem).find((found) => found !== undefined);
    if (problem) return report([], undefined, problem);
  }
  const seen = await preflight(contract, client, prefix.lacking);
  if ('fatal' in seen) return report([], undefined, seen.fatal);
  const state: RunState = {
    contract,
    client,
    runId,
    readOnly,
    listing: seen.listing,
    now: options.now ?? new Date(),
    writesLeft: MAX_WRITES,
    ...(options.categoryId === undefined ? {} : { categoryId: options.categoryId }),
  };
  const checks = suite === 'pact' ? [] : specChecks(contract);
  const results = await Promise.all(
    checks.map(async (check) => {
      const result = await runCheck(check, state, 'spec');
      options.onResult?.(result);
      return result;
    }),
  );
  if (suite !== 'spec') {
    const pactRun = await verifyPacts(state, pacts, {
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 10_000,
      concurrency: options.concurrency ?? 4,
      rps: options.rps,
      deadlineAt,
      onResult: options.onResult,
    });
    results.push(...pactRun.results);
    pactTotals.requests = pactRun.requests;
    pactTotals.posts = pactRun.posts;
  }
  return report(results, state);
}
