/**
 * The spec coverage of a run: for each operation of the spec, each status it documents, each
 * parameter and body field, and each enum value, whether the run exercised it and what the
 * deployment answered. Everything listed comes from the spec (src/openapi/document.ts), nothing
 * from a hand list: a status or an enum value added to the spec appears here, unexercised, until a
 * check sends it.
 */
import { NamingBudget, namedPositions, type Unnamed, unnamedCount, VALUES_NAMED } from '../../bounds/values-named.js';
import { type JsonSchema, operationsOf, parametersOf, resolve } from '../../openapi/document.js';
import { type Contract, decoded, templatePattern } from '../contract.js';
import type { ObservedExchange } from '../http.js';

/** How many responses had each status, by status. */
type Answered = Readonly<Record<string, number>>;

interface ValueCoverage {
  readonly value: string;
  readonly exercised: boolean;
  /** Requests that sent this value. */
  readonly requests: number;
  readonly answered: Answered;
}

/** A parameter of the operation, or (`in: 'body'`) a field of its JSON request body. */
interface ParameterCoverage {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie' | 'body';
  readonly required: boolean;
  readonly exercised: boolean;
  /** Requests that sent it, with any value. */
  readonly requests: number;
  readonly answered: Answered;
  /** The values of its enum it names, when the spec gives one: at most `VALUES_NAMED`, the exercised first, within the run's `NAMED_VALUE_BYTES`. */
  readonly values?: readonly ValueCoverage[];
  /** When its enum has more values than are named: how many of the others were exercised, and never. */
  readonly valuesNotNamed?: Unnamed;
  /** Requests that sent a value outside its enum (another case, another spelling): the probes of its rejection. */
  readonly outsideEnum?: number;
}

interface StatusCoverage {
  readonly status: number;
  /** False for a status the deployment answered that the spec does not document for the operation. */
  readonly documented: boolean;
  readonly exercised: boolean;
  readonly responses: number;
  /** The first request answered with it: `GET https://staging.example.com/v1/pets?limit=0`. */
  readonly example?: string;
}

export interface OperationCoverage {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly requests: number;
  readonly statuses: readonly StatusCoverage[];
  readonly parameters: readonly ParameterCoverage[];
}

/** Of what the spec documents, how much the run exercised. */
interface Tally {
  readonly documented: number;
  readonly exercised: number;
}

export interface Coverage {
  readonly operations: readonly OperationCoverage[];
  /** Requests that match no operation of the spec (other spellings of a path, other methods): the probes. */
  readonly unmatched: { readonly requests: number; readonly answered: Answered };
  readonly totals: { readonly operations: Tally; readonly statuses: Tally; readonly parameters: Tally; readonly enumValues: Tally };
}

/** A parameter or body field as the spec describes it. */
interface Input {
  readonly name: string;
  readonly in: ParameterCoverage['in'];
  readonly required: boolean;
  readonly enum: readonly string[] | undefined;
}

/** An operation as the spec describes it, with what matches its requests. */
interface SpecOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly pattern: RegExp;
  /** The names of the path's parameters, in the order of the pattern's groups. */
  readonly pathNames: readonly string[];
  readonly statuses: readonly number[];
  readonly inputs: readonly Input[];
  readonly hasBody: boolean;
}

/** One response, as coverage keeps it: the operation, the status, and each input's value as sent. */
interface Hit {
  readonly status: number;
  readonly request: string;
  readonly values: ReadonlyMap<string, string>;
}

function enumOf(doc: Contract['doc'], schema: JsonSchema | undefined): string[] | undefined {
  const values = schema === undefined ? undefined : resolve(doc, schema).enum;
  return Array.isArray(values) ? values.map(String) : undefined;
}

function inputKey(input: Pick<Input, 'in' | 'name'>): string {
  return `${input.in}:${input.name}`;
}

/** A path template as a pattern, with the names of its parameters in the order of the pattern's groups. */
function patternOf(path: string): { pattern: RegExp; pathNames: string[] } {
  return { pattern: templatePattern(path), pathNames: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '') };
}

/** The operations of the spec, their documented statuses, parameters and body fields. */
function specOperations(contract: Contract): SpecOperation[] {
  const { doc } = contract;
  return operationsOf(doc).map(({ operationId, method, path, operation }) => {
    const parameters: Input[] = parametersOf(doc, operation).map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required === true,
      enum: enumOf(doc, p.schema),
    }));
    const hasBody = operation.requestBody?.content['application/json']?.schema !== undefined;
    const body = hasBody ? contract.body(operationId) : undefined;
    const fields: Input[] = Object.entries(body?.properties ?? {}).map(([name, shape]) => ({
      name,
      in: 'body',
      required: body?.required.includes(name) ?? false,
      enum: shape.enum?.map(String),
    }));
    const statuses = Object.keys(operation.responses)
      .map(Number)
      .filter(Number.isInteger)
      .sort((a, b) => a - b);
    return { operationId, method: method.toUpperCase(), path, ...patternOf(path), statuses, inputs: [...parameters, ...fields], hasBody };
  });
}

