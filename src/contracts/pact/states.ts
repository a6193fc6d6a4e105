/**
 * The provider states of the shipped pact, set up only through the public interface, so they
 * work for any deployment: a pet that must exist is created with POST (named for this run); an
 * absent id is taken from the listing.
 */
import { SpecError } from '../../errors.js';
import { type JsonValue, parseJson } from '../../json/lossless.js';
import { operationOfKind } from '../../openapi/resource-model.js';
import type { Contract } from '../contract.js';
import type { HttpClient } from '../http.js';
import { absentIdBeyond, newPetJson, type RunFields, runFieldsOf } from '../pet-fields.js';
import { isObject } from './guards.js';
import { STATES } from './names.js';

type StateParams = Record<string, JsonValue>;

/**
 * A state that cannot be set up because the deployment legitimately rejected the verifier's guesses
 * (a category it does not know): the interaction is not verifiable, which is no contract failure.
 */
export class StateUnavailable extends Error {}

/** What a provider state needs of the deployment. */
export interface StateSetup {
  /** Sets the state up through the API; resolves with the values it injects (`{ id }`). */
  readonly setup: () => Promise<StateParams | undefined>;
  /** True when setting it up may need a POST. */
  readonly mayWrite: boolean;
}

/** How many categories the states try before they give up creating pets: each try is a POST. */
const MAX_TRIES = 3;

/**
 * What the setups need of the spec, as plain data: the Pact suite's worker gets it in its job, so that
 * it need not load and compile the spec itself.
 */
export interface StateSpec {
  readonly listPath: string;
  readonly create: { readonly method: string; readonly path: string };
  /** The listing's page size parameter (`limit`) and the largest value it takes, when it has one. */
  readonly pageSize: { readonly parameter: string; readonly maximum: number } | undefined;
  /** The field that identifies a record: `id`. */
  readonly idField: string;
  /** The list's first filter (`status`): what the pact's "a sold pet exists" filters by and creates with. */
  readonly filter: { readonly parameter: string; readonly field: string } | undefined;
  /** The fields a create names its record and its category by. */
  readonly run: RunFields;
}

/** The spec's part the provider states use, from its resource model: the list and the create, whatever their names. */
export function stateSpecOf(contract: Contract): StateSpec {
  const { model } = contract;
  const list = operationOfKind(model, 'list');
  const create = operationOfKind(model, 'create');
  if (list === undefined || create === undefined) throw new SpecError("the pact's provider states need a list and a create of the spec's resource");
  return {
    listPath: list.path,
    create: { method: create.method.toUpperCase(), path: create.path },
    pageSize: list.pageSize && { parameter: list.pageSize.parameter, maximum: list.pageSize.maximum },
    idField: model.id.field,
    filter: list.filters[0],
    run: runFieldsOf(model),
  };
}

/** The query of a page of `size` records (`limit=1`), with `filter` before it; the filter alone for a listing of one page. */
function page(context: StateContext, size: 'one' | 'most', filter?: string): string {
  const { pageSize } = context;
  const sized = pageSize === undefined ? [] : [`${pageSize.parameter}=${size === 'one' ? 1 : pageSize.maximum}`];
  return [...(filter === undefined ? [] : [filter]), ...sized].join('&');
}

/** What the setups of one run share: how to reach the deployment, and what it taught them of categories. */
interface StateContext extends StateSpec {
  readonly client: HttpClient;
  readonly runId: string;
  /** A category the deployment accepted before (learned by the spec suite, or given with --category-id). */
  readonly categoryHint: string | undefined;
  /** The category a create was accepted with, once one was. */
  learned: string | undefined;
  /** True once every candidate was rejected with 400: the deployment knows none of the verifier's guesses. */
  exhausted: boolean;
  /** The categories the deployment rejected, in order. */
  readonly rejected: string[];
}

async function listing(context: StateContext, query: string): Promise<Record<string, JsonValue>[]> {
  const exchange = await context.client.send({ method: 'GET', path: context.listPath, query });
  if (exchange.status !== 200 || !Array.isArray(exchange.json))
    throw new Error(`cannot set up the state: GET ${context.listPath}?${query} answered ${exchange.status}`);
  // A listing's items are pets, objects: an item that is not one fails the setup when its fields are looked up.
  return exchange.json as Record<string, JsonValue>[];
}

/** Categories worth trying, as exact digits: the one the spec suite learned, the first listed pet's, then 1. */
async function candidates(context: StateContext): Promise<string[]> {
  const listed = (await listing(context, page(context, 'one')))[0]?.[context.run.category];
  const fromListing = typeof listed === 'bigint' || (typeof listed === 'number' && Number.isInteger(listed)) ? [String(listed)] : [];
  const hint = context.categoryHint === undefined ? [] : [context.categoryHint];
  return [...new Set([...hint, ...fromListing, '1'])].slice(0, MAX_TRIES);
}

