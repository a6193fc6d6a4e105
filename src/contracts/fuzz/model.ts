/**
 * What a deployment must hold while a sequence of calls runs, as the fuzz suite's model: pets listed
 * at the start and pets the sequence created exist, are readable as they were created, are listed on
 * every page that is not full, and no create reuses their ids; pages keep to their limit and filter;
 * what the spec rejects is rejected. Where the interface leaves a choice (the order of the list, 400
 * or 404 for an id that is no int64, what an out-of-range limit or an unknown status gets, the status
 * of a pet created without one, a category the deployment does not know) every legal answer passes.
 *
 * Each judgment takes what was sent and the response, and says what is wrong, or nothing. The model
 * holds only what this sequence did (and the listing at the start), so that the calls it prints
 * reproduce the failure.
 */
import type { JsonValue } from '../../json/lossless.js';
import { BUNDLED_MODEL } from '../../openapi/bundled-model.js';
import { fewerThanLimitFault, moreThanLimitFault, otherValueFault, unknownValueFault } from '../causes.js';
import { statusFault } from '../check.js';
import { lenientIntegerFault } from '../checks/check-inputs.js';
import { integerDenoted } from '../integer-spellings.js';
import { absentIdBeyond } from '../pet-fields.js';
import { changedFieldFault, differingFields, exact, fieldsCompared, idOf, isPet, type PetJson, petsOf } from '../pets.js';
import { type BodyInput, type ListInput, malformedId, type ReadInput } from './fuzz-inputs.js';

/** A response the model does not allow: what was wrong, with what it expected. */
export interface Violation {
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /** The fault, named as the spec suite's checks name it, so that a fault both find is reported once (causes.ts). */
  readonly fault?: string;
}

/** The spec's operations the model judges, by kind, the path parameter of the id and the list's first filter: they name its messages and faults. */
export interface JudgedOperations {
  readonly list: string;
  readonly create: string;
  readonly read: string;
  readonly idParameter: string;
  /** The list's filter the queries use (`status`), when it has one. */
  readonly filter: { readonly parameter: string; readonly field: string } | undefined;
}

/** What the model knows of the deployment while one sequence runs. */
export interface FuzzModel {
  readonly named: JudgedOperations;
  /** The fields of the spec's Pet. */
  readonly petFields: readonly string[];
  /** The first page of the listing when the run started: those pets exist throughout. */
  readonly listed: readonly PetJson[];
  /** The pets this sequence created, as their 201 showed them. */
  readonly created: PetJson[];
  /** Integer fields (`categoryId=3`) a create of this sequence was accepted with: a deployment that took one does not then refuse it. */
  readonly accepted: Set<string>;
  /** The pets of this sequence a delete removed: never read, listed or given to a new pet again. */
  readonly removed: PetJson[];
  /** The name of the record's id field, from the resource model. */
  readonly idField: string;
}

/** The model of a sequence's start: the records among `listing`, by the model's id field. */
export function emptyModel(named: JudgedOperations, petFields: readonly string[], listing: unknown, idField = BUNDLED_MODEL.id.field): FuzzModel {
  return { named, petFields, listed: petsOf({ idField }, listing), created: [], accepted: new Set(), removed: [], idField };
}

/** The pet of this sequence a delete with `index` removes, when it created one. */
export function petToRemove(model: FuzzModel, index: number): PetJson | undefined {
  return model.created[index % Math.max(1, model.created.length)];
}

/** A delete of a pet this sequence created: its documented success, after which the model holds the pet removed. */
export function judgeDelete(model: FuzzModel, operation: { operationId: string; success: number }, pet: PetJson, status: number): Violation | undefined {
  if (status !== operation.success)
    return {
      message: `${operation.operationId} answered ${status} for the pet ${idOf(model, pet)} created in this sequence`,
      expected: String(operation.success),
      actual: String(status),
      fault: statusFault(operation.operationId, status),
    };
  model.created.splice(model.created.indexOf(pet), 1);
  model.removed.push(pet);
  return undefined;
}

/** The pet of this sequence removed with `id`, if one was. */
function removedWith(model: FuzzModel, id: string): PetJson | undefined {
  return model.removed.find((pet) => idOf(model, pet) === id);
}

