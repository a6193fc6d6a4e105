import { type ListFilter, operationOfKind } from '../../openapi/resource-model.js';
import { inOrder, LIST_ORDERS } from '../../profile/profile.js';
import { fewerThanLimitFault, moreThanLimitFault, otherValueFault, unknownValueFault } from '../causes.js';
import type { CheckContext, KindCheck } from '../check.js';
import { type Contract, filteredPage, listOf, sizedPage } from '../contract.js';
import { createPet, expectListed, idOf, listPage, maxLimit, type PetJson, petsOf } from '../pets.js';
import { ENUM_VALUES_TRIED } from '../run-bounds.js';
import type { Observations } from './observations.js';

const NOT_INTEGER_LIMITS = ['abc', '1.5'];
/** How many pets the default-page check creates before it counts again. */
const FILL_STEP = 5;
/** A limit below what one status usually has, so that the filter and the limit must work together. */
const SMALL_LIMIT = 2;

/**
 * The order a page of pets shows, or undefined when a page this short shows none. Names may be sorted
 * by code units (a binary collation) or by a language's collation: both are `name` (see `inOrder`);
 * the profile's `status` order is by the list's first filter's field.
 */
function orderOf(context: CheckContext, pets: readonly PetJson[], filter: ListFilter | undefined): Observations['listOrder'] {
  if (pets.length < 3) return undefined;
  const numeric = pets.every((pet) => /^-?\d+$/.test(idOf(context, pet)));
  const filtered = (pet: PetJson) => (filter !== undefined && typeof pet[filter.field] === 'string' ? String(pet[filter.field]) : undefined);
  const ordered = pets.map((pet) => ({ id: idOf(context, pet), name: String(pet.name ?? ''), status: filtered(pet) }));
  return LIST_ORDERS.find((order) => (numeric || !order.startsWith('id')) && inOrder(order, ordered)) ?? 'other';
}

function pageSize(context: CheckContext) {
  return listOf(context.contract).pageSize;
}

/** The query of a page of `size` records, by the list's page size parameter. */
function sized(context: CheckContext, size: number | string): string {
  return sizedPage(listOf(context.contract), size);
}

/** Values of the limit the interface forbids, derived from its bounds. */
function outOfRangeLimits(context: CheckContext): string[] {
  const { minimum, maximum } = pageSize(context);
  return [String(minimum - 1), String(minimum - 2), String(maximum + 1), String(maximum * 10), ...NOT_INTEGER_LIMITS];
}

/** What answering `limit` with a page (`answered`) or a 400 shows of the deployment's choice: each side of the range on its own, as a gateway may clamp above the maximum and refuse below the minimum. */
function limitChoice(limit: string, answered: boolean, maximum: number): Observations {
  if (NOT_INTEGER_LIMITS.includes(limit)) return { limitNotInteger: answered ? 'ignore' : 'refuse' };
  const choice = answered ? 'clamp' : 'refuse';
  return Number(limit) > maximum ? { limitOutOfRange: choice, limitAboveMaximum: choice } : { limitOutOfRange: choice, limitBelowMinimum: choice };
}

/** Without a page size, a page of the default size, once enough records exist (created when missing). */
async function defaultPage(context: CheckContext): Promise<void> {
  const list = context.kind('list');
  const { default: size, parameter } = pageSize(context);
  // Pets are only ever added while the run lasts, so what was seen or created is a lower bound.
  let existing = (await listPage(context)).pets.length;
  let filled = 0;
  // Other checks create pets meanwhile: fill in small steps and count again, to spend few writes.
  while (existing < size && !context.state.readOnly) {
    const step = Math.min(FILL_STEP, size - existing);
    for (let i = 0; i < step; i++) await createPet(context, `filler ${++filled}`);
    existing = Math.max(existing + step, (await listPage(context)).pets.length);
  }
  const { exchange, pets } = await listPage(context, '');
  const least = Math.min(size, existing);
  if (pets.length < least || pets.length > size) {
    context.fail(
      `${list} without ${parameter} answered ${pets.length} pets while at least ${existing} exist: ${parameter} defaults to ${size}, so a request without it gets up to ${size} pets`,
      exchange,
      {
        expected: existing >= size ? `${size} pets (the default ${parameter})` : `${least} to ${size} pets`,
        actual: `${pets.length} pets`,
        fault: pets.length < least ? fewerThanLimitFault(list) : moreThanLimitFault(list),
      },
    );
  }
}

