/**
 * The checks of a delete, made from the resource model (src/openapi/resource-model.ts) for whichever
 * operation of the spec is of that kind, so that a spec that adds one is verified with no code here:
 * a removed record is gone (its read answers 404, no page and no filter lists it), an absent id or an
 * id that is not one is refused, and a request without the key removes nothing. Every DELETE is a
 * write (RFC 9110 §9.2.1: not safe), inside the run's budget and skipped under `--read-only`; each
 * check removes only a record it created.
 */

import { definedFields } from '../../json/defined-fields.js';
import type { ModelOperation } from '../../openapi/resource-model.js';
import { operationOfKind } from '../../openapi/resource-model.js';
import type { Check, CheckContext } from '../check.js';
import { type Contract, fullPage } from '../contract.js';
import type { Exchange } from '../http.js';
import { absentId, createPet, idOf, notIds, type PetJson, petsOf } from '../pets.js';
import { expectStatus, itemCheck } from './item-kinds.js';

/**
 * The writes the delete checks may send, a budget of their own besides the spec suite's: two creates
 * (each up to four tries while the run learns a category the deployment accepts) and seven deletes.
 */
const DELETE_WRITES = 2 * 4 + 7;

/** The operations a delete check reads through: the read and the list of the same resource. */
interface Around {
  readonly remove: ModelOperation;
  readonly read: ModelOperation;
  readonly list: ModelOperation;
}

/** What a request of the operation is, for a message: `deletePet (DELETE /pets/{petId})`. */
function named(operation: ModelOperation): string {
  return `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`;
}

/** Sends the delete of `id`, with the key unless `authorization` says otherwise. */
function sendDelete(context: CheckContext, around: Around, id: string, authorization?: null | string): Promise<Exchange> {
  return context.call(around.remove.operationId, { id, ...definedFields({ authorization }) });
}

/**
 * The pages that could list `pet`: the largest page, and the largest page of each filter with the
 * pet's own value (a page of one status is where a new record shows first when the collection is large).
 */
function queriesFor(around: Around, pet: PetJson): string[] {
  const size = fullPage(around.list);
  const filtered = around.list.filters
    .filter((filter) => typeof pet[filter.field] === 'string' || typeof pet[filter.field] === 'number')
    .map((filter) => `${filter.parameter}=${encodeURIComponent(String(pet[filter.field]))}`);
  return [size, ...filtered.map((query) => (size === '' ? query : `${query}&${size}`))];
}

/** Creates a record, removes it, and holds every read and page after to its absence; a second delete is 404. */
async function removes(context: CheckContext, around: Around): Promise<void> {
  const { remove: operation, read, list } = around;
  const { pet } = await createPet(context, 'delete');
  const id = idOf(context, pet);
  const removed = await sendDelete(context, around, id);
  const documented = `: the spec documents ${named(operation)} answering ${operation.success} for a record that exists`;
  if (!expectStatus(context, removed, operation.operationId, [operation.success], `to the delete of the record ${id} just created${documented}`)) return;
  const after = await context.call(read.operationId, { id });
  if (after.status !== 404)
    context.fail(`${read.operationId} answered ${after.status} for the record ${id} after ${operation.operationId} answered ${removed.status} for it`, after, {
      expected: '404',
      actual: String(after.status),
      fault: `deleted:${read.operationId}:${after.status}`,
    });
  for (const query of queriesFor(around, pet)) {
    const page = await context.call(list.operationId, { query });
    if (petsOf(context, page.json).some((listed) => idOf(context, listed) === id))
      context.fail(`${list.operationId}${query ? ` with ${query}` : ''} lists the record ${id} after ${operation.operationId} removed it`, page, {
        expected: `no id ${id}`,
        actual: `id ${id} listed`,
        fault: `deleted:${list.operationId}:listed`,
      });
  }
  const again = await sendDelete(context, around, id);
  expectStatus(context, again, operation.operationId, [404], `to a second delete of the record ${id}, already removed`);
}

/** A delete without the key, or with a wrong one, is refused with 401 and removes nothing. */
async function refusedWithoutKey(context: CheckContext, around: Around): Promise<void> {
  const { pet } = await createPet(context, 'delete refused');
  const id = idOf(context, pet);
  for (const [authorization, what] of [
    [null, 'without a credential'],
    ['Bearer petstore-verify-wrong-key', 'with a wrong key'],
  ] as const) {
    const exchange = await sendDelete(context, around, id, authorization);
    expectStatus(context, exchange, around.remove.operationId, [401], `to the delete of the record ${id} ${what}`);
  }
  const still = await context.call(around.read.operationId, { id });
  if (still.status !== 200)
    context.fail(`${around.read.operationId} answered ${still.status} for the record ${id} after deletes refused for want of the key`, still, {
      expected: '200: a refused delete removes nothing',
      actual: String(still.status),
      fault: `unauthorized:${around.remove.operationId}:removed`,
    });
}

/** The writes the delete checks of `contract` bring with them: none when its spec has no delete. */
export function deleteWrites(contract: Contract): number {
  return operationOfKind(contract.model, 'delete') === undefined ? 0 : DELETE_WRITES;
}

/** The delete checks of the model's delete, when the spec has one. */
export function deleteChecks(contract: Contract): Check[] {
  const { model } = contract;
  const [remove, read, list] = (['delete', 'read', 'list'] as const).map((kind) => operationOfKind(model, kind));
  if (remove === undefined || read === undefined || list === undefined) return [];
  const around: Around = { remove, read, list };
  const { operationId } = remove;
  return [
    itemCheck(
      `${operationId}.removes`,
      operationId,
      `${operationId} removes a record: its read answers 404 after, no page and no filter lists it, and a second delete answers 404`,
      (context) => removes(context, around),
    ),
    itemCheck(`${operationId}.absent`, operationId, `${operationId} answers 404 for an id no record has`, async (context) => {
      const id = absentId(context);
      expectStatus(context, await sendDelete(context, around, id), operationId, [404], `for the absent id ${id}`);
    }),
    itemCheck(
      `${operationId}.not-an-id`,
      operationId,
      `${operationId} answers 400 (or 404, as a read may) for an id that is not one of its type`,
      async (context) => {
        const texts = notIds(context);
        if (texts.length === 0) context.skip(`the id ${model.id.field} is a string: every text is one`);
        for (const id of texts) expectStatus(context, await sendDelete(context, around, id), operationId, [400, 404], `for the id ${id}, not an integer`);
      },
    ),
    itemCheck(
      `auth.${operationId}.refused`,
      operationId,
      `${operationId} answers 401 without a credential or with a wrong key, and removes nothing`,
      (context) => refusedWithoutKey(context, around),
    ),
  ];
}
