import { operationOfKind } from '../../openapi/resource-model.js';
import { type CheckContext, type KindCheck, statusFault } from '../check.js';
import { absentId, existingPet, idOf, isPet, notIds, samePet } from '../pets.js';
import { clockName, deploymentClock, sunsetDay } from '../removal.js';
import { lenientIntegerFault } from './check-inputs.js';

const DAY_MS = 86_400_000;

/** Ids at the edges of int64, and one past each (no int64: a store's bigint must not overflow on them into a 500). */
const BOUNDARY_IDS: readonly [string, string][] = [
  ['0', 'zero'],
  ['-1', 'a negative id'],
  ['9223372036854775807', 'the int64 maximum'],
  ['-9223372036854775808', 'the int64 minimum'],
  ['9223372036854775808', 'one past the int64 maximum'],
  ['-9223372036854775809', 'one past the int64 minimum'],
];

/** Where the spec sends clients of the deprecated read: its `x-replacement`, with the filter to use when that is the list. */
function replacementOf(context: CheckContext): string {
  const list = context.kind('list');
  const { model } = context.contract;
  const replacement = operationOfKind(model, 'read')?.deprecation?.replacement ?? list;
  const filter = operationOfKind(model, 'list')?.filters[0];
  return replacement === list && filter !== undefined ? `${replacement} with the ${filter.parameter} filter` : replacement;
}

export const getChecks: KindCheck[] = [
  {
    kind: 'read',
    name: 'existing',
    title: (op) => `${op} answers 200 with the same pet the listing shows`,
    writes: false,
    async run(context) {
      const read = context.kind('read');
      const pet = await existingPet(context);
      const exchange = await context.call(read, { id: idOf(context, pet) });
      if (exchange.status !== 200) context.failStatus(`${read} answered ${exchange.status} for the listed pet ${idOf(context, pet)}`, exchange, '200');
      else if (!isPet(context, exchange.json) || !samePet(context, exchange.json, pet))
        context.fail(`${read} answered another pet than the listing shows for id ${idOf(context, pet)}`, exchange);
    },
  },
  {
    kind: 'read',
    name: 'absent',
    title: (op) => `${op} answers 404 for an id no pet has`,
    writes: false,
    async run(context) {
      const read = context.kind('read');
      const id = absentId(context);
      const exchange = await context.call(read, { id });
      const fault = exchange.status === 200 ? statusFault(read, 200) : undefined;
      if (exchange.status !== 404) context.failStatus(`${read} answered ${exchange.status} for the absent id ${id}`, exchange, '404', fault);
    },
  },
  {
    kind: 'read',
    name: 'not-an-integer',
    title: (op) => `${op} answers 400 or 404 for an id that is not an integer`,
    writes: false,
    async run(context) {
      const read = context.kind('read');
      const texts = notIds(context);
      if (texts.length === 0) context.skip(`the id ${context.contract.model.id.field} is a string: every text is one`);
      for (const id of texts) {
        const exchange = await context.call(read, { id });
        if (exchange.status === 400 || exchange.status === 404) context.observe({ nonIntegerPetId: exchange.status });
        if (exchange.status === 400 || exchange.status === 404) continue;
        // A pet for `1.5` is the lenient reading getPet.petId-spellings finds too: one fault, reported once.
        const lenient = exchange.status === 200 && isPet(context, exchange.json);
        const fault = lenient ? lenientIntegerFault(read, context.contract.model.id.parameter) : undefined;
        context.failStatus(`${read} answered ${exchange.status} for the id ${id}`, exchange, '400 or 404', fault);
      }
    },
  },
  {
    kind: 'read',
    name: 'boundary-ids',
    title: (op) => `${op} answers 404 (or 400) for the int64 ids at the edges: 0, -1, the int64 maximum and minimum, and one past each`,
    writes: false,
    async run(context) {
      const read = context.kind('read');
      const listed = new Set(context.state.listing.map((pet) => idOf(context, pet)));
      for (const [id, what] of BOUNDARY_IDS) {
        if (listed.has(id)) continue;
        const exchange = await context.call(read, { id });
        // An id no pet has is 404; an id the deployment never assigns may be rejected as invalid. 200 only for a pet with that id.
        const served = exchange.status === 200 && isPet(context, exchange.json) && idOf(context, exchange.json) === id;
        if (exchange.status !== 404 && exchange.status !== 400 && !served)
          context.failStatus(
            `${read} answered ${exchange.status} for the id ${id}, ${what}${exchange.status >= 500 ? `: compare ${context.contract.model.id.parameter} with the int64 range before the store reads it, and answer 400 (or 404)` : ''}`,
            exchange,
            '404 or 400',
            exchange.status === 200 && !isPet(context, exchange.json) ? statusFault(read, 200) : undefined,
          );
      }
    },
  },
  {
    kind: 'read',
    name: 'deprecation',
    title: (op) => `${op}, deprecated, keeps working until its sunset by the deployment's clock and announces it`,
    writes: false,
    async run(context) {
      const read = context.kind('read');
      const { deprecated, sunset } = context.contract.operation(read);
      if (!deprecated || !sunset) return;
      // The days left are the user's to plan by, on this machine's clock; the removal is judged on the deployment's (removal.ts).
      const daysLeft = Math.ceil((sunset.getTime() - context.state.now.getTime()) / DAY_MS);
      const day = sunsetDay(sunset);
      const pet = await existingPet(context);
      const exchange = await context.call(read, { id: idOf(context, pet), judgesRemoval: true });
      const clock = deploymentClock(exchange.headers.get('date'), context.state.now);
      const past = clock.at >= sunset.getTime();
      if (!past && daysLeft > 0)
        context.advise(`${read} is deprecated: ${daysLeft} days left until its removal on ${day}; move clients to ${replacementOf(context)}`);
      if (!past && exchange.status === 410)
        context.failStatus(`${read} answered 410 before its sunset (${day}) by ${clockName(clock)}: it must keep working until then`, exchange, '200');
      // The interface schedules the removal but does not say what a removed operation answers: the spec's 410 is advice.
      if (past && exchange.status !== 410)
        context.advise(`${read} still answers ${exchange.status} though by ${clockName(clock)} its sunset (${day}) has passed; the spec says 410 from then on`);
      const header = exchange.headers.get('sunset');
      // The interface gives the date of removal but no header: what the spec describes of it is advice.
      if (header === null) context.advise(`the deployment sends no Sunset header on ${read} (expected ${sunset.toUTCString()})`, 'header:headers/sunset');
      else if (Date.parse(header) !== sunset.getTime())
        context.advise(`the deployment's Sunset header on ${read} is "${header}", the spec says ${sunset.toUTCString()}`, 'header:headers/sunset');
      // A Deprecation in neither form the spec describes is advice too (check.ts), said once for the run.
    },
  },
];