/** A page size of 1, 5 and the maximum is honoured: no more, and no fewer than exist. */
async function honoursSize(context: CheckContext, size: string): Promise<void> {
  const list = context.kind('list');
  const max = maxLimit(context);
  const filters = listOf(context.contract).filters;
  // Pets are only ever added while the run lasts, so a count seen earlier is a lower bound:
  // together the pages of each filter's value show at least their distinct pets of that value
  // (counted by id and value, so that a filter that is ignored is the filter's fault, not the limit's).
  let seen = (await listPage(context, '')).pets.length;
  for (const filter of filters) {
    const matching = new Set<string>();
    for (const value of valuesOf(filter))
      for (const pet of (await listPage(context, filteredPage(listOf(context.contract), filter, value, max))).pets)
        if (String(pet[filter.field]) === value) matching.add(idOf(context, pet));
    seen = Math.max(seen, matching.size);
  }
  seen = Math.min(max, seen);
  const { exchange: full, pets: all } = await listPage(context);
  if (all.length > max)
    context.fail(`${list} with ${sized(context, max)} answered ${all.length} pets`, full, { expected: `at most ${max}`, actual: String(all.length) });
  if (all.length < seen) {
    context.fail(`${list} with ${sized(context, max)} answered fewer pets than exist`, full, {
      expected: `at least ${seen} (seen without ${size} and by ${filters.map((filter) => filter.parameter).join(' and ') || 'no filter'})`,
      actual: String(all.length),
      fault: fewerThanLimitFault(list),
    });
  }
  for (const limit of [1, 5]) {
    const { exchange, pets } = await listPage(context, sized(context, limit));
    const least = Math.min(limit, all.length);
    if (pets.length < least || pets.length > limit) {
      context.fail(`${list} with ${sized(context, limit)} answered ${pets.length} pets`, exchange, {
        expected: least === limit ? `${limit} pets` : `${least} to ${limit} pets`,
        actual: `${pets.length} pets`,
        fault: pets.length > limit ? moreThanLimitFault(list) : fewerThanLimitFault(list),
      });
    }
  }
}

/** A page size out of range or no integer is refused, clamped or ignored, never read as more. */
async function sizeInvalid(context: CheckContext): Promise<void> {
  const list = context.kind('list');
  const max = maxLimit(context);
  const { minimum, maximum, default: size } = pageSize(context);
  for (const limit of outOfRangeLimits(context)) {
    const exchange = await context.call(list, { query: sized(context, limit) });
    const count = petsOf(context, exchange.json).length;
    if (exchange.status === 200 || exchange.status === 400) context.observe(limitChoice(limit, exchange.status === 200, maximum));
    // Clamped, a limit above the range gives at most the maximum; below it, or no integer, at most the
    // minimum; ignored, the default page. More is a limit read another way (0 as "no limit").
    const most = Number(limit) > maximum ? max : size;
    if (exchange.status === 200 && count > most) {
      context.fail(
        `${list} with ${sized(context, limit)} answered ${count} pets: a ${pageSize(context).parameter} outside ${minimum} to ${maximum} is refused with 400, clamped into the range, or ignored (the default page of ${size}), never read as more`,
        exchange,
        { expected: `400, or at most ${most} pets`, actual: `${count} pets` },
      );
    } else if (exchange.status !== 200 && exchange.status !== 400) {
      context.failStatus(`${list} with ${sized(context, limit)} answered ${exchange.status}`, exchange, '400 or 200');
    }
  }
}

