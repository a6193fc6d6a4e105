/**
 * The run's last phase, after every suite: what the run-wide model needs that the suites did not do.
 * It creates items with a valid value of every field the spec's body schema names (optional ones
 * included, every value of an enum), creates more items until the run has acknowledged enough to
 * cross a small cache or store (`CROSS_CACHE_CREATES`), then reads back the earliest items and lists
 * each filter once more. The model hears all of it, and its invariants are then judged over the run.
 */
import { type Check, type CheckContext, type CheckResult, type RunState, runCheck, statusFault } from '../check.js';
import { bodyObjectOf, type Contract, fullPage } from '../contract.js';
import { createPet, exact, idOf, isPet, petName } from '../pets.js';
import { CROSS_CACHE_CREATES, ENUM_VALUES_TRIED } from '../run-bounds.js';
import { DeploymentModel, followedOperations } from './deployment-model.js';
import { earliestAcknowledged, INVARIANTS, judgeInvariants } from './invariants.js';
import { validValues } from './valid-values.js';

/** Items read back at the end: the earliest the run created, and the first the listing showed at the start. */
const EARLIEST_READ = 4;
const LISTED_READ = 2;

/** The valid values of every field of the body, strings made from `prefix`; `trusted` when every number is one the deployment took before. */
function fieldValues(model: DeploymentModel, prefix: string): { values: [string, string[]][]; trusted: boolean } | undefined {
  const { doc } = model.contract;
  const body = bodyObjectOf(doc, model.kinds.create.operationId);
  if (!body) return undefined;
  const { required, properties } = body;
  let trusted = true;
  const values: [string, string[]][] = [];
  for (const [field, property] of Object.entries(properties)) {
    const accepted = [...new Set(model.acknowledged.map((ack) => exact(ack.item[field])).filter((text) => /^-?\d+$/.test(text)))];
    const valid = validValues(doc, property, { prefix, accepted });
    if (valid.length === 0 && required.includes(field)) return undefined;
    if (valid.length > 0) values.push([field, valid]);
    if (valid.some((text) => /^-?\d/.test(text)) && accepted.length === 0) trusted = false;
  }
  return { values, trusted };
}

/**
 * Bodies with a valid value of every field, one per value of the longest enum, each with strings of its
 * own (a deployment may keep names unique). Made one at a time, as each is sent: a variant's enum of
 * 90,003 values made them all (each deriving every value again) before the first was sent, minutes of
 * CPU past the run's deadline; now the deadline and the write budget are heard between two bodies.
 */
function everyFieldBodies(model: DeploymentModel, state: RunState): { bodies: Iterable<string>; trusted: boolean } | undefined {
  const first = fieldValues(model, petName(state, 'every field 1'));
  if (!first) return undefined;
  const count = Math.max(1, ...first.values.map(([, valid]) => valid.length));
  const valuesOf = (i: number) => (i === 0 ? first : (fieldValues(model, petName(state, `every field ${i + 1}`)) ?? first)).values;
  function* bodies(): Generator<string> {
    for (let i = 0; i < count; i++) {
      const values = valuesOf(i);
      yield `{${values.map(([field, valid]) => `${JSON.stringify(field)}:${valid[i % valid.length]}`).join(',')}}`;
    }
  }
  return { bodies: bodies(), trusted: first.trusted };
}

/** Creates an item with every field, and reads it back: the model holds both to what was sent. */
async function createWithEveryField(context: CheckContext, model: DeploymentModel): Promise<void> {
  const made = everyFieldBodies(model, context.state);
  if (!made) context.skip('a required field of the body has a schema no valid value can be derived from');
  const { create, read } = model.kinds;
  for (const body of made.bodies) {
    const exchange = await context.call(create.operationId, { body });
    if (exchange.status === 400 && !made.trusted) context.skip(`the deployment refused (400) a body whose numbers it was never seen to take: ${body}`);
    if (exchange.status >= 300) {
      const message = `${create.operationId} answered ${exchange.status} to a valid body with a value of every field the schema names: ${body}`;
      context.failStatus(message, exchange, '201', statusFault(create.operationId, exchange.status));
      continue;
    }
    if (isPet(context, exchange.json)) await context.call(read.operationId, { id: idOf(context, exchange.json) });
  }
}

/** Creates until the run has acknowledged `CROSS_CACHE_CREATES`, then reads back its earliest items and lists each filter. */
async function crossCaches(context: CheckContext, model: DeploymentModel): Promise<void> {
  const { state } = context;
  const missing = Math.max(0, CROSS_CACHE_CREATES - new Set(model.acknowledged.map((ack) => ack.id)).size);
  if (!state.readOnly && missing > 0) {
    state.client.grantWrites(missing);
    // Each create on its own: one refused (a category) must not stop the others; the client's pacer bounds what is in flight.
    await Promise.all(Array.from({ length: missing }, (_, i) => createPet(context, `cache ${i + 1}`).catch(() => undefined)));
  }
  const { read, list } = model.kinds;
  const ids = [...earliestAcknowledged(model, EARLIEST_READ), ...state.listing.slice(0, LISTED_READ).map((pet) => idOf(context, pet))];
  const size = fullPage(list);
  const queries = [
    size,
    ...list.filters.flatMap((filter) => filter.values.slice(0, ENUM_VALUES_TRIED).map((value) => `${filter.parameter}=${encodeURIComponent(String(value))}`)),
  ];
  // All at once, after every create: the client's pacer bounds what is in flight.
  await Promise.all([
    ...[...new Set(ids)].map((id) => context.call(read.operationId, { id })),
    ...queries.map((query) => context.call(list.operationId, { query: size && query !== size ? `${query}&${size}` : query })),
  ]);
}

function phaseChecks(model: DeploymentModel): Check[] {
  const { create } = model.kinds;
  return [
    {
      id: `${create.operationId}.every-field`,
      title: `${create.operationId} takes a valid value of every field its body schema names, optional ones and every enum value included, and the item is read back with them`,
      operationId: create.operationId,
      writes: true,
      run: (context) => createWithEveryField(context, model),
    },
    {
      id: 'run.cross-caches',
      title: `the run creates until ${CROSS_CACHE_CREATES} creates were acknowledged, then reads back its earliest items and lists each filter once more`,
      writes: false,
      run: (context) => crossCaches(context, model),
    },
  ];
}

/** The model's phase of the run when `active` (it sends requests of its own), then its invariants judged over every response of the run. */
export async function runModelPhase(
  model: DeploymentModel,
  state: RunState,
  active: boolean,
  onResult?: (result: CheckResult) => void,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of active ? phaseChecks(model) : []) {
    const result = await runCheck(check, state, 'run');
    onResult?.(result);
    results.push(result);
  }
  for (const [key, message] of model.advice) state.advice.add(message, `header:${key}`);
  for (const judged of judgeInvariants(model)) {
    // Under --read-only an invariant left with nothing to judge says why: the run created nothing.
    const result = judged.outcome === 'skip' && state.readOnly ? { ...judged, reason: `--read-only: ${judged.reason}` } : judged;
    onResult?.(result);
    results.push(result);
  }
  return results;
}

/** The checks of the run-wide model for a contract, in the order a run reports them: its steps, then its invariants (see docs/verifier-checks.md). */
export function runModelChecks(contract: Contract): { readonly id: string; readonly title: string }[] {
  const kinds = followedOperations(contract.model);
  if (kinds === undefined) return [];
  const model = new DeploymentModel(kinds, contract, 'http://petstore-verify.invalid/');
  return [...phaseChecks(model), ...INVARIANTS];
}
