import { SpecError } from '../../errors.js';
import { inOrder, type ListOrder } from '../../profile/profile.js';
import { fewerThanLimitFault, moreThanLimitFault, OTHER_STATUS, unknownValueFault } from '../causes.js';
import type { CheckContext, KindCheck } from '../check.js';
import { filterValues, listOf } from '../contract.js';
import { createPet, expectListed, idOf, listPage, maxLimit, type PetJson, petsOf } from '../pets.js';
import type { Observations } from './observations.js';

const NOT_INTEGER_LIMITS = ['abc', '1.5'];
/** How many pets the default-page check creates before it counts again. */
const FILL_STEP = 5;
/** A limit below what one status usually has, so that the filter and the limit must work together. */
const SMALL_LIMIT = 2;

/** The orders a page may show, the id orders first: a page sorted by id is not said to be sorted by name by chance. */
const ORDERS: readonly ListOrder[] = ['id-asc', 'id-desc', 'name', 'status'];

/**
 * The order a page of pets shows, or undefined when a page this short shows none. Names may be sorted
 * by code units (a binary collation) or by a language's collation: both are `name` (see `inOrder`).
 */
function orderOf(pets: readonly PetJson[]): Observations['listOrder'] {
  if (pets.length < 3) return undefined;
  const numeric = pets.every((pet) => /^-?\d+$/.test(idOf(pet)));
  const ordered = pets.map((pet) => ({ id: idOf(pet), name: String(pet.name ?? ''), status: typeof pet.status === 'string' ? pet.status : undefined }));
  return ORDERS.find((order) => (numeric || !order.startsWith('id')) && inOrder(order, ordered)) ?? 'other';
}