/** A page lists each record once; its order is observed for the profile. */
async function idsUnique(context: CheckContext): Promise<void> {
  const { exchange, pets } = await listPage(context);
  const order = orderOf(context, pets, listOf(context.contract).filters[0]);
  if (order) context.observe({ listOrder: order });
  const ids = pets.map((pet) => idOf(context, pet));
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) context.fail(`${context.kind('list')} lists the ids ${[...new Set(repeated)].join(', ')} more than once`, exchange);
}

/** The query of a page of the records whose field `filter` selects has `value`, of `limit` records. */
function page(context: CheckContext, filter: ListFilter, value: string, limit: number): string {
  return filteredPage(listOf(context.contract), filter, value, limit);
}

/** The records of `pets` whose field `filter` selects has another value than `value`. */
function strays(filter: ListFilter, pets: readonly PetJson[], value: string): PetJson[] {
  return pets.filter((pet) => pet[filter.field] !== undefined && String(pet[filter.field]) !== value);
}

/** Each value of the filter answers only records with it, and at least those listed with it at the start. */
async function onlyFiltered(context: CheckContext, filter: ListFilter): Promise<void> {
  const { parameter: name, field } = filter;
  const list = context.kind('list');
  const max = maxLimit(context);
  for (const value of valuesOf(filter)) {
    const { exchange, pets } = await listPage(context, page(context, filter, value, max));
    // No check changes a record's filtered field, so records listed with a value at the start still have it.
    const known = Math.min(max, context.state.listing.filter((pet) => String(pet[field]) === value).length);
    if (pets.length < known) {
      context.fail(`${list} with ${name}=${value} answered ${pets.length} pets, but ${known} with that ${field} were listed at the start`, exchange, {
        expected: `at least ${known}`,
        actual: String(pets.length),
      });
    }
    const stray = strays(filter, pets, value);
    if (stray.length > 0) {
      context.fail(`${list} with ${name}=${value} answered ${stray.length} pet(s) of another ${field}`, exchange, {
        expected: `only ${field} ${value}`,
        actual: `ids ${stray
          .map((pet) => idOf(context, pet))
          .slice(0, 5)
          .join(', ')} with ${field} ${[...new Set(stray.map((pet) => String(pet[field])))].join(', ')}`,
        fault: otherValueFault(field),
      });
    }
  }
}

/** A record created with the filter's last value is on the page of that value, when the page has room. */
async function newPetFiltered(context: CheckContext, filter: ListFilter): Promise<void> {
  const { parameter: name, field } = filter;
  const list = context.kind('list');
  const max = maxLimit(context);
  const value = valuesOf(filter).at(-1) ?? '';
  const { pet } = await createPet(context, `${field} ${value}`, { fields: { [field]: value } });
  const listed = await listPage(context, page(context, filter, value, max));
  if (listed.pets.length >= max) context.skip(`the page of ${field} ${value} is full (${max}), so a new pet need not be on it`);
  expectListed(context, pet, listed, `${list}?${name}=${value}`);
}

/** A filter and a small page size together: that many records of the value, when they exist. */
async function filteredSmallPage(context: CheckContext, filter: ListFilter): Promise<void> {
  const { field } = filter;
  const list = context.kind('list');
  const max = maxLimit(context);
  for (const value of valuesOf(filter)) {
    // Pets are only ever added while the run lasts: the count of the full page is a lower bound.
    const { pets: all } = await listPage(context, page(context, filter, value, max));
    const query = page(context, filter, value, SMALL_LIMIT);
    const { exchange, pets } = await listPage(context, query);
    const least = Math.min(SMALL_LIMIT, all.length);
    const stray = strays(filter, pets, value);
    if (pets.length < least || pets.length > SMALL_LIMIT || stray.length > 0) {
      context.fail(`${list} with ${query} answered ${pets.length} pets, ${stray.length} of another ${field}`, exchange, {
        expected: `${least === SMALL_LIMIT ? SMALL_LIMIT : `${least} to ${SMALL_LIMIT}`} pets of ${field} ${value} (${all.length} listed with ${sized(context, max)})`,
        actual: `${pets.length} pets${stray.length > 0 ? `, ids ${stray.map((pet) => idOf(context, pet)).join(', ')} of another ${field}` : ''}`,
        fault: stray.length > 0 ? otherValueFault(field) : pets.length > SMALL_LIMIT ? moreThanLimitFault(list) : fewerThanLimitFault(list),
      });
    }
  }
}

