import { INT64_MAX } from '../json/int64.js';
import type { JsonValue } from '../json/lossless.js';
import { type CheckContext, formFault, type RunState, statusFault } from './check.js';
import { fullPage, listOf } from './contract.js';
import type { Exchange } from './http.js';
import { absentIdBeyond, type FieldValue, newPetJson, runFieldsOf } from './pet-fields.js';

export type PetJson = Record<string, JsonValue>;

/** A JSON value's exact text: integers beyond 2^53 compare by their digits. */
export function exact(value: JsonValue | undefined): string {
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

function jsonType(value: JsonValue | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'bigint' ? 'number' : typeof value;
}

/**
 * The fault of a created pet's `field` that came back missing or of another JSON type than was sent
 * (`"1"` for `1`): the answer's form, which its schema already failed, one fault with every other
 * answer that writes the field so; or an integer rounded through a double, one fault of the field
 * whichever check sent the integer; else a change of the field's value.
 */
export function changedFieldFault(create: string, field: string, sent: string, got: JsonValue | undefined): string {
  let sentValue: JsonValue;
  try {
    sentValue = JSON.parse(sent);
  } catch {
    return `changed:${create}:${field}`;
  }
  if (jsonType(sentValue) !== jsonType(got)) return formFault('schema', 201, `body/${field}`);
  // An integer kept as a double: equal to what was sent once both are doubles, other digits.
  if ((typeof got === 'bigint' || typeof got === 'number') && Number(got) === Number(sent)) return `rounded:${create}:${field}`;
  // Any other change of the field (a name trimmed, a status replaced) is one fault of the field, whichever body showed it.
  return `changed:${create}:${field}`;
}

/** Deep equality of two JSON values, exact for big integers. */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const numeric = (value: unknown) => typeof value === 'number' || typeof value === 'bigint';
  if (numeric(a) || numeric(b)) return numeric(a) && numeric(b) && String(a) === String(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
}

/**
 * True when two responses describe the same pet: the same id, and no field of the spec's Pet that
 * both have differs. A deployment may show more fields in one response than in another.
 */
export function samePet(context: CheckContext, a: PetJson, b: PetJson): boolean {
  const same = (field: string) => sameJson(a[field], b[field]);
  return same(context.idField) && context.contract.fields().every((field) => !(field in a && field in b) || same(field));
}

/** What reading a record needs of the resource model: the name of its id field. */
interface IdField {
  readonly idField: string;
}

/** Whether a value is a record: an object with the model's id field. */
export function isPet(of: IdField, value: JsonValue | undefined): value is PetJson {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && of.idField in value;
}

/** The pets of a listing response, or none when it is not an array. */
export function petsOf(of: IdField, json: unknown): PetJson[] {
  return Array.isArray(json) ? json.filter((value) => isPet(of, value)) : [];
}

/** A pet's id as exact digits. */
export function idOf(of: IdField, pet: PetJson): string {
  return String(pet[of.idField]);
}

/** The name of a pet this run creates: findable on a shared staging. */
export function petName(state: RunState, purpose: string): string {
  return `petstore-verify ${state.runId} ${purpose}`;
}

/** How many categories a run tries before it gives up creating pets: each try is a write. */
const MAX_CATEGORY_TRIES = 3;

/** The category each run's creates use, once one was accepted. */
const acceptedCategory = new WeakMap<RunState, Promise<string | undefined>>();
const settledCategory = new WeakMap<RunState, string>();

/** Categories worth trying, as exact digits: those the listing shows (a deployment may reject others), then 1. */
function categoryCandidates(state: RunState): string[] {
  const { category } = runFieldsOf(state.contract.model);
  const listed = state.listing.map((pet) => pet[category]).filter((id) => typeof id === 'bigint' || (typeof id === 'number' && Number.isInteger(id)));
  return [...new Set([...(state.categoryId === undefined ? [] : [state.categoryId]), ...listed.map(String), '1'])].slice(0, MAX_CATEGORY_TRIES);
}

/** The category a create of this run was accepted with, if one was (or the one given with --category-id). */
export function acceptedCategoryId(state: RunState): string | undefined {
  return settledCategory.get(state) ?? state.categoryId;
}

/**
 * A category the deployment accepts, as exact digits: the one a create was accepted with, else the
 * first the listing shows, else 1.
 */
function knownCategoryId(state: RunState): string {
  return settledCategory.get(state) ?? categoryCandidates(state)[0] ?? '1';
}

/** The largest limit the spec allows, to see as much of the listing as one page shows. */
export function maxLimit(context: CheckContext): number {
  return listOf(context.contract).pageSize.maximum;
}

/** One page of the listing with `query` (besides the limit). */
export async function listPage(context: CheckContext, query = fullPage(listOf(context.contract))): Promise<{ exchange: Exchange; pets: PetJson[] }> {
  const exchange = await context.call(context.kind('list'), { query });
  if (exchange.status === 200 && !Array.isArray(exchange.json)) context.skip('the listing is not an array');
  return { exchange, pets: petsOf(context, exchange.json) };
}

export interface NewPetFields {
  /** Fields besides the name and the category, each as its value (the value of a list's filter: `{ status: 'sold' }`). */
  readonly fields?: Readonly<Record<string, FieldValue>>;
  /** Exact digits. */
  readonly categoryId?: string;
}

/** The category a body should name: the one a create was accepted with, waiting for a create that is still finding it. */
export async function bodyCategoryId(state: RunState): Promise<string> {
  return (await acceptedCategory.get(state)) ?? knownCategoryId(state);
}

/** A valid NewPet as JSON text, named for this run. */
export function newPetBody(state: RunState, purpose: string, fields: NewPetFields = {}): string {
  return newPetJson(runFieldsOf(state.contract.model), petName(state, purpose), fields.categoryId ?? knownCategoryId(state), fields.fields);
}

/** The largest integer id of a schema without `format: int64`: int32's, which every integer id holds. */
const INT32_MAX = 2n ** 31n - 1n;

/**
 * An id no record the run listed has, of the type the resource model gives the id: an integer beyond
 * the largest listed, within int64 for `format: int64` and within int32 otherwise; a text for a string id.
 */
export function absentId(context: CheckContext): string {
  const { id } = context.contract.model;
  const listed = context.state.listing.map((pet) => idOf(context, pet));
  if (id.type === 'string') return `petstore-verify-absent-${context.state.runId}`;
  return absentIdBeyond(listed, id.int64 ? INT64_MAX : INT32_MAX);
}

/** Texts that are no id of the model's type: for an integer id a word and a fraction; none for a string id, which every text is. */
export function notIds(context: CheckContext): string[] {
  return context.contract.model.id.type === 'integer' ? ['abc', '1.5'] : [];
}

export interface Created {
  readonly exchange: Exchange;
  readonly pet: PetJson;
  /** The body sent, as exact text per field. */
  readonly sent: Readonly<Record<string, string>>;
}

/** Sends one create, and records whether the deployment took the category. */
async function postPet(context: CheckContext, purpose: string, fields: NewPetFields, categoryId: string): Promise<Exchange> {
  const exchange = await context.call(context.kind('create'), { body: newPetBody(context.state, purpose, { ...fields, categoryId }) });
  if (exchange.status === 400) context.observe({ refusedCategories: [categoryId] });
  else if (exchange.status === 201) context.observe({ categories: [categoryId] });
  return exchange;
}

/**
 * Creates with a category the deployment accepts. The first create of a run tries the candidates in
 * turn (a deployment may reject a category it does not know, which is its right); the others wait
 * for what it learned, so that the run spends few writes on it.
 */
async function postWithAcceptedCategory(context: CheckContext, purpose: string, fields: NewPetFields): Promise<{ exchange: Exchange; categoryId: string }> {
  const { state } = context;
  const learning = acceptedCategory.get(state);
  if (learning) {
    const categoryId = (await learning) ?? knownCategoryId(state);
    return { exchange: await postPet(context, purpose, fields, categoryId), categoryId };
  }
  let settle: (categoryId: string | undefined) => void = () => {};
  acceptedCategory.set(state, new Promise((resolve) => (settle = resolve)));
  let accepted: string | undefined;
  try {
    let last: { exchange: Exchange; categoryId: string } | undefined;
    for (const categoryId of categoryCandidates(state)) {
      last = { exchange: await postPet(context, purpose, fields, categoryId), categoryId };
      if (last.exchange.status !== 400) {
        accepted = categoryId;
        settledCategory.set(state, categoryId);
        return last;
      }
    }
    // Refused with every category: if the name is not plain ASCII, the name may be why, not the category.
    // One create with a plain name tells which, so that the rejection is blamed on the right field.
    const first = categoryCandidates(state)[0];
    if (last && first !== undefined && /[^\x20-\x7e]/.test(purpose)) {
      const plain = await postPet(context, 'category', {}, first);
      if (plain.status === 201) {
        accepted = first;
        settledCategory.set(state, first);
        return { exchange: last.exchange, categoryId: first };
      }
    }
    return last ?? context.skip('no category to try');
  } finally {
    settle(accepted);
  }
}

/**
 * Creates a pet named for this run. A 400 is the deployment's right (it may reject a category it
 * does not know), so the calling check is skipped then; any other failure to create is a finding.
 */
export async function createPet(context: CheckContext, purpose: string, fields: NewPetFields = {}): Promise<Created> {
  const create = context.kind('create');
  const name = petName(context.state, purpose);
  const { exchange, categoryId } =
    fields.categoryId === undefined
      ? await postWithAcceptedCategory(context, purpose, fields)
      : { exchange: await postPet(context, purpose, fields, fields.categoryId), categoryId: fields.categoryId };
  if (exchange.status === 400) {
    // A category a create of this run was accepted with, or every category tried rejected though the listing's own were among them: the 400 is not about a category the deployment may not know.
    const { category } = runFieldsOf(context.contract.model);
    const listed = [...new Set(context.state.listing.map((pet) => exact(pet[category])).filter((id) => /^-?\d+$/.test(id)))];
    const rejectedAll =
      fields.categoryId === undefined && settledCategory.get(context.state) === undefined && context.state.categoryId === undefined && listed.length > 0;
    if (fields.categoryId === undefined && settledCategory.get(context.state) === categoryId)
      context.fail(
        `${create} refused (400) a valid NewPet (name ${JSON.stringify(name)}, the accepted categoryId ${categoryId}${Object.entries(fields.fields ?? {})
          .map(([field, value]) => `, ${field} ${String(value)}`)
          .join('')})`,
        exchange,
        { expected: '201', actual: '400', fault: statusFault(create, 400) },
      );
    if (rejectedAll)
      context.fail(
        `${create} refused (400) a valid NewPet with every category tried, the listing's own among them (${categoryCandidates(context.state).join(', ')})`,
        exchange,
        { expected: '201', actual: '400', fault: statusFault(create, 400) },
      );
    context.skip(`the deployment refused to create a pet with categoryId ${categoryId} (400), so this cannot be checked`);
  }
  if (exchange.status !== 201) {
    context.failStatus(`${create} answered ${exchange.status} to a valid NewPet`, exchange, '201', statusFault(create, exchange.status));
  }
  if (!isPet(context, exchange.json)) context.skip(`${create} gave no pet to check further`);
  const run = runFieldsOf(context.contract.model);
  return {
    exchange,
    pet: exchange.json,
    sent: {
      [run.name]: JSON.stringify(name),
      [run.category]: categoryId,
      ...Object.fromEntries(Object.entries(fields.fields ?? {}).map(([field, value]) => [field, JSON.stringify(value)])),
    },
  };
}

/**
 * The fields of the spec's Pet on which two responses about one pet differ, a field shown on one side
 * and absent on the other included: a re-read must give back what was created.
 */
export function differingFields(fields: readonly string[], a: PetJson, b: PetJson): string[] {
  return fields.filter((field) => field in a !== field in b || (field in a && !sameJson(a[field], b[field])));
}

/** What the fields on which two records differ are in each, for a finding: `name: "Rex", tag: (absent)`. */
export function fieldsCompared(differ: readonly string[], expected: PetJson, actual: PetJson): { expected: string; actual: string } {
  const values = (pet: PetJson) => differ.map((field) => `${field}: ${field in pet ? exact(pet[field]) : '(absent)'}`).join(', ');
  return { expected: values(expected), actual: values(actual) };
}

/** Reads a created pet back by id and holds it to be the created one, field by field. */
export async function expectReread(context: CheckContext, created: PetJson, what: string): Promise<void> {
  const read = await context.call(context.kind('read'), { id: idOf(context, created) });
  if (read.status !== 200) {
    // A pet that exists answered with another status is one fault of the read, whichever check met it.
    const fault = read.status >= 400 ? statusFault(context.kind('read'), read.status) : `reread:${context.kind('read')}:${read.status}`;
    context.failStatus(`${context.kind('read')} answered ${read.status} for the pet ${idOf(context, created)} just created ${what}`, read, '200', fault);
    return;
  }
  const differ = isPet(context, read.json) ? differingFields(context.contract.fields(), created, read.json) : [context.idField];
  if (differ.length > 0)
    context.fail(`${context.kind('read')} answered the pet ${idOf(context, created)} created ${what} with other ${differ.join(', ')}`, read, {
      ...fieldsCompared(differ, created, isPet(context, read.json) ? read.json : {}),
      // One fault whichever fields differ: the store gives back another pet than it acknowledged (which fields depends on which pet).
      fault: `reread:${context.kind('read')}:changed`,
    });
}

/**
 * A pet that exists: the first listed, or, when the listing is empty, one this check creates for
 * itself. Each check has its own, so that a create that fails fails only the check that sent it
 * (and the report lists the others that fail the same way under it).
 */
export async function existingPet(context: CheckContext): Promise<PetJson> {
  const listed = context.state.listing[0];
  if (listed) return listed;
  if (context.state.readOnly) context.skip('the listing is empty and --read-only forbids creating a pet');
  return (await createPet(context, 'existing')).pet;
}

/** Fails the check when a pet just created is not on a page of the listing that has room for it. */
export function expectListed(context: CheckContext, pet: PetJson, page: { exchange: Exchange; pets: PetJson[] }, where: string): void {
  if (page.pets.some((listed) => idOf(context, listed) === idOf(context, pet))) return;
  context.fail(`the pet ${idOf(context, pet)} just created is missing from ${where}`, page.exchange, {
    expected: `id ${idOf(context, pet)} listed`,
    actual: `${page.pets.length} other pets`,
    fault: `listed:${context.kind('list')}:created`,
  });
}
