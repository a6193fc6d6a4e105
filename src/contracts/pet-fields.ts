/**
 * What a create's body is made of, from the resource model alone: the fields a run names its records by
 * and learns a category in, the body's JSON text, and an id no record has. A module of its own, apart
 * from the checks (pets.ts), so that the Pact worker, whose provider states make bodies too, loads no
 * check, contract or validator (some 80 modules and ajv, forked for every run of the Pact suite).
 */
import { SpecError } from '../errors.js';
import { INT64_MAX } from '../json/int64.js';
import type { ResourceModel } from '../openapi/resource-model.js';

/** The two fields every create of a run fills itself, found in the resource model. */
export interface RunFields {
  /** The text that names each record for the run, findable on a shared staging: the first required string a create sends (`name`). */
  readonly name: string;
  /** The integer a deployment may refuse as unknown, whose accepted value the run learns: the first required integer a create sends (`categoryId`). */
  readonly category: string;
}

/** The fields a run names its records by and learns a category in, from the model's create; a SpecError when it has neither. */
export function runFieldsOf(model: ResourceModel): RunFields {
  const sent = model.fields.filter((field) => field.requiredOnCreate && field.enum === undefined);
  const name = sent.find((field) => field.schema.type === 'string')?.name;
  const category = sent.find((field) => field.schema.type === 'integer')?.name;
  if (name === undefined || category === undefined)
    throw new SpecError(
      `the create of ${model.name} must require a text field (to name each record a run makes) and an integer field (a category a deployment may refuse)`,
    );
  return { name, category };
}

/** A value a body's field may take from an enum. */
export type FieldValue = string | number | boolean | null;

/** A create's body as JSON text, named `name`, with the category written as exact digits. */
export function newPetJson(run: RunFields, name: string, categoryId: string, fields: Readonly<Record<string, FieldValue>> = {}): string {
  const parts = [`${JSON.stringify(run.name)}:${JSON.stringify(name)}`, `${JSON.stringify(run.category)}:${categoryId}`];
  for (const [field, value] of Object.entries(fields)) parts.push(`${JSON.stringify(field)}:${JSON.stringify(value)}`);
  return `{${parts.join(',')}}`;
}

/** An integer id none of `ids` is, and unlikely to be any record's: far beyond the largest, at most `most` (int64's by default). */
export function absentIdBeyond(ids: readonly string[], most = INT64_MAX): string {
  let largest = 0n;
  for (const id of ids) if (/^\d+$/.test(id) && BigInt(id) > largest) largest = BigInt(id);
  const step = most < 1_000_000_007n ? 1_007n : 1_000_000_007n;
  const candidate = largest + step;
  return String(candidate <= most ? candidate : step);
}
