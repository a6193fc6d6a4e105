import { stringField } from '../errors.js';
import { isWrite } from '../http/methods.js';
import { definedFields } from '../json/defined-fields.js';
import { isInt64 } from '../json/int64.js';
import type { JsonValue } from '../json/lossless.js';
import { type Conformance, createConformance } from '../openapi/conformance.js';
import { type OperationKind, operationOfKind } from '../openapi/resource-model.js';
import { excerpt } from '../terminal/excerpt-text.js';
import { DROPPED, TOO_LARGE } from './causes.js';
import { stillCompressed } from './checks/encoding.js';
import { isEmpty, mergeObservations, type Observations } from './checks/observations.js';
import { type Contract, type ContractOperation, filledPath, operationIdOf } from './contract.js';
import {
  type AnsweredRequest,
  type ApiRequest,
  DroppedError,
  type Exchange,
  type HttpClient,
  type RecordedRequest,
  TransportError,
  type UnansweredRequest,
} from './http.js';
import type { Removals } from './removal.js';

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
  /** The start of the response body: `excerpt` in src/terminal/excerpt-text.ts. */
  readonly excerpt?: string;
  /** The requests, in order, that show the fault together (the fuzz suite's shrunk sequence); the last is the one answered wrong. */
  readonly replay?: readonly RecordedRequest[];
  /**
   * The fault, named apart from the check that met it (`status:createPet:200`): findings of several
   * checks with the same fault are one failure, reported once (see causes.ts).
   */
  readonly fault?: string;
}

export interface CheckResult {
  readonly id: string;
  /** `run`: the run-wide model's invariants, judged over every response of every suite. */
  readonly suite: 'spec' | 'pact' | 'fuzz' | 'run';
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
  /** For a failure that follows from another check's: that check's id. Its fault is counted and shown there, once. */
  readonly follows?: string;
  /** For a failure that others follow from: their ids. */
  readonly followers?: readonly string[];
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
  /** This machine's clock, for deprecation warnings; the deployment's decides a removal (`removals`). */
  readonly now: Date;
  /** The operations found removed at their sunset, by the deployment's clock: removal.ts. */
  readonly removals: Removals;
  /** Writes left in this run's budget, retries counted; shared by all checks (the client keeps it). */
  readonly writesLeft: number;
  /** What the run advises where the interface leaves room: each said once, whichever checks met it. */
  readonly advice: Advice;
}

/**
 * Advice: what a deployment does that the spec describes but the interface does not ask for (a
 * `Location`, a `Sunset`, the form of `Deprecation`). Never a failure, and said once per run
 * however many responses showed it; shown only when asked (`--strict`).
 */
export class Advice {
  readonly #byKey = new Map<string, string>();