/** The pet known to exist with `id`, if there is one. */
function knownWith(model: FuzzModel, id: string): PetJson | undefined {
  return knownPets(model).find((pet) => idOf(model, pet) === id);
}

/** Every pet known to exist: those this sequence created, then those listed at the start. */
function knownPets(model: FuzzModel): PetJson[] {
  const created = new Set(model.created.map((pet) => idOf(model, pet)));
  return [...model.created, ...model.listed.filter((pet) => !created.has(idOf(model, pet)))];
}

function where(model: FuzzModel, pet: PetJson): string {
  return model.created.some((made) => idOf(model, made) === idOf(model, pet)) ? 'created in this sequence' : 'listed at the start';
}

/** The integer fields of a body (`categoryId=3`): what a deployment may refuse when it does not know the value. */
function integerFields(body: BodyInput): string[] {
  return Object.entries(body.fields)
    .filter(([, text]) => /^-?\d+$/.test(text))
    .map(([field, text]) => `${field}=${text}`);
}

function createdPet(model: FuzzModel, body: BodyInput, pet: JsonValue | undefined): Violation | undefined {
  if (!isPet(model, pet)) return { message: `${model.named.create} answered 201 without a pet`, expected: 'a Pet with its id' };
  for (const [field, sent] of Object.entries(body.fields)) {
    if (exact(pet[field]) !== sent)
      return {
        message: `${model.named.create} changed ${field}`,
        expected: sent,
        actual: pet[field] === undefined ? '(missing)' : exact(pet[field]),
        fault: changedFieldFault(model.named.create, field, sent, pet[field]),
      };
  }
  const taken = knownWith(model, idOf(model, pet));
  if (taken)
    return {
      message: `${model.named.create} gave a new pet the id ${idOf(model, pet)} of a pet ${where(model, taken)}`,
      expected: 'an id no pet has',
      actual: idOf(model, pet),
    };
  if (removedWith(model, idOf(model, pet)))
    return {
      message: `${model.named.create} gave a new pet the id ${idOf(model, pet)} of a pet removed in this sequence`,
      expected: 'an id never given before',
      actual: idOf(model, pet),
    };
  model.created.push(pet);
  for (const field of integerFields(body)) model.accepted.add(field);
  return undefined;
}

/** createPet: 201 with the pet as sent and a new id for a valid body (or 400 for a value it does not know), 400 for an invalid one. */
export function judgeCreate(model: FuzzModel, body: BodyInput, status: number, json: JsonValue | undefined): Violation | undefined {
  if (!body.valid)
    return status === 400
      ? undefined
      : { message: `${model.named.create} answered ${status} to a body with ${body.what}`, expected: '400', actual: String(status) };
  if (status === 201) return createdPet(model, body, json);
  if (status !== 400)
    return {
      message: `${model.named.create} answered ${status} to a valid body`,
      expected: '201, or 400 for a category it does not know',
      actual: String(status),
      fault: statusFault(`${model.named.create}`, status),
    };
  const fields = integerFields(body);
  if (fields.length > 0 && fields.every((field) => model.accepted.has(field)))
    return {
      message: `${model.named.create} refused (400) a valid body with ${fields.join(', ')}, which it accepted earlier in this sequence`,
      expected: '201',
      actual: '400',
    };
  return undefined;
}

/** The page size a query asks for, when it asks for one the spec allows (absent: the spec's default). */
function askedLimit(input: ListInput, bounds: { default: number }): number | undefined {
  if (input.limit.kind === 'absent') return bounds.default;
  return input.limit.kind === 'valid' ? input.limit.value : undefined;
}

