/**
 * What a client has exercised of the interface, derived from spec/openapi.yaml: per operation, the
 * statuses it documents and the values of its enum-typed inputs (query parameters and top-level body
 * fields), each with how often the mock sent or received it. A front-end team reads off the
 * paths its code never met: the 404 it never handled, the status it never filtered by.
 */

import { NamingBudget, namedPositions, type Unnamed, unnamedCount, VALUES_NAMED } from '../../bounds/values-named.js';
import { openapi } from '../../generated/openapi.js';
import type { JsonValue } from '../../json/lossless.js';
import { type JsonSchema, type OpenApiDocument, type Operation, operationsOf, parametersOf, type Reference, resolve } from '../../openapi/document.js';
import type { Pending } from '../core/pending.js';

/**
 * One operation's coverage.
 * @example
 * const getPet: OperationCoverage = {
 *   operationId: 'getPet', method: 'GET', path: '/v1/pets/{petId}',
 *   statuses: { '200': 3, '404': 0, ... }, enums: {}, missed: ['404', ...],
 * };
 */
export interface OperationCoverage {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** Every documented status (and any other the mock responded with), with how many responses had it. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Each enum-typed input (`query.status`, `body.status`), with how many requests sent each value it names (`VALUES_NAMED`, the exercised first). */
  readonly enums: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** What was never exercised: documented statuses (`404`) and the input values it names (`query.status=sold`). */
  readonly missed: readonly string[];
  /** Per enum input with more values than a report names (`VALUES_NAMED`, `NAMED_VALUE_BYTES`): how many of the others were exercised and never. */
  readonly unnamed?: Readonly<Record<string, Unnamed>>;
}

/**
 * The coverage of a mock since it started or since `DELETE /__mock/coverage`.
 * @example
 * const report: CoverageReport = await (await fetch('http://127.0.0.1:4010/__mock/coverage')).json();
 * console.log(`${report.covered} of ${report.total}`, report.operations.flatMap((o) => o.missed));
 */
export interface CoverageReport {
  readonly operations: readonly OperationCoverage[];
  /** How many documented statuses and enum values were exercised at least once. */
  readonly covered: number;
  /** How many there are. */
  readonly total: number;
}

/**
 * The documented enum values a request carries, as `[input, value]` positions in its operation's
 * enum inputs and their values: what `record` counts. Made by `enumValuesOf`.
 */
export type EnumValues = readonly (readonly [input: number, value: number])[];

interface EnumInput {
  readonly key: string;
  readonly location: 'query' | 'body';
  readonly name: string;
  readonly values: readonly string[];
  /** Each value's position in `values`: a request's value is found without reading them all (a variant may list 90,003). */
  readonly positions: ReadonlyMap<string, number>;
}

interface Tally {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly documented: readonly string[];
  readonly inputs: readonly EnumInput[];
  /** Answers by status code (`statuses[404]`): counting is an array write, on every answer. */
  statuses: number[];
  /** Requests by enum value (`values[input][value]`), positions as in `inputs`. */
  values: number[][];
}

/**
 * What a mock records coverage into and reports it from: `Coverage` in this process, or
 * `SharedCoverage`, which adds every replica's counts up in Redis.
 */
export interface CoverageKeeper {
  enumValuesOf(operationId: string, query: string): EnumValues;
  record(operationId: string, status: number, values: EnumValues): void;
  recordBody(operationId: string, body: JsonValue): void;
  report(): Pending<CoverageReport>;
  clear(): Pending<void>;
}

/** A count for every HTTP status (100 to 599), each 0. */
const noResponses = (): number[] => new Array<number>(600).fill(0);

function enumValues(doc: OpenApiDocument, schema: JsonSchema | Reference | undefined): readonly string[] | undefined {
  if (schema === undefined) return undefined;
  const values = resolve<JsonSchema>(doc, schema).enum;
  return Array.isArray(values) ? values.map(String) : undefined;
}

function enumInput(key: string, location: EnumInput['location'], name: string, values: readonly string[]): EnumInput {
  const positions = new Map<string, number>();
  values.forEach((value, at) => {
    if (!positions.has(value)) positions.set(value, at);
  });
  return { key, location, name, values, positions };
}

