/**
 * What checking a value against a spec's schemas may cost, bounded at load. Each schema's keywords apply
 * at a place of the value: its own place (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `$ref`,
 * whose schemas add up there, each counted each time it is reached) or places inside it (members, items).
 * Two measures are summed at a value's place and at the worst place inside it, and held:
 * - the schemas a value is checked against: at most 1,000. An `anyOf` of ten `$ref`s to a schema
 *   that is itself an `anyOf` of ten, six deep (24 KB of spec), made one create a million checks and held
 *   the mock for seconds to minutes (red team 13 #6); an `anyOf` of 20,000 `const`s, 30 s to load (#4);
 * - the states of the patterns a string is run through: one pattern's automaton has at most 1,024 states,
 *   and a character of a text costs at most a step a state (linear-pattern.ts); an `anyOf` of 400 patterns
 *   of 600 states held the mock 16.5 s on one 1 MB name. They are bounded by the same 1,024 as one
 *   pattern: whatever the spec, a character costs at most what the largest single pattern's does. The
 *   spec's patterns, each counted once (a validator keeps one automaton a pattern), are bounded in all
 *   too, which bounds the automata the mock and the verifier keep, and what they learn (linear-pattern.ts
 *   keeps at most 200 state numbers a state).
 */
import { MAX_RESPONSE_BYTES } from '../bounds/budget.js';
import { SpecError } from '../errors.js';
import type { JsonSchema, OpenApiDocument } from './document.js';
import { resolve } from './document.js';
import { eachPattern, MAX_PATTERN_STATES, patternStates } from './linear-pattern.js';
import { SCHEMA_BASE, validatorSchemas } from './schemas.js';

/** The most states the patterns a string may be run through may have in all: one pattern's most. */
const MAX_STRING_PATTERN_STATES = MAX_PATTERN_STATES;

/** The most states a spec's patterns, each counted once, may have in all: 8 patterns of the most states. */
const MAX_SPEC_PATTERN_STATES = 8 * MAX_PATTERN_STATES;

/** Keywords whose schemas apply to the value itself, at its place: their patterns add up. */
const SAME_PLACE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', '$ref'];

/** Keywords whose schemas apply to the members or items of the value, each at a place of its own. */
const INNER_PLACES = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'unevaluatedItems',
];

/** The schemas a keyword's value holds: itself, the items of a list, or the members of a map. */
function schemasIn(keyword: string, value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (keyword === 'properties' || keyword === 'patternProperties' || keyword === 'dependentSchemas') return Object.values(value ?? {});
  return [value];
}

/** The schemas a keyword of `node` holds, a `$ref`'s target for `$ref`. */
function schemasAt(doc: OpenApiDocument, node: JsonSchema, keyword: string): unknown[] {
  return schemasIn(keyword, keyword === '$ref' ? refTarget(doc, node.$ref) : node[keyword]);
}

/** The schema a `$ref` names inside the spec (as the validators write it, or as the spec does), else none. */
function refTarget(doc: OpenApiDocument, ref: unknown): unknown {
  if (typeof ref !== 'string') return undefined;
  const local = ref.startsWith(SCHEMA_BASE) ? `#/${ref.slice(SCHEMA_BASE.length)}` : ref;
  if (!local.startsWith('#/')) return undefined;
  try {
    return resolve(doc, { $ref: local });
  } catch (error) {
    // A $ref that leads nowhere, or round, is refused where the model is read, naming it from where it is used.
    if (error instanceof SpecError) return undefined;
    throw error;
  }
}

/** The most schemas a value is checked against at its place and at one place inside it (the worst one). */
const MAX_PLACE_SCHEMAS = 1_000;

/** What one schema costs at its place, and what the names of a value's members cost (they are strings too). */
interface Measure {
  here(node: JsonSchema): number;
  names(node: JsonSchema): number;
}

/** The states of each pattern, counted once. */
class PatternStates {
  readonly #states = new Map<string, number>();

  of(pattern: unknown): number {
    if (typeof pattern !== 'string') return 0;
    let states = this.#states.get(pattern);
    if (states === undefined) {
      states = patternStates(pattern);
      this.#states.set(pattern, states);
    }
    return states;
  }
}

/** Counts, for each schema of one spec, a measure summed at the worst place of a value of it. */
class PlaceCost {
  readonly #doc: OpenApiDocument;
  readonly #measure: Measure;
  readonly #known = new Map<object, number>();
  readonly #open = new Set<object>();