  /** Records `message` unless something was already said under `key`. */
  add(message: string, key = message): void {
    if (!this.#byKey.has(key)) this.#byKey.set(key, message);
  }

  get messages(): string[] {
    return [...this.#byKey.values()];
  }
}

export interface Check {
  readonly id: string;
  readonly title: string;
  readonly operationId?: string;
  /** A check that writes is skipped under `--read-only`. */
  readonly writes: boolean;
  run(context: CheckContext): Promise<void>;
}

/**
 * A check of the spec's operation of one kind, written once for whichever operation the spec gives that
 * kind: its id and title are made from that operation's id (`getPet.existing` where the read is getPet),
 * and a spec with no operation of its kind has no such check.
 */
export interface KindCheck extends Omit<Check, 'id' | 'title' | 'operationId'> {
  readonly kind: OperationKind;
  /** What follows the operation's id in the check's id: `existing`. */
  readonly name: string;
  title(operationId: string): string;
}

/** The checks of the kinds the contract's spec has, each named after its operation. */
export function ofKinds(contract: Contract, checks: readonly KindCheck[]): Check[] {
  return checks.flatMap(({ kind, name, title, ...check }) => {
    const operationId = operationOfKind(contract.model, kind)?.operationId;
    return operationId === undefined ? [] : [{ ...check, id: `${operationId}.${name}`, title: title(operationId), operationId }];
  });
}

class Skip extends Error {
  override readonly name = 'Skip' as const;
}

/** A request of an operation: its path filled in from `id` and `params`, the rest sent as `ApiRequest` takes it. */
export interface CallOptions extends Pick<ApiRequest, 'query' | 'authorization' | 'body' | 'contentType' | 'headers' | 'what'> {
  /** The record's id, for the item path's parameter (`petId`, from the resource model). */
  readonly id?: string;
  /** Other path parameters by name. */
  readonly params?: Readonly<Record<string, string>>;
  /**
   * The check judges the operation's removal itself: its 410 past the sunset is returned to it. Any other
   * check that meets that 410 is skipped, naming the removal (removal.ts).
   */
  readonly judgesRemoval?: boolean;
}

const BUDGET_SPENT = 'the run has used its budget of writes';

/** The fault of an operation that answered a status where a valid request needs another: shared by every check that met it. */
export function statusFault(operationId: string, status: number): string {
  return `status:${operationId}:${status}`;
}

/** How many of the requests a deployment left unanswered in flight a finding names. */
const NAMED_IN_FLIGHT = 4;

/**
 * A request left unanswered by a deployment that answered before: a breach (a client may send it), one
 * fault whichever requests met it. The finding names the requests it left unanswered in flight, those
 * to replay (a crash came from one of them; every later request only met a stopped deployment), and its
 * request is the first of them.
 */
function droppedFinding(error: DroppedError): Finding {
  const { inFlight, refused, lastAnswered } = error.unanswered();
  // Refused with nothing left in flight: the deployment died after an answer, so the crash came from a request it had answered.
  if (inFlight.length === 0 && refused && lastAnswered.length > 0) return diedAfterAnswer(error, lastAnswered);
  const named: readonly UnansweredRequest[] = inFlight.length > 0 ? inFlight : [{ request: error.request, detail: error.detail }];
  const list = named
    .slice(0, NAMED_IN_FLIGHT)
    .map(({ request, detail, what }) => `${what ? `${what}: ` : ''}${request.method} ${request.url} (${detail})`)
    .join(', ');
  const more = named.length > NAMED_IN_FLIGHT ? ` and ${named.length - NAMED_IN_FLIGHT} more` : '';
  const answeredLast = [...lastAnswered]
    .reverse()
    .map(({ request, what }) => `${what ? `${what}: ` : ''}${request.method} ${request.url}`)
    .join(', ');
  // Whether the crash came from a request in flight or from one answered just before, the client cannot tell: both are named.
  const then = refused ? ', then refused every new connection (it crashed, or was stopped)' : '';
  const before = refused && answeredLast ? ` The last it answered before were ${answeredLast}: a crash after an answer comes from one of them.` : '';
  return {
    message: `the deployment stopped answering after it had answered ${error.answered} requests of this run: it left ${named.length === 1 ? 'a request' : `${named.length} requests`} in flight unanswered, ${list}${more}${then}.${before} A request the spec defines must be answered: a crash or a dropped connection breaks the contract; look in the deployment's logs for what ${named.length === 1 ? 'this request' : 'one of these requests'} raised`,
    request: (named[0] ?? { request: error.request }).request,
    fault: DROPPED,
  };
}

/**
 * A deployment that answered a request, then refused every new connection with none left in flight: it
 * died after that answer (a crash in work done after it, a background task), so the finding names the
 * last requests it answered, the newest first, the variant each was when a check named one, and its
 * request is the newest: the request that met the refusal only came after the crash.
 */
function diedAfterAnswer(error: DroppedError, lastAnswered: readonly AnsweredRequest[]): Finding {
  const newestFirst = [...lastAnswered].reverse();
  const list = newestFirst.map(({ request, what }) => `${what ? `${what}: ` : ''}${request.method} ${request.url}`).join(', then before it ');
  return {
    message: `the deployment stopped answering after it had answered ${error.answered} requests of this run: it answered ${list}, then refused every new connection (${error.detail}) with no request left in flight, so it died after an answer, most likely from work the last of these requests started. A request the spec defines must be answered, and the service must keep answering after it: look in the deployment's logs for what ${newestFirst.length === 1 ? 'this request' : 'these requests'} raised after the answer`,
    request: (newestFirst[0] as AnsweredRequest).request,
    fault: DROPPED,
  };
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
  /** The responses whose status their operation does not document, with that fault. */
  readonly #undocumented = new WeakMap<Exchange, string>();
  /** The operation each response answered, for the fault of a finding about its status. */
  readonly #operations = new WeakMap<Exchange, string>();

  constructor(readonly state: RunState) {}

  get contract(): Contract {
    return this.state.contract;
  }

  /** The name of the record's id field, from the resource model: what `idOf` and `isPet` read. */
  get idField(): string {
    return this.state.contract.model.id.field;
  }

  /** The operationId of the resource model's operation of `kind`: what a check of the list, the create or the read calls. */
  kind(kind: OperationKind): string {
    return operationIdOf(this.state.contract, kind);
  }

  /** Sends a request for `operationId` and records every way its response breaks the spec. */
  async call(operationId: string, options: CallOptions = {}): Promise<Exchange> {
    const operation = this.contract.operation(operationId);
    if (isWrite(operation.method)) this.reserveWrite();
    const { id, params, judgesRemoval, ...request } = options;
    const path = filledPath(operation.path, { [this.contract.model.id.parameter]: id, ...params });
    let exchange: Exchange;
    try {
      exchange = await this.state.client.send({ ...request, method: operation.method, path });
    } catch (error) {
      // No page of at most 100 pets, and no Error, is that large: the response itself breaks the contract.
      if (error instanceof TransportError && error.problem === 'too-large') {
        this.findings.push({
          message: `${operation.operationId} answered with ${error.message.slice(error.message.indexOf(': ') + 2)}`,
          request: error.request,
          fault: TOO_LARGE,
        });
        this.skip('the answer was too large to check further');
      }
      throw error;
    }
    // A retry is said once for the run, in the report's line about retries: not here, once per request.
    this.#operations.set(exchange, operation.operationId);
    this.#inspect(operation, exchange, options.what);
    this.state.removals.heard(operation, exchange.status, exchange.headers.get('date'));
    const removed = exchange.status === 410 ? this.state.removals.reason(operation.operationId) : undefined;
    if (removed !== undefined && !judgesRemoval) this.skip(removed);
    // Every page lists each pet once, whatever check asked for it (a page listed after creates included).
    if (operation.method === 'GET' && exchange.status === 200 && Array.isArray(exchange.json)) {
      const { field } = this.contract.model.id;
      const ids = exchange.json
        .map((pet) => (pet !== null && typeof pet === 'object' && !Array.isArray(pet) && field in pet ? String(pet[field]) : undefined))
        .filter((id) => id !== undefined);
      const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
      if (repeated.length > 0)
        this.fail(`${operation.operationId} lists the ids ${repeated.join(', ')} more than once in one page`, exchange, {
          fault: `unique:${operation.operationId}:page`,
        });
    }
    return exchange;
  }

  /** Before a write: skips the check when the run's budget has none left (the client takes it from the budget as it sends it). */
  reserveWrite(): void {
    if (this.state.readOnly) throw new Error('bug in petstore-verify: a check not marked `writes` sent a write in a read-only run');
    if (this.state.writesLeft <= 0) this.skip(BUDGET_SPENT);
  }

  /** Records what the deployment chose where the interface leaves room. */
  observe(seen: Observations): void {
    this.observations = mergeObservations([this.observations, seen]);
  }

  /**
   * Records a finding. Its fault is `details.fault`, else, when the response came with a status its
   * operation does not document, that status: whatever else the check saw wrong follows from it.
   */
  fail(message: string, exchange?: Exchange, details: Pick<Finding, 'expected' | 'actual' | 'schemaPath' | 'fault'> = {}): void {
    const fault = details.fault ?? (exchange && (this.#undocumented.get(exchange) ?? this.#errorStatusFault(exchange, details.actual)));
    this.findings.push({
      message,
      ...details,
      ...(exchange ? { request: exchange.request, status: exchange.status, excerpt: excerpt(exchange.text) } : {}),
      ...(fault === undefined ? {} : { fault }),
    });
  }

  /** Records that `exchange` came with another status than `expected` (`'200'`, `'400 or 404'`): its `actual` is the status it had. */
  failStatus(message: string, exchange: Exchange, expected: string, fault?: string): void {
    this.fail(message, exchange, { expected, actual: String(exchange.status), ...definedFields({ fault }) });
  }

  /**
   * A finding that an operation answered an error status where the check expected another is the
   * fault of that operation answering that status (getPet answering 410 before its sunset, 404 for
   * a pet that exists), whichever check met it. A success where an error was due stays the check's
   * own: what it served depends on the input.
   */
  #errorStatusFault(exchange: Exchange, actual: string | undefined): string | undefined {
    const operationId = this.#operations.get(exchange);
    if (operationId === undefined || exchange.status < 400 || actual !== String(exchange.status)) return undefined;
    return statusFault(operationId, exchange.status);
  }

  /** A warning shown by default: something the run could not judge that may matter (a server error on a path the spec does not name). */
  warn(message: string): void {
    this.warnings.push(message);
  }

  /** Advice, said once per run under `key`: see `Advice`. */
  advise(message: string, key?: string): void {
    this.state.advice.add(message, key);
  }

  skip(reason: string): never {
    throw new Skip(reason);
  }

  #observeForm(operation: ContractOperation, exchange: Exchange): void {
    const seen = observationsOf(operation, exchange);
    if (!isEmpty(seen)) this.observe(seen);
  }

  #inspect(operation: ContractOperation, exchange: Exchange, what: string | undefined): void {
    const { status } = exchange;
    if (status >= 500)
      this.failStatus(
        `${operation.operationId} answered ${status}${what ? ` to ${what}` : ''}: a server error, never allowed by the contract`,
        exchange,
        'a documented 2xx or 4xx status',
      );
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
    const parsed = exchange.json === undefined ? { error: exchange.jsonError ?? 'not JSON' } : { json: exchange.json };
    const response = { status, body: exchange.text, parsed, header: (name: string) => exchange.headers.get(name) ?? undefined };
    for (const violation of conformanceOf(this.contract)(operation.operationId, response)) {
      const { message, expected, actual, schemaPath, rule, path } = violation;
      // A documented header that is not sent is advice (the interface names no response header), said once per
      // header; one sent with a value its schema refuses is a failure, judged over every response of the run (run.headers).
      if (rule === 'header') {
        if (actual === undefined) this.advise(headerAdvice(operation.operationId, message), `header:${path}`);
        continue;
      }
      const fault = rule === 'status' ? undocumentedStatusFault(operation.operationId, status) : formFault(rule, status, path);
      if (rule === 'status') this.#undocumented.set(exchange, fault);
      this.fail(int64Message(message, exchange, path) ?? message, exchange, { ...definedFields({ expected, actual, schemaPath }), fault });
    }
  }
}

/**
 * The fault of an answer's form (its media type, a field of its body): one serializer or error
 * handler writes every operation's answers, so a field written wrong is one fault wherever it shows,
 * in a page, a created pet or a read one; an error's form likewise, whatever its status (a 401 comes
 * from the auth layer in front of every operation).
 */
export function formFault(rule: string, status: number, path: string): string {
  const field = path.replace(/\/(\d+|\*)(?=\/|$)/g, '');
  return `${rule}:*:${status >= 400 ? 'error' : 'success'}:${field}`;
}

/**
 * An error status the spec documents for no operation's answer here (a framework's 422 for invalid
 * input) comes from one handler in front of every operation: one fault, whichever operation met it.
 * A success status undocumented (createPet answering 200) is the operation's own.
 */
export function undocumentedStatusFault(operationId: string, status: number): string {
  return status >= 400 && status < 500 ? `status:*:${status}` : statusFault(operationId, status);
}

/** A header's advice, from conformance's sentence: what the deployment sent, and that the interface leaves it open. */
function headerAdvice(operationId: string, message: string): string {
  return `${message.replace(/^\S+ answered \d+ /, `${operationId}'s responses come `)} (the interface does not state this header, so this is no failure)`;
}

/** The value at a body path of conformance (`body/categoryId`, `body/0/id`), if the body has one there. */
function valueAt(json: JsonValue | undefined, path: string): JsonValue | undefined {
  let value = json;
  for (const step of path.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Array.isArray(value) ? value[Number(step)] : value[step];
  }
  return value;
}

/**
 * An integer beyond int64 breaks its schema's `format: int64`, but ajv sees it only as a stand-in that
 * is no integer at all (src/json/lossless.ts): say what it is, not "must be integer".
 */
function int64Message(message: string, exchange: Exchange, path: string): string | undefined {
  if (!path.startsWith('body/')) return undefined;
  const value = valueAt(exchange.json, path.slice('body'.length));
  // An integer of more than a thousand digits is read as an infinity (src/json/lossless.ts): its digits are not worth printing.
  const shown =
    typeof value === 'number' && !Number.isFinite(value)
      ? `a number read as ${value < 0 ? 'minus ' : ''}infinity (more than 1000 digits, or an exponent past every double)`
      : value;
  if (!(typeof value === 'bigint' && !isInt64(value)) && shown === value) return undefined;
  return message.replace(/: \/\S* .*$/, `: ${path.slice('body'.length)} is ${shown}, beyond int64 (an int64 is from -2^63 to 2^63-1)`);
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
  if (operation.deprecated && (status === 200 || status === 404)) {
    const deprecation = exchange.headers.get('deprecation');
    const form = deprecation?.trim();
    // Another form (an HTTP-date, as before RFC 9745) is no choice the profile knows: it is left unseen.
    if (form === undefined) seen.deprecation = 'none';
    else if (form === 'true') seen.deprecation = 'legacy';
    else if (form.startsWith('@')) seen.deprecation = 'rfc9745';
  }
  return seen;
}

/** The one conformance rule (src/openapi/conformance.ts) over each contract's document and schemas, made once per contract. */
const conformances = new WeakMap<Contract, Conformance>();

export function conformanceOf(contract: Contract): Conformance {
  const conformance =
    conformances.get(contract) ??
    createConformance(contract.doc, {
      violations: (operationId, status, body) => contract.violations(operationId, status, body),
      headerViolations: (operationId, status, headers) => contract.headerViolations(operationId, status, headers),
    });
  conformances.set(contract, conformance);
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
    if (error instanceof TransportError && error.problem === 'budget') return result(context.findings.length > 0 ? 'fail' : 'skip', BUDGET_SPENT);
    if (error instanceof DroppedError) {
      context.findings.push(droppedFinding(error));
      return result('fail');
    }
    if (error instanceof TransportError) return result(context.findings.length > 0 ? 'fail' : 'error', `could not verify: ${error.message}`);
    return result('error', `bug in petstore-verify, please report it: ${stringField(error, 'stack') ?? error}`);
  }
  return result(context.findings.length > 0 ? 'fail' : 'pass');
}