function enumInputs(doc: OpenApiDocument, operation: Operation): EnumInput[] {
  const inputs: EnumInput[] = [];
  for (const parameter of parametersOf(doc, operation)) {
    const values = enumValues(doc, parameter.schema);
    if (parameter.in === 'query' && values) inputs.push(enumInput(`query.${parameter.name}`, 'query', parameter.name, values));
  }
  const body = operation.requestBody?.content['application/json']?.schema;
  // `properties` of a schema is a map of schemas (the spec's linters hold it to that); JsonSchema types every keyword `unknown`.
  const properties = (body ? resolve<JsonSchema>(doc, body).properties : undefined) as Record<string, JsonSchema> | undefined;
  for (const [name, schema] of Object.entries(properties ?? {})) {
    const values = enumValues(doc, schema);
    if (values) inputs.push(enumInput(`body.${name}`, 'body', name, values));
  }
  return inputs;
}

/** Where `value` is among `input`'s documented values, or -1. */
function valueIndex(input: EnumInput, value: unknown): number {
  return typeof value === 'string' ? (input.positions.get(value) ?? -1) : -1;
}

/** The documented enum values `query` carries for `inputs`. */
function queryValues(inputs: readonly EnumInput[], query: string): EnumValues {
  const named = inputs.flatMap((input, index) => (input.location === 'query' && query.includes(input.name) ? [[input, index] as const] : []));
  // Most queries (`limit=20`) name no enum input: they are never parsed.
  if (named.length === 0) return [];
  const search = new URLSearchParams(query);
  return named.flatMap(([input, index]) => {
    const value = valueIndex(input, search.get(input.name));
    return value === -1 ? [] : [[index, value] as const];
  });
}

function bump(values: number[][], input: number, value: number, times = 1): void {
  const counts = values[input];
  if (counts !== undefined && value < counts.length) counts[value] = (counts[value] ?? 0) + times;
}

/** No request yet for any value of any of `inputs`. */
const noValues = (inputs: readonly EnumInput[]): number[][] => inputs.map((input) => input.values.map(() => 0));

/**
 * The tallies of one mock. Recording costs an array write per answer and per enum value; reading a
 * query's enum values (`enumValuesOf`) is left to the caller, once per distinct query.
 * @example
 * const coverage = new Coverage('/v1');
 * coverage.record('getPet', 404, []);
 * coverage.report().operations.find((o) => o.operationId === 'getPet')?.statuses['404']; // 1
 */
export class Coverage implements CoverageKeeper {
  readonly #tallies: ReadonlyMap<string, Tally>;