function pageProblem(model: FuzzModel, input: ListInput, pets: readonly PetJson[], bounds: { default: number; maximum: number }): Violation | undefined {
  const limit = askedLimit(input, bounds);
  const most = limit ?? bounds.maximum;
  if (pets.length > most)
    return {
      message: `${model.named.list} answered ${pets.length} pets for ${input.query === '' ? 'no query' : input.query}`,
      expected: `at most ${most}`,
      actual: String(pets.length),
      ...(limit === undefined ? {} : { fault: moreThanLimitFault(model.named.list) }),
    };
  const { filter: by } = model.named;
  const filter = input.status.kind === 'valid' && by !== undefined ? input.status.value : undefined;
  const has = (pet: PetJson) => by === undefined || filter === undefined || String(pet[by.field]) === filter;
  const stray = pets.find((pet) => !has(pet));
  if (stray && by)
    return {
      message: `${model.named.list} filtered by ${by.parameter}=${filter} answered the pet ${idOf(model, stray)} with ${by.field} ${exact(stray[by.field])}`,
      expected: `${by.field} ${filter}`,
      actual: exact(stray[by.field]),
      fault: otherValueFault(by.field),
    };
  const gone = pets.find((pet) => removedWith(model, idOf(model, pet)));
  if (gone)
    return {
      message: `${model.named.list} (${input.query === '' ? 'no query' : input.query}) lists the pet ${idOf(model, gone)} removed in this sequence`,
      expected: `no pet ${idOf(model, gone)}`,
      actual: `the pet ${idOf(model, gone)} listed`,
      fault: `deleted:${model.named.list}:listed`,
    };
  for (const pet of pets) {
    const known = knownWith(model, idOf(model, pet));
    // A listing may show fewer fields than a create or a read: only those both show are compared.
    const differ = known
      ? differingFields(
          model.petFields.filter((field) => field in known && field in pet),
          known,
          pet,
        )
      : [];
    if (known && differ.length > 0)
      return {
        message: `${model.named.list} shows the pet ${idOf(model, pet)} ${where(model, known)} with other ${differ.join(', ')}`,
        expected: differ.map((f) => `${f}: ${exact(known[f])}`).join(', '),
        actual: differ.map((f) => `${f}: ${exact(pet[f])}`).join(', '),
      };
  }
  // A page shorter than its limit is the whole listing (in any order): every pet known to exist that matches is on it.
  if (limit === undefined || pets.length >= limit) return undefined;
  const shown = new Set(pets.map((pet) => idOf(model, pet)));
  const missing = knownPets(model).find((pet) => has(pet) && !shown.has(idOf(model, pet)));
  if (missing)
    return {
      message: `${model.named.list} (${input.query === '' ? 'no query' : input.query}) answered a page of ${pets.length}, fewer than its limit ${limit}, without the pet ${idOf(model, missing)} ${where(model, missing)}`,
      expected: `the pet ${idOf(model, missing)} listed`,
      actual: `${pets.length} other pets`,
      fault: fewerThanLimitFault(model.named.list),
    };
  return undefined;
}

/** listPets: a page within its limit, of pets matching its filter, with every known pet when not full; 400 or a lenient page only for what the spec rejects. */
export function judgeList(
  model: FuzzModel,
  input: ListInput,
  status: number,
  json: JsonValue | undefined,
  bounds: { default: number; maximum: number },
): Violation | undefined {
  const rejectable = input.limit.kind === 'outside' || input.limit.kind === 'mistyped' || input.status.kind === 'outside';
  if (status === 400)
    return rejectable
      ? undefined
      : { message: `${model.named.list} answered 400 to a valid query (${input.query === '' ? 'none' : input.query})`, expected: '200', actual: '400' };
  if (status !== 200) return { message: `${model.named.list} answered ${status}`, expected: rejectable ? '200 or 400' : '200', actual: String(status) };
  // A body that is not an array breaks the schema: conformance says so.
  if (!Array.isArray(json)) return undefined;
  // No pet has a value outside the filter's enum: the page is empty, whatever its limit.
  const { filter } = model.named;
  if (input.status.kind === 'outside' && filter)
    return json.length === 0
      ? undefined
      : {
          message: `${model.named.list} answered ${json.length} pets for ${filter.parameter}=${input.status.value}, outside the enum`,
          expected: '400, or an empty page',
          actual: `${json.length} pets`,
          fault: unknownValueFault(model.named.list, filter.parameter),
        };
  return pageProblem(model, input, petsOf(model, json), bounds);
}