/** A value outside the filter's enum is refused with 400 or answers an empty page. */
async function filterInvalid(context: CheckContext, filter: ListFilter): Promise<void> {
  const { parameter: name } = filter;
  const list = context.kind('list');
  const exchange = await context.call(list, { query: `${name}=petstore-verify-unknown` });
  const count = petsOf(context, exchange.json).length;
  if (exchange.status === 400 || (exchange.status === 200 && count === 0)) context.observe({ unknownStatus: exchange.status === 400 ? 'refuse' : 'empty' });
  if (exchange.status === 200 ? count > 0 : exchange.status !== 400) {
    context.fail(`${list} with an unknown ${name} answered ${exchange.status} with ${count} pets`, exchange, {
      expected: '400, or 200 with no pets',
      actual: `${exchange.status}, ${count} pets`,
      ...(count > 0 ? { fault: unknownValueFault(list, name) } : {}),
    });
  }
}

/** A check of the list named `name`, which reads the deployment and writes nothing unless `writes`. */
function listCheck(name: string, title: (op: string) => string, run: KindCheck['run'], writes = false): KindCheck {
  return { kind: 'list', name, title, writes, run };
}

/** The checks of the page size, named after its parameter (`limit`, `limit-invalid`). */
function pageSizeChecks(size: string): KindCheck[] {
  return [
    listCheck('default-page', (op) => `${op} answers the default page size when enough pets exist (creating what is missing)`, defaultPage),
    listCheck(
      size,
      (op) => `${op} honours ${size} 1, a middle value and the maximum`,
      (context) => honoursSize(context, size),
    ),
    listCheck(`${size}-invalid`, (op) => `${op} answers an out-of-range or non-integer ${size} with 400 or a valid page of at most the maximum`, sizeInvalid),
    listCheck('ids-unique', (op) => `${op} lists each pet once`, idsUnique),
  ];
}

/** The values of a filter its checks try, as the query spells them: the first `ENUM_VALUES_TRIED` of its enum. */
function valuesOf(filter: ListFilter): string[] {
  return filter.values.slice(0, ENUM_VALUES_TRIED).map(String);
}

/** The checks of one filter of the list, named after its parameter (`status-filter`, `status-limit`, `status-invalid`). */
function filterChecks(filter: ListFilter, size: string): KindCheck[] {
  const { parameter: name } = filter;
  return [
    listCheck(
      `${name}-filter`,
      (op) => `${op} with a ${name} answers only pets of that ${name}`,
      (context) => onlyFiltered(context, filter),
    ),
    listCheck(
      `${name}-filter-new-pet`,
      (op) => `${op} with a ${name} includes a pet just created with it (when the page is not full)`,
      (context) => newPetFiltered(context, filter),
      true,
    ),
    listCheck(
      `${name}-${size}`,
      (op) => `${op} with a ${name} and a small ${size} answers that many pets of that ${name} when they exist`,
      (context) => filteredSmallPage(context, filter),
    ),
    listCheck(
      `${name}-invalid`,
      (op) => `${op} answers a ${name} outside the enum with 400 or an empty page`,
      (context) => filterInvalid(context, filter),
    ),
  ];
}

/**
 * The checks of the spec's list, made from the resource model: those of its page size named after
 * its parameter, and those of each filter (an enum query parameter) named after it, so that a spec
 * that names them otherwise is checked with no code here.
 */
export function listChecks(contract: Contract): KindCheck[] {
  const list = operationOfKind(contract.model, 'list');
  if (list === undefined) return [];
  // A list without a page size still has its checks: each fails, naming what the spec lacks (listOf).
  const size = list.pageSize?.parameter ?? 'page-size';
  return [...pageSizeChecks(size), ...list.filters.flatMap((filter) => filterChecks(filter, size))];
}