/** A body field's value as compared with its enum: a string as it is, anything else as JSON. */
function fieldValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Each input of the operation the request sent, by key, with its value. */
function valuesOf(operation: SpecOperation, match: RegExpExecArray, query: URLSearchParams, exchange: ObservedExchange): Map<string, string> {
  const values = new Map<string, string>();
  for (const [i, name] of operation.pathNames.entries()) values.set(inputKey({ in: 'path', name }), decoded(match[i + 1] ?? ''));
  for (const input of operation.inputs) {
    const value = input.in === 'query' ? query.get(input.name) : input.in === 'header' ? exchange.request.headers[input.name.toLowerCase()] : undefined;
    if (value !== null && value !== undefined) values.set(inputKey(input), value);
  }
  if (operation.hasBody && exchange.request.body !== undefined) {
    let body: unknown;
    try {
      body = JSON.parse(exchange.request.body);
    } catch {
      return values;
    }
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      for (const [name, value] of Object.entries(body)) values.set(inputKey({ in: 'body', name }), fieldValue(value));
  }
  return values;
}

function answeredBy(hits: readonly Hit[]): Answered {
  const answered: Record<string, number> = {};
  for (const hit of hits) answered[hit.status] = (answered[hit.status] ?? 0) + 1;
  return answered;
}

function inputCoverage(input: Input, hits: readonly Hit[], budget: NamingBudget): ParameterCoverage {
  const key = inputKey(input);
  const sent = hits.filter((hit) => hit.values.has(key));
  const base = { name: input.name, in: input.in, required: input.required, exercised: sent.length > 0, requests: sent.length, answered: answeredBy(sent) };
  if (input.enum === undefined) return base;
  // One pass over the requests, not one per value: a variant's enum may list 90,003 values.
  const byValue = new Map<string, Hit[]>();
  for (const hit of sent) {
    const value = hit.values.get(key) ?? '';
    const same = byValue.get(value);
    if (same) same.push(hit);
    else byValue.set(value, [hit]);
  }
  const values = input.enum;
  const exercised = (at: number) => byValue.has(values[at] ?? '');
  const named = namedPositions(values, exercised, budget, (value) => `${key}=${value}`);
  const known = new Set(values);
  const outsideEnum = sent.filter((hit) => !known.has(hit.values.get(key) ?? '')).length;
  const listed = named.map((at) => {
    const value = values[at] ?? '';
    const matching = byValue.get(value) ?? [];
    return { value, exercised: matching.length > 0, requests: matching.length, answered: answeredBy(matching) };
  });
  const notNamed = named.length < values.length ? { valuesNotNamed: unnamedCount(values.length, named, exercised) } : {};
  return { ...base, values: listed, ...notNamed, outsideEnum };
}

function operationCoverage(operation: SpecOperation, hits: readonly Hit[], budget: NamingBudget): OperationCoverage {
  const answered = [...new Set(hits.map((hit) => hit.status))].filter((status) => !operation.statuses.includes(status)).sort((a, b) => a - b);
  const statuses = [...operation.statuses, ...answered].map((status) => {
    const matching = hits.filter((hit) => hit.status === status);
    return {
      status,
      documented: operation.statuses.includes(status),
      exercised: matching.length > 0,
      responses: matching.length,
      ...(matching[0] === undefined ? {} : { example: matching[0].request }),
    };
  });
  const { operationId, method, path } = operation;
  return { operationId, method, path, requests: hits.length, statuses, parameters: operation.inputs.map((input) => inputCoverage(input, hits, budget)) };
}

function tally<T>(items: readonly T[], exercised: (item: T) => boolean, documented: (item: T) => boolean = () => true): Tally {
  const listed = items.filter(documented);
  return { documented: listed.length, exercised: listed.filter(exercised).length };
}

function totalsOf(operations: readonly OperationCoverage[]): Coverage['totals'] {
  const parameters = operations.flatMap((operation) => operation.parameters);
  return {
    operations: tally(operations, (operation) => operation.requests > 0),
    statuses: tally(
      operations.flatMap((operation) => operation.statuses),
      (status) => status.exercised,
      (status) => status.documented,
    ),
    parameters: tally(parameters, (parameter) => parameter.exercised),
    enumValues: parameters.reduce(
      (sum, { values = [], valuesNotNamed = { exercised: 0, never: 0 } }) => ({
        documented: sum.documented + values.length + valuesNotNamed.exercised + valuesNotNamed.never,
        exercised: sum.exercised + values.filter((value) => value.exercised).length + valuesNotNamed.exercised,
      }),
      { documented: 0, exercised: 0 },
    ),
  };
}

