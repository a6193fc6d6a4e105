/**
 * The checks of a replace (PUT on an item), made from the resource model for whichever operation of
 * the spec is of that kind: a valid body with a new value of every field it names is stored and read
 * back as sent, the id kept; an absent id, an invalid body and a request without the key are refused
 * and change nothing. Every PUT is a write (RFC 9110 §9.2.1), inside the run's budget and skipped under
 * `--read-only`; each check replaces only a record it created.
 */

import { definedFields } from '../../json/defined-fields.js';
import { type JsonValue, parseJson, stringifyJson } from '../../json/lossless.js';
import { type ModelOperation, operationOfKind } from '../../openapi/resource-model.js';
import type { Check, CheckContext } from '../check.js';
import { bodyObjectOf, type Contract } from '../contract.js';
import { validValues } from '../deployment/valid-values.js';
import type { Exchange } from '../http.js';
import { absentId, createPet, differingFields, exact, fieldsCompared, idOf, isPet, type PetJson, petName } from '../pets.js';
import { expectStatus, itemCheck } from './item-kinds.js';

/** The writes the replace checks may send besides the spec suite's: three creates (up to four tries each) and six replaces. */
const REPLACE_WRITES = 3 * 4 + 6;

interface Around {
  readonly replace: ModelOperation;
  readonly read: ModelOperation;
}

/**
 * A valid body of the replace with a value of every field its schema names, each other than `before`'s
 * where the schema allows another (so a replace that keeps the old record shows), numbers as `before`
 * has them (a deployment may refuse a category it does not know). Undefined when a required field has
 * no value to derive.
 */
function replacementOf(contract: Contract, operation: ModelOperation, before: PetJson, prefix: string): Record<string, JsonValue> | undefined {
  const shape = bodyObjectOf(contract.doc, operation.operationId);
  if (shape === undefined) return undefined;
  const { required, properties } = shape;
  const body: Record<string, JsonValue> = {};
  for (const [field, property] of Object.entries(properties)) {
    const old = before[field];
    const accepted = typeof old === 'number' || typeof old === 'bigint' ? [exact(old)] : [];
    const values = validValues(contract.doc, property, { prefix: `${prefix} ${field}`, accepted });
    const value = values.find((text) => text !== exact(old)) ?? values[0];
    if (value === undefined && required.includes(field)) return undefined;
    if (value !== undefined) body[field] = parseJson(value);
  }
  return body;
}

/** Sends the replace of `id` with `body`, with the key unless `authorization` says otherwise. */
function sendReplace(context: CheckContext, around: Around, id: string, body: string, authorization?: null): Promise<Exchange> {
  return context.call(around.replace.operationId, { id, body, ...definedFields({ authorization }) });
}

/** Reads `id` back and fails for each field that is not `expected`'s (the id among them): `after` says what was sent. */
async function expectRead(context: CheckContext, around: Around, id: string, expected: PetJson, after: string): Promise<void> {
  const read = await context.call(around.read.operationId, { id });
  if (read.status !== 200 || !isPet(context, read.json)) {
    context.failStatus(`${around.read.operationId} answered ${read.status} for the record ${id} ${after}`, read, '200');
    return;
  }
  const got = read.json;
  const differ = differingFields(Object.keys(expected), expected, got);
  if (differ.length > 0)
    context.fail(`${around.read.operationId} answered the record ${id} ${after} with other ${differ.join(', ')}`, read, {
      ...fieldsCompared(differ, expected, got),
      fault: `replaced:${around.replace.operationId}:${differ.join(',')}`,
    });
}

/** A record of this check's own, and a valid replacement of it; skipped when none can be derived from the schema. */
async function recordAndReplacement(context: CheckContext, around: Around, purpose: string): Promise<{ pet: PetJson; body: Record<string, JsonValue> }> {
  const { pet } = await createPet(context, purpose);
  const body = replacementOf(context.contract, around.replace, pet, petName(context.state, `${purpose} replaced`));
  if (body === undefined) context.skip(`a required field of ${around.replace.operationId}'s body has a schema no valid value can be derived from`);
  return { pet, body };
}