  constructor(doc: OpenApiDocument, measure: Measure) {
    this.#doc = doc;
    this.#measure = measure;
  }

  /** The sum at the worst place: the value's own, plus the worst of the places inside it (members, items, and names of members). */
  of(schema: unknown): number {
    if (typeof schema !== 'object' || schema === null) return 0;
    const known = this.#known.get(schema);
    if (known !== undefined) return known;
    // A schema met again inside itself applies to a value further in, counted where that value's place is.
    if (this.#open.has(schema)) return 0;
    this.#open.add(schema);
    const node = schema as JsonSchema;
    let here = this.#measure.here(node);
    for (const keyword of SAME_PLACE) {
      for (const inner of schemasAt(this.#doc, node, keyword)) here += this.of(inner);
    }
    // A member's name is a string too, run through every name pattern and `propertyNames`.
    let worstInside = this.#measure.names(node) + this.of(node.propertyNames);
    for (const keyword of INNER_PLACES) for (const inner of schemasIn(keyword, node[keyword])) worstInside = Math.max(worstInside, this.of(inner));
    this.#open.delete(schema);
    const cost = here + worstInside;
    this.#known.set(schema, cost);
    return cost;
  }
}

/**
 * The fewest bytes of JSON a value of `schema` takes, by what it must hold: a string's quotes and
 * `minLength`, an object's required members, an array's `minItems`, the shortest of an `enum` or of
 * `anyOf`/`oneOf`'s branches, the longest of `allOf`'s. A body of `MAX_RESPONSE_BYTES` (5 MiB, the largest
 * answer read, larger than any request body) holds at most that many bytes, and a comma, a value.
 */
class LeastBytes {
  readonly #doc: OpenApiDocument;
  readonly #known = new Map<object, number>();
  readonly #open = new Set<object>();

  constructor(doc: OpenApiDocument) {
    this.#doc = doc;
  }

  of(schema: unknown): number {
    if (typeof schema !== 'object' || schema === null || this.#open.has(schema)) return 1;
    const known = this.#known.get(schema);
    if (known !== undefined) return known;
    this.#open.add(schema);
    const node = schema as JsonSchema;
    const count = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 0);
    let least = 1;
    if (node.type === 'string') least = 2 + count(node.minLength);
    else if (node.type === 'boolean' || node.type === 'null') least = 4;
    else if (node.type === 'array') least = 2 + count(node.minItems) * (this.of(node.items) + 1);
    else if (node.type === 'object' && Array.isArray(node.required)) {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      least = node.required.reduce<number>((sum, name) => sum + String(name).length + 4 + this.of(properties[String(name)]), 2);
    }
    const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : [];
    // Folded, not spread: an enum may hold more values than a call takes arguments.
    const shortest = (lengths: number[]) => lengths.reduce((fewest, length) => Math.min(fewest, length), Number.POSITIVE_INFINITY);
    if (values.length > 0) least = Math.max(least, shortest(values.map((value) => JSON.stringify(value)?.length ?? 1)));
    for (const inner of [...schemasAt(this.#doc, node, '$ref'), ...schemasIn('allOf', node.allOf)]) least = Math.max(least, this.of(inner));
    for (const keyword of ['anyOf', 'oneOf']) {
      const branches = schemasIn(keyword, node[keyword]).filter((branch) => branch !== undefined);
      if (branches.length > 0) least = Math.max(least, shortest(branches.map((branch) => this.of(branch))));
    }
    this.#open.delete(schema);
    this.#known.set(schema, least);
    return least;
  }
}

/**
 * The most checks of the values at one place that repeats (each item of a list, each member of a map) a
 * body may ask for: the schemas at that place times how many values may stand there. An `anyOf` of 990
 * `const`s at a list's items, within the 1,000 a place, held the mock 47 s and 5.3 GB on one 30 KB create
 * (red team 14 #1): about a microsecond a failing check, so this bound is some 17 s of the worst single body.
 */
const MAX_BODY_CHECKS = 2 ** 24;

/** The keywords whose schema applies to each of many values, with the keyword bounding how many. */
const REPEATING: Readonly<Record<string, string>> = {
  items: 'maxItems',
  additionalItems: 'maxItems',
  unevaluatedItems: 'maxItems',
  contains: 'maxItems',
  additionalProperties: 'maxProperties',
  patternProperties: 'maxProperties',
  unevaluatedProperties: 'maxProperties',
  propertyNames: 'maxProperties',
};

/** Whether every value a schema takes is of one of JSON's scalar types, which ajv tells apart by a lookup. */
function scalarTyped(schema: unknown): boolean {
  const type = typeof schema === 'object' && schema !== null ? (schema as JsonSchema).type : undefined;
  const scalar = (name: unknown) => ['string', 'number', 'integer', 'boolean', 'null'].includes(String(name));
  return Array.isArray(type) ? type.every(scalar) : type !== undefined && scalar(type);
}

/**
 * The work of one schema's own keywords on a value, in checks: one, and one for each 128 values of its
 * `enum` compared, `required` names looked for and named members (`properties`) checked, a comparison
 * costing some hundredth of a failing check (6.5 ns against 1.3 µs, measured). An `enum` of 200,000 at
 * a list's items cost a millisecond an item (red team 14 #3).
 */
function keywordWork(node: JsonSchema): number {
  const length = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  const members = typeof node.properties === 'object' && node.properties !== null ? Object.keys(node.properties).length : 0;
  return 1 + Math.ceil((length(node.enum) + length(node.required) + members) / 128);
}

/**
 * How many times a schema that refers to itself is met again one place further in, for each time it is
 * met: more than once, and checking a value costs that many times more at each level of its depth. An
 * `anyOf` of ten lists of itself held the mock past 60 s on a 52-byte create, seven deep (red team 14 #8).
 * Summed over the schemas at the place, the worst of the places inside it.
 */
function selfReentries(doc: OpenApiDocument, start: object): number {
  const open = new Set<object>();
  const walk = (schema: unknown, inside: boolean): number => {
    if (typeof schema !== 'object' || schema === null) return 0;
    if (schema === start && inside) return 1;
    if (open.has(schema)) return 0;
    open.add(schema);
    const node = schema as JsonSchema;
    let here = 0;
    for (const keyword of SAME_PLACE) for (const inner of schemasAt(doc, node, keyword)) here += walk(inner, inside);
    let worstInside = 0;
    if (!inside)
      for (const keyword of INNER_PLACES) for (const inner of schemasIn(keyword, node[keyword])) worstInside = Math.max(worstInside, walk(inner, true));
    open.delete(schema);
    return here + worstInside;
  };
  return walk(start, false);
}

/** Counts, for each schema, the most checks of values at one place that repeats: its schemas times the values that may stand there. */
class RepeatCost {
  readonly #doc: OpenApiDocument;
  readonly #places: PlaceCost;
  readonly #least: LeastBytes;
  readonly #known = new Map<object, Map<number, number>>();
  readonly #open = new Set<object>();

  constructor(doc: OpenApiDocument, places: PlaceCost) {
    this.#doc = doc;
    this.#places = places;
    this.#least = new LeastBytes(doc);
  }

  /** The worst place inside `schema` that repeats, when a value of it may stand `times` times in a body. */
  of(schema: unknown, times = 1): number {
    if (typeof schema !== 'object' || schema === null || this.#open.has(schema)) return 0;
    const known = this.#known.get(schema)?.get(times);
    if (known !== undefined) return known;
    this.#open.add(schema);
    const node = schema as JsonSchema;
    let worst = 0;
    for (const keyword of SAME_PLACE) for (const inner of schemasAt(this.#doc, node, keyword)) worst = Math.max(worst, this.of(inner, times));
    for (const keyword of [...INNER_PLACES, 'propertyNames']) {
      const bound = REPEATING[keyword];
      const most = bound === undefined ? undefined : node[bound];
      for (const inside of schemasIn(keyword, node[keyword])) {
        // As many as the list or the map may hold, and never more than the largest body holds of them.
        const fit = Math.floor(MAX_RESPONSE_BYTES / (this.#least.of(inside) + 1));
        const inner = bound === undefined ? times : Math.min(fit, times * (typeof most === 'number' ? most : fit));
        if (bound !== undefined) worst = Math.max(worst, inner * this.#places.of(inside));
        // Items of no scalar type are told apart two by two (ajv's deep comparison): a list's count squared, halved.
        if (keyword === 'items' && node.uniqueItems === true && !scalarTyped(inside)) worst = Math.max(worst, (inner * inner) / 2);
        worst = Math.max(worst, this.of(inside, inner));
      }
    }
    this.#open.delete(schema);
    const byTimes = this.#known.get(schema) ?? new Map<number, number>();
    byTimes.set(times, worst);
    this.#known.set(schema, byTimes);
    return worst;
  }
}

/** The worst of `schemas` by `cost`, as a sentence's start: its name, what it costs, and the others past `most` that hold it. */
function worstOver(
  schemas: Record<string, unknown>,
  cost: { of(schema: unknown): number },
  most: number,
): { name: string; cost: number; also: string } | undefined {
  const over = Object.entries(schemas)
    .map(([name, schema]) => [name, cost.of(schema)] as const)
    .filter(([, value]) => value > most);
  const [worst, ...others] = over.sort((a, b) => b[1] - a[1]);
  if (worst === undefined) return undefined;
  return { name: worst[0], cost: worst[1], also: others.length > 0 ? ` (as may one of ${others.map(([name]) => name).join(', ')}, which hold it)` : '' };
}

/**
 * Sentences refusing a spec whose schemas cost too much to check a value against: a place of a value
 * checked against more than 1,000 schemas, a string run through patterns of more than 1,024 states in
 * all, or patterns of more than 8,192 states in the spec.
 * @example
 * schemaCostProblems(openapi); // []: the bundled spec's worst string meets one pattern of 120 states
 */
export function schemaCostProblems(doc: OpenApiDocument): string[] {
  const schemas = validatorSchemas(doc);
  const problems: string[] = [];
  const places = new PlaceCost(doc, { here: () => 1, names: () => 0 });
  const wide = worstOver(schemas, places, MAX_PLACE_SCHEMAS);
  if (wide !== undefined)
    problems.push(
      `a value of ${wide.name} may be checked against ${wide.cost} schemas${wide.also}: at its place and at one place inside it, each allOf, anyOf, oneOf and $ref counted each time it is reached, more than ${MAX_PLACE_SCHEMAS}; refer to fewer schemas there (a list of values is an enum)`,
    );
  // A schema refers to itself by name: the spec's own schemas are where a $ref leads.
  const named = Object.entries((doc.components?.schemas ?? {}) as Record<string, unknown>);
  const reentries =
    wide === undefined ? named.map(([name, schema]) => ({ name, times: typeof schema === 'object' && schema !== null ? selfReentries(doc, schema) : 0 })) : [];
  const recursive = reentries.find(({ times }) => times > 1);
  if (recursive !== undefined)
    problems.push(
      `${recursive.name} is met ${recursive.times} times again one place further in, each time it is met: checking a value costs that many times more at each level of its depth; let it refer to itself through one branch at a place`,
    );
  const work = new PlaceCost(doc, { here: keywordWork, names: () => 0 });
  const repeated = wide === undefined && recursive === undefined ? worstOver(schemas, new RepeatCost(doc, work), MAX_BODY_CHECKS) : undefined;
  if (repeated !== undefined)
    problems.push(
      `the items or members of a value of ${repeated.name} may ask for ${repeated.cost} checks in one body${repeated.also}: the schemas at their place times how many may stand there (maxItems or maxProperties, else as many as ${MAX_RESPONSE_BYTES} bytes, the largest body read, may hold), more than ${MAX_BODY_CHECKS}; give the list a maxItems (the map a maxProperties), or refer to fewer schemas at its items`,
    );
  const states = new PatternStates();
  const measure: Measure = {
    here: (node) => states.of(node.pattern),
    names: (node) => Object.keys(node.patternProperties ?? {}).reduce((sum, name) => sum + states.of(name), 0),
  };
  const strings = worstOver(schemas, new PlaceCost(doc, measure), MAX_STRING_PATTERN_STATES);
  if (strings !== undefined)
    problems.push(
      `a string of ${strings.name} may be run through patterns of ${strings.cost} states in all${strings.also}: its own, and those of each allOf, anyOf, oneOf and $ref at its place, more than ${MAX_STRING_PATTERN_STATES}, what one pattern may have; each character costs a step a state, so write fewer or smaller patterns there (a list of values is an enum)`,
    );
  const counted = new Set<string>();
  eachPattern(doc, (pattern) => counted.add(pattern));
  const total = [...counted].reduce((sum, pattern) => sum + states.of(pattern), 0);
  if (total > MAX_SPEC_PATTERN_STATES)
    problems.push(
      `the spec's ${counted.size} patterns have ${total} states in all, more than ${MAX_SPEC_PATTERN_STATES} (each is an automaton the mock and the verifier keep); write fewer or smaller patterns`,
    );
  return problems;
}