/**
 * Listens to the run's responses (`observe`, an `ExchangeObserver`) and says what they covered
 * (`coverage`). It keeps a few values per response, so it runs on every run.
 */
export class CoverageRecorder {
  readonly #operations: readonly SpecOperation[];
  readonly #base: string;
  readonly #hits = new Map<string, Hit[]>();
  readonly #unmatched: Hit[] = [];
  readonly #shown: (url: string) => string;

  /**
   * `baseUrl`: what every request's URL starts with, the API's version prefix included; `shown`: a URL
   * as the coverage's examples show it (without the key, when the base URL holds it).
   */
  constructor(contract: Contract, baseUrl: string, shown: (url: string) => string = (url) => url) {
    this.#operations = specOperations(contract);
    this.#base = baseUrl.replace(/\/+$/, '');
    this.#shown = shown;
  }

  readonly observe = (exchange: ObservedExchange): void => {
    const { url, method } = exchange.request;
    const request = `${method} ${this.#shown(url)}`;
    const relative = url.startsWith(this.#base) ? url.slice(this.#base.length) : undefined;
    const [path = '', query = ''] = (relative ?? '').split(/\?(.*)/s);
    for (const operation of this.#operations) {
      const match = relative === undefined || operation.method !== method ? null : operation.pattern.exec(path);
      if (match === null) continue;
      const hits = this.#hits.get(operation.operationId) ?? [];
      hits.push({ status: exchange.status, request, values: valuesOf(operation, match, new URLSearchParams(query), exchange) });
      this.#hits.set(operation.operationId, hits);
      return;
    }
    this.#unmatched.push({ status: exchange.status, request, values: new Map() });
  };

  coverage(): Coverage {
    const budget = new NamingBudget();
    const operations = this.#operations.map((operation) => operationCoverage(operation, this.#hits.get(operation.operationId) ?? [], budget));
    return { operations, unmatched: { requests: this.#unmatched.length, answered: answeredBy(this.#unmatched) }, totals: totalsOf(operations) };
  }
}

/** What the deployment answered, as a report's cell shows it: `200 ×3, 400`. */
function answeredText(answered: Answered): string {
  const parts = Object.entries(answered).map(([status, n]) => (n === 1 ? status : `${status} ×${n}`));
  return parts.length === 0 ? '—' : parts.join(', ');
}

/** The totals in one line: `documented statuses exercised: 8 of 20 · parameters: 5 of 5 · enum values: 6 of 6`. */
export function totalsText({ totals }: Coverage): string {
  const of = ({ exercised, documented }: Tally) => `${exercised} of ${documented}`;
  return `operations ${of(totals.operations)} · documented statuses ${of(totals.statuses)} · parameters and body fields ${of(totals.parameters)} · enum values ${of(totals.enumValues)}`;
}

/** One row of a report's coverage table: what, whether exercised, what the deployment answered. */
export interface CoverageRow {
  readonly what: string;
  readonly exercised: boolean;
  readonly answered: string;
  /** A status the spec does not document, answered all the same. */
  readonly undocumented?: boolean;
}

/** The rows of one operation's table: its statuses, then each parameter and its enum values. */
export function coverageRows(operation: OperationCoverage): CoverageRow[] {
  const rows: CoverageRow[] = operation.statuses.map((status) => ({
    what: `status ${status.status}${status.documented ? '' : ' (not documented)'}`,
    exercised: status.exercised,
    answered: status.responses === 0 ? '—' : `${status.responses} × · first to ${status.example ?? ''}`,
    ...(status.documented ? {} : { undocumented: true }),
  }));
  for (const parameter of operation.parameters) {
    const outside = parameter.outsideEnum ? ` · ${parameter.outsideEnum} outside the enum` : '';
    rows.push({
      what: `${parameter.in} ${parameter.name}${parameter.required ? ' (required)' : ''}`,
      exercised: parameter.exercised,
      answered: `${answeredText(parameter.answered)}${outside}`,
    });
    for (const value of parameter.values ?? [])
      rows.push({ what: `${parameter.in} ${parameter.name} = ${value.value}`, exercised: value.exercised, answered: answeredText(value.answered) });
    const { valuesNotNamed } = parameter;
    if (valuesNotNamed)
      rows.push({
        what: `${parameter.in} ${parameter.name}: ${valuesNotNamed.exercised + valuesNotNamed.never} more values, not named (a report names ${VALUES_NAMED} of an input)`,
        exercised: valuesNotNamed.never === 0,
        answered: `${valuesNotNamed.exercised} exercised, ${valuesNotNamed.never} never`,
      });
  }
  return rows;
}
