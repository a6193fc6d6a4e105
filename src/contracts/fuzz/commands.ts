/**
 * The calls a generated sequence is made of, as fast-check commands: each sends one request through
 * the run's `CheckContext` (so through its HttpClient, paced by --rps, --concurrency and --deadline,
 * and held to the conformance rule every response of the verifier is held to), then asks the model
 * whether the response is one the deployment may give, and updates the model.
 */
import fc, { type AsyncCommand } from 'fast-check';
import { definedFields } from '../../json/defined-fields.js';
import type { ModelOperation } from '../../openapi/resource-model.js';
import type { CallOptions, CheckContext, Finding } from '../check.js';
import type { Exchange, RecordedRequest } from '../http.js';
import { TransportError } from '../http.js';
import { idOf } from '../pets.js';
import type { BodyInput, ListInput, ReadInput } from './fuzz-inputs.js';
import { type FuzzModel, idToRead, type JudgedOperations, judgeCreate, judgeDelete, judgeList, judgeRead, petToRemove, type Violation } from './model.js';

/** A response the model does not allow, or one that breaks the spec's conformance rule. */
export class ModelViolation extends Error {
  override readonly name = 'ModelViolation' as const;
  constructor(
    readonly violation: Violation,
    readonly exchange: Exchange | undefined,
  ) {
    super(violation.message);
  }
}

/** What the whole fuzz run shares across its sequences. */
export interface FuzzRun {
  /** POSTs the fuzz suite may still send, and whether the run is read-only. */
  canWrite(): boolean;
  /** Whether the deployment removed the operation at its sunset (removal.ts): a sequence then never calls it. */
  removed(operationId: string): boolean;
  /** The operations of the resource model the commands call, by kind. */
  readonly named: JudgedOperations;
  /** The problem that stopped the run from reaching the deployment (a deadline, a timeout): no sequence runs after it. */
  stopped?: TransportError;
  readonly bounds: { readonly default: number; readonly maximum: number };
}

/** The system under test, for one sequence: the context its calls go through, and the requests sent, in order. */
export interface Real {
  readonly context: CheckContext;
  readonly sent: RecordedRequest[];
  readonly run: FuzzRun;
}

function violationOf(finding: Finding): Violation {
  const { message, expected, actual, fault } = finding;
  return { message, ...definedFields({ expected, actual, fault }) };
}

/**
 * Sends one call and throws a `ModelViolation` for anything the conformance rule finds in its
 * response. A request that got no response stops the run: it tells nothing of the model, so the
 * sequence is dropped (`fc.pre`), never shrunk as if it had found a fault.
 */
async function send(real: Real, operationId: string, options: CallOptions): Promise<Exchange> {
  const before = real.context.findings.length;
  let exchange: Exchange;
  try {
    exchange = await real.context.call(operationId, options);
  } catch (error) {
    const found = real.context.findings[before];
    if (error instanceof TransportError) real.sent.push(error.request);
    if (found) throw new ModelViolation(violationOf(found), undefined);
    // The call met the operation's removal at its sunset (the check's skip): it tells nothing of the model.
    if (real.run.removed(operationId)) fc.pre(false);
    if (!(error instanceof TransportError)) throw error;
    real.run.stopped ??= error;
    fc.pre(false);
    throw error;
  }
  real.sent.push(exchange.request);
  const found = real.context.findings[before];
  if (found) throw new ModelViolation(violationOf(found), exchange);
  return exchange;
}

function expect(violation: Violation | undefined, exchange: Exchange): void {
  if (violation) throw new ModelViolation(violation, exchange);
}

export class CreateCommand implements AsyncCommand<FuzzModel, Real> {
  constructor(
    readonly body: BodyInput,
    readonly fuzz: FuzzRun,
  ) {}
  check(): boolean {
    return this.fuzz.canWrite();
  }
  async run(model: FuzzModel, real: Real): Promise<void> {
    const exchange = await send(real, this.fuzz.named.create, { body: this.body.text });
    expect(judgeCreate(model, this.body, exchange.status, exchange.json), exchange);
  }
  toString(): string {
    return `${this.fuzz.named.create} ${this.body.text}`;
  }
}

export class ListCommand implements AsyncCommand<FuzzModel, Real> {
  constructor(
    readonly input: ListInput,
    readonly fuzz: FuzzRun,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: FuzzModel, real: Real): Promise<void> {
    const exchange = await send(real, this.fuzz.named.list, this.input.query === '' ? {} : { query: this.input.query });
    expect(judgeList(model, this.input, exchange.status, exchange.json, real.run.bounds), exchange);
  }
  toString(): string {
    return `${this.fuzz.named.list} ${this.input.query}`;
  }
}

export class ReadCommand implements AsyncCommand<FuzzModel, Real> {
  constructor(
    readonly input: ReadInput,
    readonly fuzz: FuzzRun,
  ) {}
  check(model: Readonly<FuzzModel>): boolean {
    return !this.fuzz.removed(this.fuzz.named.read) && idToRead(model, this.input) !== undefined;
  }
  async run(model: FuzzModel, real: Real): Promise<void> {
    const id = idToRead(model, this.input);
    if (id === undefined) return;
    const exchange = await send(real, this.fuzz.named.read, { id });
    expect(judgeRead(model, this.input, id, exchange.status, exchange.json), exchange);
  }
  toString(): string {
    return `${this.fuzz.named.read} ${JSON.stringify(this.input, (_, value: unknown) => (typeof value === 'bigint' ? String(value) : value))}`;
  }
}

/** The delete of a pet this sequence created, for a spec whose resource model has a delete: never of a pet it did not make. */
export class DeleteCommand implements AsyncCommand<FuzzModel, Real> {
  constructor(
    readonly index: number,
    readonly operation: ModelOperation,
    readonly fuzz: FuzzRun,
  ) {}
  check(model: Readonly<FuzzModel>): boolean {
    return this.fuzz.canWrite() && model.created.length > 0;
  }
  async run(model: FuzzModel, real: Real): Promise<void> {
    const pet = petToRemove(model, this.index);
    if (pet === undefined) return;
    const exchange = await send(real, this.operation.operationId, { id: idOf(model, pet) });
    expect(judgeDelete(model, this.operation, pet, exchange.status), exchange);
  }
  toString(): string {
    return `${this.operation.operationId} of created pet #${this.index}`;
  }
}