/** Replaces a record of its own with a new value of every field, and holds the answer and a read back to what was sent. */
async function replaces(context: CheckContext, around: Around): Promise<void> {
  const { pet, body } = await recordAndReplacement(context, around, 'replace');
  const id = idOf(context, pet);
  const { operationId, success } = around.replace;
  const replaced = await sendReplace(context, around, id, stringifyJson(body));
  const what = `to a valid replacement of the record ${id} just created: the spec documents ${success}`;
  if (!expectStatus(context, replaced, operationId, [success], what)) return;
  const expected: PetJson = { ...pet, ...body };
  if (isPet(context, replaced.json)) {
    const answered = replaced.json;
    const differ = differingFields(Object.keys(body), expected, answered);
    if (differ.length > 0)
      context.fail(`${operationId} answered the record ${id} with other ${differ.join(', ')} than it was sent`, replaced, {
        ...fieldsCompared(differ, expected, answered),
        fault: `replaced:${operationId}:${differ.join(',')}`,
      });
  }
  await expectRead(context, around, id, expected, `after ${operationId} answered ${replaced.status} to its replacement`);
}

/** An invalid body, and a valid one without the key, are refused and change nothing. */
async function refused(context: CheckContext, around: Around): Promise<void> {
  const { pet, body } = await recordAndReplacement(context, around, 'replace refused');
  const id = idOf(context, pet);
  const { operationId } = around.replace;
  // An empty object, when the schema requires a field: no deployment may take it.
  if ((bodyObjectOf(context.contract.doc, operationId)?.required.length ?? 0) > 0)
    expectStatus(
      context,
      await sendReplace(context, around, id, '{}'),
      operationId,
      [400],
      `to the replacement of the record ${id} with {}, which its schema refuses`,
    );
  const anonymous = await sendReplace(context, around, id, stringifyJson(body), null);
  expectStatus(context, anonymous, operationId, [401], `to a replacement of the record ${id} without a credential`);
  await expectRead(context, around, id, pet, 'after replacements refused');
}

/** The writes the replace checks of `contract` bring with them: none when its spec has no replace. */
export function replaceWrites(contract: Contract): number {
  return operationOfKind(contract.model, 'replace') === undefined ? 0 : REPLACE_WRITES;
}

/** The replace checks of the model's replace, when the spec has one. */
export function replaceChecks(contract: Contract): Check[] {
  const { model } = contract;
  const replace = operationOfKind(model, 'replace');
  const read = operationOfKind(model, 'read');
  if (replace === undefined || read === undefined) return [];
  const around: Around = { replace, read };
  const { operationId } = replace;
  return [
    itemCheck(
      `${operationId}.replaces`,
      operationId,
      `${operationId} stores a valid replacement, a new value of every field, and the record is read back with it, its id kept`,
      (context) => replaces(context, around),
    ),
    itemCheck(
      `${operationId}.absent`,
      operationId,
      `${operationId} answers 404 for an id no record has (or 201 if the spec documents that a replace creates)`,
      async (context) => {
        const id = absentId(context);
        // The listing's first record lends its numbers (a category the deployment knows).
        const body = replacementOf(context.contract, replace, context.state.listing[0] ?? {}, petName(context.state, 'replace absent'));
        if (body === undefined) context.skip(`a required field of ${operationId}'s body has a schema no valid value can be derived from`);
        const allowed = replace.statuses.includes(201) ? [404, 201] : [404];
        expectStatus(context, await sendReplace(context, around, id, stringifyJson(body)), operationId, allowed, `for the absent id ${id}`);
      },
    ),
    itemCheck(
      `${operationId}.refused`,
      operationId,
      `${operationId} answers 400 to a body its schema refuses and 401 without a credential, and the record is unchanged`,
      (context) => refused(context, around),
    ),
  ];
}
