/**
 * The fuzz suite: sequences of calls generated from the spec (creates with valid and invalid bodies,
 * lists with generated limits and filters, reads of known, absent and malformed ids), run against
 * the deployment and held to the model (model.ts) with fast-check's model-based testing. A failing
 * sequence is shrunk, by replaying shorter ones, to the shortest that still fails, and reported with
 * its requests as curl lines and the seed that reproduces it.
 */

import fc from 'fast-check';
import { definedFields } from '../../json/defined-fields.js';
import { operationOfKind } from '../../openapi/resource-model.js';
import { type Check, CheckContext, type Finding, type RunState } from '../check.js';
import { listOf, operationIdOf } from '../contract.js';
import type { TransportError } from '../http.js';
import { runFieldsOf } from '../pet-fields.js';
import { acceptedCategoryId, exact, petName } from '../pets.js';
import { CreateCommand, DeleteCommand, type FuzzRun, ListCommand, ModelViolation, ReadCommand, type Real } from './commands.js';
import { bodyInputs, listInputs, readInputs } from './fuzz-inputs.js';
import { emptyModel, type JudgedOperations } from './model.js';

/** POSTs kept back while sequences are generated, so that shrinking a failure can still replay its creates. */
const SHRINK_RESERVE = 30;
/** The longest sequence generated. */
const MAX_CALLS = 10;
/** Kept from the deadline for what follows the fuzz suite: the report. */
const DEADLINE_MARGIN_MS = 1_000;

export interface FuzzOptions {
  /** fast-check's seed: the same seed generates the same sequences. */
  readonly seed: number;
  /** How many sequences are generated (before shrinking). */
  readonly runs: number;
  /** When the run's deadline falls, by `Date.now()`. */
  readonly deadlineAt: number;
}

/** Integer values the deployment is known to take for a field: those the listing shows, and the category a create of this run was accepted with. */
function knownValues(state: RunState): (field: string) => readonly string[] {
  const accepted = [acceptedCategoryId(state)].filter((id) => id !== undefined);
  const { category } = runFieldsOf(state.contract.model);
  return (field) => {
    const listed = state.listing.map((pet) => exact(pet[field])).filter((text) => /^-?\d+$/.test(text));
    const values = [...new Set([...(field === category ? accepted : []), ...listed])];
    return values.length > 0 ? values.slice(0, 5) : ['1'];
  };
}

/** What the last failing sequence showed: after shrinking, the shortest. */
interface Failure {
  readonly error: ModelViolation;
  readonly sent: Real['sent'];
}

function findingOf(failure: Failure, seed: number): Finding {
  const { violation, exchange } = failure.error;
  const calls = failure.sent.length;
  return {
    message: `${violation.message}: found by a generated sequence of calls, shrunk to the ${calls === 1 ? 'one call' : `${calls} calls`} below (seed ${seed}: re-run with --seed ${seed})`,
    ...definedFields({ expected: violation.expected, actual: violation.actual, fault: violation.fault }),
    ...(exchange ? { status: exchange.status, excerpt: exchange.text.slice(0, 300) } : {}),
    replay: failure.sent,
  };
}

/** The fuzz run's shared state: its own budget of POSTs, what stopped it, the last failing sequence. */
class FuzzSession implements FuzzRun {
  stopped?: TransportError;
  failure?: Failure;
  readonly bounds: FuzzRun['bounds'];
  readonly named: JudgedOperations;
  constructor(readonly state: RunState) {
    const { contract } = state;
    this.named = {
      list: operationIdOf(contract, 'list'),
      create: operationIdOf(contract, 'create'),
      read: operationIdOf(contract, 'read'),
      idParameter: contract.model.id.parameter,
      filter: listOf(contract).filters[0],
    };
    this.bounds = listOf(contract).pageSize;
  }
  canWrite(): boolean {
    return !this.state.readOnly && this.state.writesLeft > (this.failure ? 0 : SHRINK_RESERVE);
  }
  removed(operationId: string): boolean {
    return this.state.removals.reason(operationId) !== undefined;
  }
}

function commandsOf(session: FuzzSession, known: (field: string) => readonly string[]) {
  const { state } = session;
  const bodies = bodyInputs(state.contract, session.named.create, known, petName(state, 'fuzz'));
  const creates = bodies.valid.map((body) => new CreateCommand(body, session));
  const lists = listInputs(state.contract).map((input) => new ListCommand(input, session));
  const reads = readInputs().map((input) => new ReadCommand(input, session));
  // A delete of the resource model, when the spec has one, removes pets the sequence created.
  const remove = operationOfKind(state.contract.model, 'delete');
  const deletes = remove === undefined ? [] : [fc.nat().map((index) => new DeleteCommand(index, remove, session))];
  // fast-check draws each call from these alike: a kind listed twice is drawn twice as often. Invalid
  // bodies fail in one call, reads and lists after creates find the faults of state.
  return fc.commands([creates, creates, bodies.invalid.map((body) => new CreateCommand(body, session)), lists, lists, reads, reads, reads, ...deletes], {
    maxCommands: MAX_CALLS,
  });
}

/** Runs the generated sequences, each against a fresh model, keeping the last one that failed: after shrinking, the shortest. */
async function explore(session: FuzzSession, known: (field: string) => readonly string[], options: FuzzOptions): Promise<{ failed: boolean; error: unknown }> {
  const { state } = session;
  const petFields = state.contract.fields();
  const property = fc.asyncProperty(commandsOf(session, known), async (commands) => {
    fc.pre(session.stopped === undefined);
    const real: Real = { context: new CheckContext(state), sent: [], run: session };
    try {
      await fc.asyncModelRun(() => ({ model: emptyModel(session.named, petFields, state.listing, state.contract.model.id.field), real }), commands);
    } catch (error) {
      if (error instanceof ModelViolation) session.failure = { error, sent: real.sent };
      throw error;
    }
  });
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: options.runs,
    interruptAfterTimeLimit: Math.max(1, options.deadlineAt - Date.now() - DEADLINE_MARGIN_MS),
    markInterruptAsFailure: false,
  });
  return { failed: details.failed, error: details.errorInstance };
}

/** The fuzz suite as one check of the run, with its own budget of POSTs (`MAX_FUZZ_WRITES`). */
export function fuzzCheck(options: FuzzOptions): Check {
  return {
    id: 'fuzz.model',
    title: `generated sequences of calls keep to the model of the deployment: what was created is listed and readable, pages keep their bounds, no 5xx, every response conforms (seed ${options.seed}, ${options.runs} sequences)`,
    // Not skipped under --read-only: the sequences then only list and read.
    writes: false,
    async run(context) {
      // The run's state as it is, its budget of writes read live: the runner granted this suite its own POSTs.
      const session = new FuzzSession(context.state);
      const outcome = await explore(session, knownValues(context.state), options);
      if (session.failure) return void context.findings.push(findingOf(session.failure, options.seed));
      if (session.stopped) throw session.stopped;
      // Anything else that failed a sequence is a bug of the suite: runCheck reports it as one.
      if (outcome.failed) throw outcome.error;
    },
  };
}