function unavailable(context: StateContext): StateUnavailable {
  return new StateUnavailable(
    `the deployment refused to create a pet with categoryId ${context.rejected.join(', ')} (400), a category it may legitimately not know; the pact's interaction cannot be verified (give a category it knows with --category-id)`,
  );
}

/** A category the deployment knows: the one a create was accepted with, else the first listed pet's, else 1. */
async function knownCategory(context: StateContext): Promise<JsonValue> {
  if (context.learned !== undefined) return parseJson(context.learned);
  if (context.exhausted) throw unavailable(context);
  return (await listing(context, page(context, 'one')))[0]?.[context.run.category] ?? 1;
}

/** POSTs a pet of this run in the category; the response's status, and the new pet's id when it has one. */
async function post(context: StateContext, categoryId: string, value?: string): Promise<{ status: number; id?: JsonValue }> {
  const fields = value === undefined || context.filter === undefined ? {} : { [context.filter.field]: value };
  const body = newPetJson(context.run, `petstore-verify ${context.runId} pact`, categoryId, fields);
  const exchange = await context.client.send({ method: context.create.method, path: context.create.path, body });
  const id = isObject(exchange.json) ? exchange.json[context.idField] : undefined;
  return { status: exchange.status, ...(id === undefined ? {} : { id }) };
}

/** Creates a pet of this run, its filtered field `value` when given. */
async function createPet(context: StateContext, value?: string): Promise<StateParams> {
  if (context.exhausted) throw unavailable(context);
  const tries = context.learned === undefined ? await candidates(context) : [context.learned];
  let last = 0;
  for (const categoryId of tries) {
    const response = await post(context, categoryId, value);
    last = response.status;
    if (response.status === 201 && response.id !== undefined) {
      context.learned = categoryId;
      return { id: response.id };
    }
    // A category the deployment does not know is its right to reject: try the next.
    if (response.status !== 400 || context.learned !== undefined) break;
    context.rejected.push(categoryId);
  }
  if (context.learned === undefined && last === 400) {
    context.exhausted = true;
    throw unavailable(context);
  }
  throw new Error(`cannot set up the state: POST ${context.create.path} answered ${last}`);
}

/** Creates a pet (of the filter's `value`, when given) only when the listing (of that value) is empty. */
async function ensure(context: StateContext, value?: string): Promise<undefined> {
  const filter = value === undefined || context.filter === undefined ? undefined : `${context.filter.parameter}=${encodeURIComponent(value)}`;
  if ((await listing(context, page(context, 'one', filter))).length === 0) await createPet(context, value);
  return undefined;
}

/** An id no listed pet has. Parsed, not `Number()`: beyond 2^53 the id stays exact (a bigint), as the deployment's ids are. */
async function absentId(context: StateContext): Promise<StateParams> {
  return { id: parseJson(absentIdBeyond((await listing(context, page(context, 'most'))).map((pet) => String(pet[context.idField])))) };
}

interface StateRecipe {
  readonly mayWrite: boolean;
  readonly setup: (context: StateContext) => Promise<StateParams | undefined>;
}

/** How each provider state is set up, by its name in the pact. */
const RECIPES: Readonly<Record<string, StateRecipe>> = {
  [STATES.petsExist]: { mayWrite: true, setup: (context) => ensure(context) },
  [STATES.soldPetExists]: { mayWrite: true, setup: (context) => ensure(context, 'sold') },
  [STATES.petExists]: { mayWrite: true, setup: (context) => createPet(context) },
  [STATES.categoryExists]: { mayWrite: false, setup: async (context) => ({ categoryId: await knownCategory(context) }) },
  [STATES.petAbsent]: { mayWrite: false, setup: absentId },
};

/** Whether setting the provider state `name` up may need a POST: known from its recipe, before any run. */
export function stateMayWrite(name: string): boolean {
  return Object.hasOwn(RECIPES, name) && RECIPES[name]?.mayWrite === true;
}

/** The provider states' setups for one run, sharing what they learn of the deployment's categories. */
export function stateSetups(spec: StateSpec, client: HttpClient, runId: string, categoryHint?: string): Record<string, StateSetup> {
  const context: StateContext = {
    ...spec,
    client,
    runId,
    categoryHint,
    learned: categoryHint,
    exhausted: false,
    rejected: [],
  };
  return Object.fromEntries(Object.entries(RECIPES).map(([name, { mayWrite, setup }]) => [name, { mayWrite, setup: () => setup(context) }]));
}