function pageSize(context: CheckContext) {
  return listOf(context.contract).pageSize;
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

export const listChecks: KindCheck[] = [
  {
    kind: 'list',
    name: 'default-page',
    title: (op) => `${op} answers the default page size when enough pets exist (creating what is missing)`,
    writes: false,
    async run(context) {
      const list = context.kind('list');
      const size = pageSize(context).default;
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
          `${list} without limit answered ${pets.length} pets while at least ${existing} exist: limit defaults to ${size}, so a request without it gets up to ${size} pets`,
          exchange,
          {
            expected: existing >= size ? `${size} pets (the default limit)` : `${least} to ${size} pets`,
            actual: `${pets.length} pets`,
            fault: pets.length < least ? fewerThanLimitFault(list) : moreThanLimitFault(list),
          },
        );
      }
    },
  },
  {
    kind: 'list',
    name: 'limit',
    title: (op) => `${op} honours limit 1, a middle value and the maximum`,
    writes: false,
    async run(context) {
      const list = context.kind('list');
      const max = maxLimit(context);
      // Pets are only ever added while the run lasts, so a count seen earlier is a lower bound:
      // together the pages of each status show at least their distinct pets of that status (counted
      // by id and status, so that a filter that is ignored is the filter's fault, not the limit's).
      let seen = (await listPage(context, '')).pets.length;
      const byStatus = new Set<string>();
      for (const status of filterValues(context.contract, 'status'))
        for (const pet of (await listPage(context, `status=${status}&limit=${max}`)).pets) if (pet.status === status) byStatus.add(idOf(pet));
      seen = Math.min(max, Math.max(seen, byStatus.size));
      const { exchange: full, pets: all } = await listPage(context);
      if (all.length > max)
        context.fail(`${list} with limit=${max} answered ${all.length} pets`, full, { expected: `at most ${max}`, actual: String(all.length) });
      if (all.length < seen) {
        context.fail(`${list} with limit=${max} answered fewer pets than exist`, full, {
          expected: `at least ${seen} (seen without a limit and by status)`,
          actual: String(all.length),
          fault: fewerThanLimitFault(list),
        });
      }
      for (const limit of [1, 5]) {
        const { exchange, pets } = await listPage(context, `limit=${limit}`);
        const least = Math.min(limit, all.length);
        if (pets.length < least || pets.length > limit) {
          context.fail(`${list} with limit=${limit} answered ${pets.length} pets`, exchange, {
            expected: least === limit ? `${limit} pets` : `${least} to ${limit} pets`,
            actual: `${pets.length} pets`,
            fault: pets.length > limit ? moreThanLimitFault(list) : fewerThanLimitFault(list),
          });
        }
      }
    },
  },
  {
    kind: 'list',
    name: 'limit-invalid',
    title: (op) => `${op} answers an out-of-range or non-integer limit with 400 or a valid page of at most the maximum`,
    writes: false,
    async run(context) {
      const list = context.kind('list');
      const max = maxLimit(context);
      const { minimum, maximum, default: size } = pageSize(context);
      for (const limit of outOfRangeLimits(context)) {
        const exchange = await context.call(list, { query: `limit=${encodeURIComponent(limit)}` });
        const count = petsOf(exchange).length;
        if (exchange.status === 200 || exchange.status === 400) context.observe(limitChoice(limit, exchange.status === 200, maximum));
        // Clamped, a limit above the range gives at most the maximum; below it, or no integer, at most the
        // minimum; ignored, the default page. More is a limit read another way (0 as "no limit").
        const most = Number(limit) > maximum ? max : size;
        if (exchange.status === 200 && count > most) {
          context.fail(
            `${list} with limit=${limit} answered ${count} pets: a limit outside ${minimum} to ${maximum} is refused with 400, clamped into the range, or ignored (the default page of ${size}), never read as more`,
            exchange,
            { expected: `400, or at most ${most} pets`, actual: `${count} pets` },
          );
        } else if (exchange.status !== 200 && exchange.status !== 400) {
          context.fail(`${list} with limit=${limit} answered ${exchange.status}`, exchange, { expected: '400 or 200', actual: String(exchange.status) });
        }
      }
    },
  },
  {
    kind: 'list',
    name: 'ids-unique',
    title: (op) => `${op} lists each pet once`,
    writes: false,
    async run(context) {
      const { exchange, pets } = await listPage(context);
      const order = orderOf(pets);
      if (order) context.observe({ listOrder: order });
      const ids = pets.map(idOf);
      const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
      if (repeated.length > 0) context.fail(`${context.kind('list')} lists the ids ${[...new Set(repeated)].join(', ')} more than once`, exchange);
    },
  },
  {
    kind: 'list',
    name: 'status-filter',
    title: (op) => `${op} with a status answers only pets of that status`,
    writes: false,
    async run(context) {
      const list = context.kind('list');
      const max = maxLimit(context);
      for (const status of filterValues(context.contract, 'status')) {
        const { exchange, pets } = await listPage(context, `status=${status}&limit=${max}`);
        // No operation changes a pet's status, so pets listed with it at the start still have it.
        const known = Math.min(max, context.state.listing.filter((pet) => pet.status === status).length);
        if (pets.length < known) {
          context.fail(`${list} with status=${status} answered ${pets.length} pets, but ${known} with that status were listed at the start`, exchange, {
            expected: `at least ${known}`,
            actual: String(pets.length),
          });
        }
        const others = pets.filter((pet) => pet.status !== undefined && pet.status !== status);
        if (others.length > 0) {
          context.fail(`${list} with status=${status} answered ${others.length} pet(s) of another status`, exchange, {
            expected: `only status ${status}`,
            actual: `ids ${others.map(idOf).slice(0, 5).join(', ')} with status ${[...new Set(others.map((pet) => String(pet.status)))].join(', ')}`,
            fault: OTHER_STATUS,
          });
        }
      }
    },
  },
  {
    kind: 'list',
    name: 'status-filter-new-pet',
    title: (op) => `${op} with a status includes a pet just created with it (when the page is not full)`,
    writes: true,
    async run(context) {
      const list = context.kind('list');
      const max = maxLimit(context);
      const statuses = filterValues(context.contract, 'status');
      const status = statuses.at(-1);
      if (status === undefined) throw new SpecError(`the spec gives the status parameter of ${list} no enum`);
      const { pet } = await createPet(context, `status ${status}`, { status });
      const page = await listPage(context, `status=${status}&limit=${max}`);
      if (page.pets.length >= max) context.skip(`the page of status ${status} is full (${max}), so a new pet need not be on it`);
      expectListed(context, pet, page, `${list}?status=${status}`);
    },
  },
  {
    kind: 'list',
    name: 'status-limit',
    title: (op) => `${op} with a status and a small limit answers that many pets of that status when they exist`,
    writes: false,
    async run(context) {
      const list = context.kind('list');
      const max = maxLimit(context);
      for (const status of filterValues(context.contract, 'status')) {
        // Pets are only ever added while the run lasts: the count of the full page is a lower bound.
        const { pets: all } = await listPage(context, `status=${status}&limit=${max}`);
        const { exchange, pets } = await listPage(context, `status=${status}&limit=${SMALL_LIMIT}`);
        const least = Math.min(SMALL_LIMIT, all.length);
        const others = pets.filter((pet) => pet.status !== undefined && pet.status !== status);
        if (pets.length < least || pets.length > SMALL_LIMIT || others.length > 0) {
          context.fail(`${list} with status=${status}&limit=${SMALL_LIMIT} answered ${pets.length} pets, ${others.length} of another status`, exchange, {
            expected: `${least === SMALL_LIMIT ? SMALL_LIMIT : `${least} to ${SMALL_LIMIT}`} pets of status ${status} (${all.length} listed with limit=${max})`,
            actual: `${pets.length} pets${others.length > 0 ? `, ids ${others.map(idOf).join(', ')} of another status` : ''}`,
            fault: others.length > 0 ? OTHER_STATUS : pets.length > SMALL_LIMIT ? moreThanLimitFault(list) : fewerThanLimitFault(list),
          });
        }
      }
    },
  },
  {
    kind: 'list',
    name: 'status-invalid',
    title: (op) => `${op} answers a status outside the enum with 400 or an empty page`,
    writes: false,
    async run(context) {
      const list = context.kind('list');
      const exchange = await context.call(list, { query: 'status=petstore-verify-unknown' });
      const count = petsOf(exchange).length;
      if (exchange.status === 400 || (exchange.status === 200 && count === 0)) context.observe({ unknownStatus: exchange.status === 400 ? 'refuse' : 'empty' });
      if (exchange.status === 200 ? count > 0 : exchange.status !== 400) {
        context.fail(`${list} with an unknown status answered ${exchange.status} with ${count} pets`, exchange, {
          expected: '400, or 200 with no pets',
          actual: `${exchange.status}, ${count} pets`,
          ...(count > 0 ? { fault: unknownValueFault(list, 'status') } : {}),
        });
      }
    },
  },
];
