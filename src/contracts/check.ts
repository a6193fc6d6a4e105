import { stringField } from '../errors.js';
import type { JsonValue } from '../json/lossless.js';
import { type Conformance, createConformance } from '../openapi/conformance.js';
import { stillCompressed } from './checks/encoding.js';
import { isEmpty, mergeObservations, type Observations } from './checks/observations.js';
import type { Contract, ContractOperation } from './contract.js';
import { type DerivedCredential, type Exchange, type HttpClient, type RecordedRequest, TransportError } from './http.js';

export type Outcome = 'pass' | 'fail' | 'skip' | 'error';

/** One thing the deployment did wrong, with the evidence. */
export interface Finding {
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /** The rule of the spec's schema that failed: `#/items/allOf/1/required`. */
  readonly schemaPath?: string;
  readonly request?: RecordedRequest;
  readonly status?: number;
  /** The start of the response body. */
  readonly excerpt?: string;
  /** The requests, in order, that show the fault together (the fuzz suite's shrunk sequence); the last is the one answered wrong. */
  readonly replay?: readonly RecordedRequest[];
}

export interface CheckResult {
  readonly id: string;
  readonly suite: 'spec' | 'pact' | 'fuzz';
  readonly title: string;
  readonly operationId: string | undefined;
  readonly outcome: Outcome;
  readonly ms: number;
  readonly findings: readonly Finding[];
  readonly warnings: readonly string[];
  /** Why the check was skipped, or why it could not verify (`error`). */
  readonly reason?: string;
  /** What the check saw the deployment choose where the interface leaves room. */
  readonly observations?: Observations;
}

/** What the checks share: the deployment as first seen, and the run's settings. */
export interface RunState {
  readonly contract: Contract;
  readonly client: HttpClient;
  /** Names of created pets start with `petstore-verify <runId>`. */
  readonly runId: string;
  readonly readOnly: boolean;
  /** A category the deployment accepts, given with --category-id: tried before any guess. */
  readonly categoryId?: string;
  /** The first page of the listing at the start (`limit` at its maximum). */
  readonly listing: readonly Record<string, JsonValue>[];
  /** The clock, for deprecation warnings. */
  readonly now: Date;
  /** Writes left in this run's budget; shared by all checks. */
  writesLeft: number;
}

export interface Check {
  readonly id: string;
  readonly title: string;
  readonly operationId?: string;
  /** A check that writes is skipped under `--read-only`. */
  readonly writes: boolean;
  run(context: CheckContext): Promise<void>;
}

class Skip extends Error {
  override readonly name = 'Skip' as const;
}

export interface CallOptions {
  /** Path parameters by name. */
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: string;
  readonly authorization?: string | null | DerivedCredential;
  readonly body?: string;
  readonly contentType?: string;
}

const EXCERPT = 300;

/** The start of a body, for a report. */
function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

/**
 * What a check works with: `call` sends a request for an operation and holds the response to the
 * rules every response has (a documented status, JSON, valid by the schema of that status, an
 * Error whose `status` is the HTTP status, never 5xx); `fail`, `warn` and `skip` record the rest.
 */
export class CheckContext {
  readonly findings: Finding[] = [];
  readonly warnings: string[] = [];
  observations: Observations = {};

  constructor(readonly state: RunState) {}

  get contract(): Contract {
    return this.state.contract;
  }