/** The id a read asks for, from the pets known to exist; undefined for a known pet when none is known. */
export function idToRead(model: FuzzModel, input: ReadInput): string | undefined {
  const known = knownPets(model);
  if (input.kind === 'absent') {
    const { offset } = input;
    const beyond = () => BigInt(absentIdBeyond(known.map((pet) => idOf(model, pet)))) + offset;
    return String({ beyond, zero: () => 0n, negative: () => -1n - offset, max: () => 2n ** 63n - 1n - offset, min: () => -(2n ** 63n) + offset }[input.edge]());
  }
  // A pet this sequence removed, a quarter of the times a pet of its own is asked for: it must be gone.
  const removed = input.kind === 'known' && input.created && input.index % 4 === 3 ? model.removed[input.index % Math.max(1, model.removed.length)] : undefined;
  if (removed) return idOf(model, removed);
  // Half the time a pet of this sequence, when it created one: a fault of state shows on what the sequence did.
  const among = input.kind === 'known' && input.created && model.created.length > 0 ? model.created : known;
  const pet = among[input.index % Math.max(1, among.length)];
  if (!pet) return input.kind === 'malformed' ? malformedId(input.form, '1') : undefined;
  return input.kind === 'known' ? idOf(model, pet) : malformedId(input.form, idOf(model, pet));
}

function readKnown(model: FuzzModel, pet: PetJson, status: number, json: JsonValue | undefined): Violation | undefined {
  if (status !== 200)
    return {
      message: `${model.named.read} answered ${status} for the pet ${idOf(model, pet)} ${where(model, pet)}`,
      expected: '200',
      actual: String(status),
      ...(status >= 400 ? { fault: statusFault(`${model.named.read}`, status) } : {}),
    };
  if (!isPet(model, json)) return undefined;
  const mine = model.created.includes(pet);
  // A re-read gives back what was created, field for field; a listed pet may show more fields when read.
  const fields = mine ? model.petFields : model.petFields.filter((field) => field in pet && field in json);
  const differ = idOf(model, json) === idOf(model, pet) ? differingFields(fields, pet, json) : [model.idField];
  if (differ.length === 0) return undefined;
  return {
    message: `${model.named.read} answered the pet ${idOf(model, pet)} ${where(model, pet)} with other ${differ.join(', ')}`,
    ...fieldsCompared(differ, pet, json),
  };
}

/** The fault of a read answered wrong, as the spec suite's checks name it. */
function readFault(model: FuzzModel, input: ReadInput, status: number, json: JsonValue | undefined): { fault?: string } {
  if (status >= 400) return { fault: statusFault(`${model.named.read}`, status) };
  if (status !== 200) return {};
  // A pet for a text no int64 is: the lenient reading getPet.petId-spellings finds.
  if (input.kind === 'malformed') return isPet(model, json) ? { fault: lenientIntegerFault(model.named.read, model.named.idParameter) } : {};
  return { fault: statusFault(model.named.read, 200) };
}

/** getPet: 200 with the pet for one known to exist; 404 for an absent id (400 too at the int64 edges); 400 or 404 for a text no int64 is. */
export function judgeRead(model: FuzzModel, input: ReadInput, id: string, status: number, json: JsonValue | undefined): Violation | undefined {
  const removed = input.kind === 'known' ? removedWith(model, id) : undefined;
  if (removed && status !== 404)
    return {
      message: `${model.named.read} answered ${status} for the pet ${id} removed in this sequence`,
      expected: '404',
      actual: String(status),
      fault: `deleted:${model.named.read}:${status}`,
    };
  if (input.kind === 'known') {
    const pet = knownWith(model, id);
    return pet && readKnown(model, pet, status, json);
  }
  // An id that some pet beyond the model's knowledge has is served as that pet.
  if (status === 200 && input.kind === 'absent' && isPet(model, json) && idOf(model, json) === id) return undefined;
  // A spelling that denotes an id (`+7`, ` 7`, `7e0`) may be served as its pet: the spec suite's probe advises on it (integer-spellings.ts).
  if (status === 200 && input.kind === 'malformed' && isPet(model, json) && idOf(model, json) === String(integerDenoted(id))) return undefined;
  const allowed = input.kind === 'malformed' || input.edge !== 'beyond' ? [400, 404] : [404];
  if (allowed.includes(status)) return undefined;
  const what = input.kind === 'malformed' ? `${JSON.stringify(id)}, which is no int64 (${input.form})` : `${id}, which no pet is known to have`;
  const served = status === 200 && isPet(model, json) ? `, the pet ${idOf(model, json)}` : '';
  return {
    message: `${model.named.read} answered ${status}${served} for the id ${what}`,
    expected: allowed.join(' or '),
    actual: String(status),
    ...readFault(model, input, status, json),
  };
}
