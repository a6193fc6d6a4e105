/**
 * JSON types in a request body, probed from the spec's body schema: each field sent as a value of
 * another JSON type that a lenient reader converts (a boolean or a quoted number for an integer, a
 * fraction for an integer, a number or a boolean for a string). JSON Schema rejects each, so a
 * correct deployment answers 400. An integer written with a zero fraction (`7.0`) is an integer to
 * JSON Schema: accepting it is a choice, so it only has to be kept as that integer.
 */
import { objectText } from '../body-breakages.js';
import type { CheckContext, KindCheck } from '../check.js';
import { runFieldsOf } from '../pet-fields.js';
import { bodyCategoryId, changedFieldFault, exact, isPet, petName } from '../pets.js';

/** A field sent as a value of another type: what it is, and why a reader takes it. */
interface Mistyped {
  readonly value: string;
  readonly what: string;
}

/** The values of another JSON type a lenient reader takes for a value of `type`, `valid` being a value the deployment accepts. */
function mistyped(type: string | undefined, valid: string): Mistyped[] {
  switch (type) {
    case 'integer':
      return [
        { value: 'true', what: 'a boolean (Python reads True as 1)' },
        { value: JSON.stringify(valid), what: 'a string of digits' },
        { value: `${valid}.5`, what: 'a number with a fraction' },
      ];
    case 'string':
      return [
        { value: '42', what: 'a number' },
        { value: 'true', what: 'a boolean' },
      ];
    default:
      return [];
  }
}

/** A valid NewPet named for `purpose`, with `field` written as the JSON text `value`. */
function bodyWith(context: CheckContext, purpose: string, categoryId: string, field: string, value: string): string {
  const run = runFieldsOf(context.contract.model);
  return objectText({ [run.name]: JSON.stringify(petName(context.state, purpose)), [run.category]: categoryId, [field]: value });
}

/** The value to replace for each field: the accepted category for an integer, so that a conversion lands on a value the deployment takes. */
function validValue(context: CheckContext, field: string, type: string | undefined, categoryId: string): string {
  return type === 'integer' ? (field === runFieldsOf(context.contract.model).category ? categoryId : '1') : 'petstore-verify';
}

async function expectMistypedRefused(context: CheckContext): Promise<void> {
  const create = context.kind('create');
  const categoryId = await bodyCategoryId(context.state);
  const { properties } = context.contract.body(create);
  for (const [field, { type }] of Object.entries(properties)) {
    for (const { value, what } of mistyped(type, validValue(context, field, type, categoryId))) {
      const body = bodyWith(context, `${field} mistyped`, categoryId, field, value);
      const exchange = await context.call(create, { body });
      if (exchange.status === 400) continue;
      const stored = exchange.status === 201 && isPet(context, exchange.json) ? exact(exchange.json[field]) : undefined;
      context.failStatus(
        exchange.status === 201
          ? `${create} accepted ${field} ${value}, ${what}, and stored ${field} ${stored}: ${field} is ${type === 'integer' ? 'an integer' : `a ${type}`} in the schema, so check the JSON type before converting and answer 400 naming ${field}`
          : `${create} answered ${exchange.status} to ${field} ${value}, ${what}`,
        exchange,
        `400 naming ${field}`,
      );
    }
  }
}

/** Each integer field written with a zero fraction: refused, or kept as the integer it is. */
async function expectZeroFractionKept(context: CheckContext): Promise<void> {
  const create = context.kind('create');
  const categoryId = await bodyCategoryId(context.state);
  const { properties } = context.contract.body(create);
  for (const [field, { type }] of Object.entries(properties)) {
    if (type !== 'integer') continue;
    const valid = validValue(context, field, type, categoryId);
    const body = bodyWith(context, `${field} zero fraction`, categoryId, field, `${valid}.0`);
    const exchange = await context.call(create, { body });
    if (exchange.status === 400) {
      context.advise(
        `${create} refuses ${field} ${valid}.0, an integer to JSON Schema (as Go's encoding/json refuses it; pydantic and JavaScript read it as ${valid}): a client whose serializer writes integers with a zero fraction is refused. The interface leaves this open, so it is no failure`,
        `zero-fraction:${field}`,
      );
      continue;
    }
    if (exchange.status === 201) {
      // A 201 that is no pet already broke the schema of the answer: that is the fault, not the field.
      if (!isPet(context, exchange.json)) continue;
      const stored = exact(exchange.json[field]);
      if (stored !== valid)
        context.fail(`${create} accepted ${field} ${valid}.0 but stored ${field} ${stored}`, exchange, {
          expected: `${field} ${valid}`,
          actual: `${field} ${stored}`,
          fault: changedFieldFault(create, field, valid, exchange.json[field]),
        });
    } else
      context.failStatus(
        `${create} answered ${exchange.status} to ${field} ${valid}.0 (an integer to JSON Schema)`,
        exchange,
        `400, or 201 with ${field} ${valid}`,
      );
  }
}

export const typeChecks: KindCheck[] = [
  {
    kind: 'create',
    name: 'types',
    title: (op) => `${op} answers 400 to each field of another JSON type: a boolean, a string or a fraction for an integer, a number or a boolean for a string`,
    writes: true,
    run: expectMistypedRefused,
  },
  {
    kind: 'create',
    name: 'zero-fraction',
    title: (op) => `${op} refuses an integer written with a zero fraction (7.0), or keeps it as that integer`,
    writes: true,
    run: expectZeroFractionKept,
  },
];