  /** The coverage of the operations of `doc` (the bundled spec unless told), under `basePath`. */
  constructor(basePath: string, doc: OpenApiDocument = openapi) {
    this.#tallies = new Map(
      operationsOf(doc).map(({ operationId, method, path, operation }) => {
        const inputs = enumInputs(doc, operation);
        const tally: Tally = {
          operationId,
          method: method.toUpperCase(),
          path: basePath + path,
          documented: Object.keys(operation.responses),
          inputs,
          statuses: noResponses(),
          values: noValues(inputs),
        };
        return [operationId, tally];
      }),
    );
  }

  /**
   * The documented enum values a request to `operationId` with this query string carries. It depends
   * on the two alone: a host that has seen the query before may keep it.
   */
  enumValuesOf(operationId: string, query: string): EnumValues {
    const tally = this.#tallies.get(operationId);
    return tally && query !== '' ? queryValues(tally.inputs, query) : [];
  }

  /** Counts an answer of `operationId`, and the enum values its request carried (see `enumValuesOf`). */
  record(operationId: string, status: number, values: EnumValues): void {
    const tally = this.#tallies.get(operationId);
    if (!tally) return;
    tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
    for (const [input, value] of values) bump(tally.values, input, value);
  }

  /** Counts the enum values of a request body as sent, before any default is applied. */
  recordBody(operationId: string, body: JsonValue): void {
    const tally = this.#tallies.get(operationId);
    if (!tally || typeof body !== 'object' || body === null || Array.isArray(body)) return;
    tally.inputs.forEach((input, index) => {
      const value = input.location === 'body' ? valueIndex(input, body[input.name]) : -1;
      if (value !== -1) bump(tally.values, index, value);
    });
  }

  /**
   * What was recorded, as counts by name (`listPets 200`, `listPets query.status=sold`), zeros left
   * out: the form in which replicas add up their coverage (see `add`).
   */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const tally of this.#tallies.values()) {
      tally.statuses.forEach((times, status) => {
        if (times > 0) counts[`${tally.operationId} ${status}`] = times;
      });
      tally.inputs.forEach((input, index) => {
        (tally.values[index] ?? []).forEach((times, at) => {
          if (times > 0) counts[`${tally.operationId} ${input.key}=${input.values[at]}`] = times;
        });
      });
    }
    return counts;
  }

  /** Adds counts named as `counts()` names them, another replica's say; a name this spec does not know is left out. */
  add(counts: Readonly<Record<string, number>>): void {
    for (const [name, times] of Object.entries(counts)) {
      const [operationId = '', what = ''] = name.split(' ');
      const tally = this.#tallies.get(operationId);
      if (!tally || !Number.isSafeInteger(times) || times <= 0) continue;
      const status = Number(what);
      if (/^[1-5]\d\d$/.test(what)) tally.statuses[status] = (tally.statuses[status] ?? 0) + times;
      const [key, value] = what.split('=');
      const input = tally.inputs.findIndex((candidate) => candidate.key === key);
      const enumInput = tally.inputs[input];
      const at = enumInput === undefined ? -1 : valueIndex(enumInput, value);
      if (at !== -1) bump(tally.values, input, at, times);
    }
  }

  /** Forgets everything recorded. */
  clear(): void {
    for (const tally of this.#tallies.values()) {
      tally.statuses = noResponses();
      tally.values = noValues(tally.inputs);
    }
  }

  /** The counts, naming at most `VALUES_NAMED` values of each enum input within `NAMED_VALUE_BYTES` (the others counted): an answer bounded in bytes whatever the spec's enums. */
  report(): CoverageReport {
    let covered = 0;
    let total = 0;
    const budget = new NamingBudget();
    const operations = [...this.#tallies.values()].map((tally): OperationCoverage => {
      const missed: string[] = [];
      const statuses: Record<string, number> = {};
      const responded = tally.statuses.flatMap((times, status) => (times > 0 ? [String(status)] : []));
      for (const status of new Set([...tally.documented, ...responded])) {
        const times = tally.statuses[Number(status)] ?? 0;
        statuses[status] = times;
        if (!tally.documented.includes(status)) continue;
        total++;
        if (times > 0) covered++;
        else missed.push(status);
      }
      const enums: Record<string, Record<string, number>> = {};
      const unnamed: Record<string, Unnamed> = {};
      tally.inputs.forEach((input, index) => {
        const counts = tally.values[index] ?? [];
        const exercised = (at: number) => (counts[at] ?? 0) > 0;
        const named = namedPositions(input.values, exercised, budget, (value) => `${input.key}=${value}`);
        enums[input.key] = Object.fromEntries(named.map((at) => [input.values[at], counts[at] ?? 0]));
        for (const at of named) if (!exercised(at)) missed.push(`${input.key}=${input.values[at]}`);
        const left = unnamedCount(input.values.length, named, exercised);
        if (named.length < input.values.length) unnamed[input.key] = left;
        total += input.values.length;
        covered += named.filter(exercised).length + left.exercised;
      });
      const { operationId, method, path } = tally;
      return { operationId, method, path, statuses, enums, missed, ...(Object.keys(unnamed).length > 0 ? { unnamed } : {}) };
    });
    return { operations, covered, total };
  }
}

/**
 * The report as text for a terminal: per operation, what was exercised (with counts) and what never was.
 * @example
 * process.stderr.write(formatCoverage(mock.coverage()));
 * // petstore-mock coverage: 5 of 24 documented statuses and enum values exercised
 * // listPets  GET /v1/pets
 * //   exercised  200 ×12, 401 ×1, query.status=sold ×2
 * //   never      400, 429, 500, 503, query.status=available, query.status=pending
 */
export function formatCoverage(report: CoverageReport): string {
  const lines = [`petstore-mock coverage: ${report.covered} of ${report.total} documented statuses and enum values exercised`];
  const width = Math.max(...report.operations.map((operation) => operation.operationId.length));
  for (const operation of report.operations) {
    const exercised = [
      ...Object.entries(operation.statuses).filter(([, times]) => times > 0),
      ...Object.entries(operation.enums).flatMap(([key, values]) =>
        Object.entries(values)
          .filter(([, times]) => times > 0)
          .map(([value, times]) => [`${key}=${value}`, times] as const),
      ),
    ].map(([what, times]) => `${what} ×${times}`);
    lines.push(`${operation.operationId.padEnd(width)}  ${operation.method} ${operation.path}`);
    lines.push(`  exercised  ${exercised.join(', ') || 'nothing'}`);
    lines.push(`  never      ${operation.missed.join(', ') || 'nothing: all covered'}`);
    for (const [key, { exercised, never }] of Object.entries(operation.unnamed ?? {}))
      lines.push(`  not named  ${key}: ${exercised} more values exercised, ${never} more never (a report names ${VALUES_NAMED} values of an input)`);
  }
  return `${lines.join('\n')}\n`;
}