  /** Sends a request for `operationId` and records every way its response breaks the spec. */
  async call(operationId: string, options: CallOptions = {}): Promise<Exchange> {
    const operation = this.contract.operation(operationId);
    if (operation.method === 'POST') this.reserveWrite();
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''));
    let exchange: Exchange;
    try {
      exchange = await this.state.client.send({
        method: operation.method,
        path,
        ...(options.query === undefined ? {} : { query: options.query }),
        ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
      });
    } catch (error) {
      // No page of at most 100 pets, and no Error, is that large: the response itself breaks the contract.
      if (error instanceof TransportError && error.problem === 'too-large') {
        this.findings.push({
          message: `${operation.operationId} answered with ${error.message.slice(error.message.indexOf(': ') + 2)}`,
          request: error.request,
        });
        this.skip('the answer was too large to check further');
      }
      throw error;
    }
    if (exchange.attempts > 1)
      this.warn(
        `${exchange.request.method} ${exchange.request.url} was retried ${exchange.attempts - 1} time(s) after gateway errors, a dropped connection or 429 Too Many Requests`,
      );
    this.#inspect(operation, exchange);
    // Every page lists each pet once, whatever check asked for it (a page listed after creates included).
    if (operation.method === 'GET' && exchange.status === 200 && Array.isArray(exchange.json)) {
      const ids = exchange.json
        .map((pet) => (pet !== null && typeof pet === 'object' && !Array.isArray(pet) && 'id' in pet ? String(pet.id) : undefined))
        .filter((id) => id !== undefined);
      const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
      if (repeated.length > 0) this.fail(`${operation.operationId} lists the ids ${repeated.join(', ')} more than once in one page`, exchange);
    }
    return exchange;
  }

  /** Takes one POST from the run's budget; skips the check when none is left. */
  reserveWrite(): void {
    if (this.state.readOnly) throw new Error('bug in petstore-verify: a check not marked `writes` sent POST in a read-only run');
    if (this.state.writesLeft <= 0) this.skip('the run has used its budget of writes');
    this.state.writesLeft--;
  }

  /** Records what the deployment chose where the interface leaves room. */
  observe(seen: Observations): void {
    this.observations = mergeObservations([this.observations, seen]);
  }

  fail(message: string, exchange?: Exchange, details: Pick<Finding, 'expected' | 'actual' | 'schemaPath'> = {}): void {
    this.findings.push({
      message,
      ...details,
      ...(exchange ? { request: exchange.request, status: exchange.status, excerpt: excerpt(exchange.text) } : {}),
    });
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  skip(reason: string): never {
    throw new Skip(reason);
  }

  #observeForm(operation: ContractOperation, exchange: Exchange): void {
    const seen = observationsOf(operation, exchange);
    if (!isEmpty(seen)) this.observe(seen);
  }

  #inspect(operation: ContractOperation, exchange: Exchange): void {
    const { status } = exchange;
    if (status >= 500)
      this.fail(`${operation.operationId} answered ${status}: a server error, never allowed by the contract`, exchange, {
        expected: 'a documented 2xx or 4xx status',
        actual: String(status),
      });
    if (exchange.json === undefined && stillCompressed(exchange.text)) {
      const encoding = exchange.headers.get('content-encoding');
      this.fail(
        `${operation.operationId} answered ${status} with a gzip-compressed body that ${encoding ? `is still compressed after Content-Encoding: ${encoding} was undone` : 'has no Content-Encoding'}`,
        exchange,
        {
          expected: 'a JSON body, compressed only with a Content-Encoding that says so',
          actual: encoding ? `Content-Encoding: ${encoding}, compressed twice` : 'no Content-Encoding',
        },
      );
      return;
    }
    this.#observeForm(operation, exchange);
    const response = { status, body: exchange.text, header: (name: string) => exchange.headers.get(name) ?? undefined };
    for (const { message, expected, actual, schemaPath } of conformanceOf(this.contract)(operation.operationId, response)) {
      this.fail(message, exchange, {
        ...(expected === undefined ? {} : { expected }),
        ...(actual === undefined ? {} : { actual }),
        ...(schemaPath === undefined ? {} : { schemaPath }),
      });
    }
  }
}

/** The form of the deployment's responses, where the interface leaves it open: error codes, charset, the Deprecation header. */
function observationsOf(operation: ContractOperation, exchange: Exchange): Observations {
  const { status, json } = exchange;
  const seen: { -readonly [K in keyof Observations]: Observations[K] } = {};
  if (status >= 400 && typeof json === 'object' && json !== null && !Array.isArray(json) && typeof json.code === 'string') {
    seen.errorCodes = [json.code];
    seen.errorCodesByStatus = { [status]: [json.code] };
  }
  const contentType = exchange.headers.get('content-type');
  if (json !== undefined && contentType !== null) seen.charset = /;\s*charset=/i.test(contentType) ? 'utf-8' : 'none';
  if (operation.operationId === 'getPet' && (status === 200 || status === 404)) {
    const deprecation = exchange.headers.get('deprecation');
    seen.deprecation = deprecation === null ? 'none' : deprecation.trim() === 'true' ? 'legacy' : 'rfc9745';
  }
  return seen;
}

/** The one conformance rule (src/openapi/conformance.ts) over each contract's document and schemas, made once per contract. */
const conformances = new WeakMap<Contract, Conformance>();

function conformanceOf(contract: Contract): Conformance {
  let conformance = conformances.get(contract);
  if (conformance === undefined) {
    conformance = createConformance(contract.doc, {
      violations: (operationId, status, body) => contract.violations(operationId, status, body),
      headerViolations: (operationId, status, headers) => contract.headerViolations(operationId, status, headers),
    });
    conformances.set(contract, conformance);
  }
  return conformance;
}

/** Runs one check and turns what happened into a result. */
export async function runCheck(check: Check, state: RunState, suite: CheckResult['suite']): Promise<CheckResult> {
  const started = performance.now();
  const context = new CheckContext(state);
  const base = { id: check.id, suite, title: check.title, operationId: check.operationId };
  const result = (outcome: Outcome, reason?: string): CheckResult => ({
    ...base,
    outcome,
    ms: performance.now() - started,
    findings: context.findings,
    warnings: context.warnings,
    ...(reason === undefined ? {} : { reason }),
    ...(isEmpty(context.observations) ? {} : { observations: context.observations }),
  });
  if (check.writes && state.readOnly) return result('skip', '--read-only: this check needs to create pets');
  try {
    await check.run(context);
  } catch (error) {
    if (error instanceof Skip) return result(context.findings.length > 0 ? 'fail' : 'skip', error.message);
    if (error instanceof TransportError) return result(context.findings.length > 0 ? 'fail' : 'error', `could not verify: ${error.message}`);
    return result('error', `bug in petstore-verify, please report it: ${stringField(error, 'stack') ?? error}`);
  }
  return result(context.findings.length > 0 ? 'fail' : 'pass');
}
