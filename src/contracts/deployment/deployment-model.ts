/**
 * One model of the deployment for the whole run, fed by every response of every suite (the spec
 * suite's checks, the Pact suite's interactions and provider states, the fuzz suite's sequences,
 * retries included) through the run's observer. It records what each response showed of the
 * collection (items acknowledged by a create, read by id, listed on a page) and the headers the spec
 * documents, and judges the run-wide invariants once the run is over (invariants.ts), so that a
 * response heard late (a Pact worker's) counts as much as one heard early. Each failure names the
 * requests that show it.
 */

import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { isWrite } from '../../http/methods.js';
import { type JsonValue, parseJson } from '../../json/lossless.js';
import { createAjv } from '../../openapi/ajv.js';
import { type JsonSchema, type OpenApiDocument, operationById, operationsOf, resolve } from '../../openapi/document.js';
import { type ModelOperation, operationOfKind, type ResourceModel } from '../../openapi/resource-model.js';
import { excerpt } from '../../terminal/excerpt-text.js';
import { conformanceOf, formFault, undocumentedStatusFault } from '../check.js';
import { type Contract, judgeOptions, templatePattern } from '../contract.js';
import { KEY_PLACEHOLDER, type ObservedExchange, type RecordedRequest } from '../http.js';
import { exact, isPet, type PetJson } from '../pets.js';

/** The operations of the resource model (src/openapi/resource-model.ts) the run-wide model follows items through. */
export interface FollowedOperations {
  readonly list: ModelOperation;
  readonly create: ModelOperation;
  readonly read: ModelOperation;
}

/** The list, create and read of `model`; undefined when it lacks one, and the run-wide model is then not made. */
export function followedOperations(model: ResourceModel): FollowedOperations | undefined {
  const [list, create, read] = (['list', 'create', 'read'] as const).map((kind) => operationOfKind(model, kind));
  return list && create && read && { list, create, read };
}

/** One response the model heard, with when its request left and when its response was heard. */
export interface Heard {
  readonly request: RecordedRequest;
  readonly status: number;
  /** When the request left, by `Date.now()` (whole milliseconds, never later than the true moment). */
  readonly sentAt: number;
  /** When the model heard the response, in epoch milliseconds with a fraction: never earlier than its arrival. */
  readonly heardAt: number;
}

/** A create the deployment acknowledged (2xx with an item): the item as acknowledged, and what was sent when the body was valid. */
export interface Acknowledged extends Heard {
  readonly id: string;
  readonly item: PetJson;
  /** The fields the create's body sent, when the spec's schema accepts that body. */
  readonly sent: Readonly<Record<string, JsonValue>> | undefined;
}

/** A read of one item by its exact id, with the valid key. */
export interface ReadById extends Heard {
  readonly id: string;
  readonly item: PetJson | undefined;
}

/** A page of the listing answered 200 with the valid key. */
export interface Page extends Heard {
  readonly items: readonly PetJson[];
  /**
   * The filters and the size of the page, when every query parameter is one the spec documents with a
   * valid value: only such a page is held to its filters and to listing every item that matches.
   */
  readonly judged: { readonly filters: ReadonlyMap<string, string>; readonly limit: number } | undefined;
}

/** A header the spec documents whose value breaks its schema: the first response that showed it, and how many did. */
export interface HeaderProblem {
  readonly name: string;
  readonly value: string;
  readonly message: string;
  readonly operationId: string;
  readonly first: Heard;
  count: number;
}

/**
 * Where a header the spec documents on an operation's responses was sent and where it was not: the
 * statuses that carried it, and, by status, the first response that lacked it and how many did.
 */
export interface HeaderPresence {
  readonly operationId: string;
  /** The header's name as the spec writes it. */
  readonly name: string;
  readonly sentOn: Set<number>;
  readonly missing: Map<number, { readonly first: Heard; count: number }>;
  /** The statuses whose header object marks it `required` (OpenAPI 3.1 Header Object): there its absence breaks the spec, whatever else was sent. */
  readonly requiredOn: Set<number>;
}

/** A way a response the suites' checks did not inspect (the Pact suite's) breaks the spec: the first that showed it, and how many did. */
export interface ResponseProblem {
  readonly fault: string;
  readonly message: string;
  readonly first: Heard;
  count: number;
}

/** A header schema's branches (`anyOf`, `oneOf`): those it marks `deprecated`, and the others. */
interface HeaderForms {
  readonly current: ValidateFunction[];
  readonly deprecated: ValidateFunction[];
}

/**
 * The header forms of each response of a document, compiled once for every run over it (in process, a
 * test runs the verifier hundreds of times): ajv's set-up, which compiles JSON Schema's meta-schema and
 * checks each component against it, costs more than every compile a run needs.
 */
const formsByDocument = new WeakMap<OpenApiDocument, Map<string, Map<string, HeaderForms>>>();

function headerForms(doc: OpenApiDocument, operationId: string, status: number): Map<string, HeaderForms> {
  const byResponse = formsByDocument.get(doc) ?? new Map<string, Map<string, HeaderForms>>();
  formsByDocument.set(doc, byResponse);
  const key = `${operationId} ${status}`;
  const forms = byResponse.get(key) ?? compiledHeaderForms(doc, operationId, status);
  byResponse.set(key, forms);
  return forms;
}

function compiledHeaderForms(doc: OpenApiDocument, operationId: string, status: number): Map<string, HeaderForms> {
  const forms = new Map<string, HeaderForms>();
  const reference = operationById(doc, operationId).operation.responses[String(status)];
  if (reference === undefined) return forms;
  let ajv: Ajv2020 | undefined;
  for (const [name, header] of Object.entries(resolve(doc, reference).headers ?? {})) {
    const schema = resolve(doc, header).schema;
    const branches = schema && [schema.anyOf, schema.oneOf].flatMap((list) => (Array.isArray(list) ? (list as JsonSchema[]) : []));
    if (!schema || !branches?.some((branch) => branch.deprecated === true)) continue;
    ajv ??= createAjv(doc, judgeOptions(doc));
    const compiler = ajv;
    // A branch is read with its parent's type, as the parent applies both.
    const type = schema.type === undefined ? {} : { type: schema.type };
    const compile = (branch: JsonSchema) => compiler.compile({ ...type, ...branch });
    forms.set(name.toLowerCase(), {
      current: branches.filter((branch) => branch.deprecated !== true).map(compile),
      deprecated: branches.filter((branch) => branch.deprecated === true).map(compile),
    });
  }
  return forms;
}

/** The item's id as text: the digits of a number, a string as it is. */
function idKey(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'bigint' ? exact(value) : undefined;
}

/** True when the request carried the run's key as a bearer credential, spelt as the interface writes it. */
function withValidKey(request: RecordedRequest): boolean {
  return request.headers.authorization === `Bearer ${KEY_PLACEHOLDER}`;
}

/** The longest string the model keeps as it is: far more than any string of the spec (a name is at most 100). */
const HELD_CHARS = 1_024;

/**
 * `value` as the model keeps it for the whole run: each string longer than `HELD_CHARS` stands for its
 * excerpt, length and SHA-256, which compare equal exactly when the strings do, so that a deployment
 * answering names of megabytes cannot make the run hold every one of them.
 */
function held(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.length <= HELD_CHARS ? value : `${excerpt(value)} sha256:${createHash('sha256').update(value).digest('hex')}`;
  if (Array.isArray(value)) return value.map(held);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, held(member)]));
  return value;
}

/** Precise epoch milliseconds, comparable with `Date.now()` of any process of the run. */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

export class DeploymentModel {
  readonly acknowledged: Acknowledged[] = [];
  readonly reads: ReadById[] = [];
  readonly pages: Page[] = [];
  /** Item paths a request with a method that changes items (PUT, PATCH, DELETE) succeeded on, by id. */
  readonly changed = new Map<string, Heard>();
  /** Items the resource model's delete succeeded on, by id: the first such response. */
  readonly removed = new Map<string, Heard>();
  readonly headerProblems = new Map<string, HeaderProblem>();
  /**
   * Advice on documented headers sent in a form their schema accepts only in a branch it marks
   * `deprecated` (JSON Schema 2020-12 §9.3: a legacy form clients accept and senders should drop), by header.
   */
  readonly advice = new Map<string, string>();
  /** What the conformance rule found in the responses heard with `inspect` (the Pact suite's), by fault. */
  readonly responseProblems = new Map<string, ResponseProblem>();
  /** How many responses were heard with `inspect`. */
  inspected = 0;
  /** Each header the spec documents on an operation's responses, where the run saw it sent and where not, by `operationId name`. */
  readonly headerPresence = new Map<string, HeaderPresence>();
  /** How many responses sent a header the spec documents for them: what `headerProblems` were judged on. */
  headersSent = 0;
  readonly #base: URL;
  /** Every operation of the spec, by its method and a pattern of its path: whose documented headers a response is held to. */
  readonly #operations: readonly { readonly operationId: string; readonly method: string; readonly path: RegExp }[];

  /** The resource's fields, by name. */
  readonly fields: readonly string[];
  /** The fields a create sends. */
  readonly #sent: ReadonlySet<string>;
  /**
   * Methods the spec documents on the item's path that are not safe (RFC 9110 §9.2.1: PUT, PATCH,
   * DELETE): an item may change or go away after one of them succeeds.
   */
  readonly #itemChanges: ReadonlySet<string>;
  /** The method of the resource model's delete, when it has one. */
  readonly #removes: string | undefined;
  /** The record's id field, from the resource model: what makes a body a record. */
  readonly #id: { readonly idField: string };

  constructor(
    readonly kinds: FollowedOperations,
    readonly contract: Contract,
    baseUrl: string,
  ) {
    this.#base = new URL(baseUrl.replace(/\/*$/, '/'));
    const { model } = contract;
    this.#id = { idField: model.id.field };
    this.fields = model.fields.map((field) => field.name);
    this.#sent = new Set(model.fields.filter((field) => field.writable).map((field) => field.name));
    const changes = model.operations.filter((operation) => operation.path === model.itemPath && isWrite(operation.method.toUpperCase()));
    this.#itemChanges = new Set(changes.map((operation) => operation.method.toUpperCase()));
    this.#removes = operationOfKind(model, 'delete')?.method.toUpperCase();
    this.#operations = operationsOf(contract.doc).map(({ operationId, method, path }) => ({
      operationId,
      method: method.toUpperCase(),
      path: templatePattern(path),
    }));
  }

  /** The path below the base URL a request went to (`/pets/12`), or undefined for another origin or prefix. */
  #pathOf(url: string): { path: string; query: URLSearchParams } | undefined {
    const parsed = new URL(url);
    if (parsed.origin !== this.#base.origin || !parsed.pathname.startsWith(this.#base.pathname)) return undefined;
    return { path: `/${parsed.pathname.slice(this.#base.pathname.length)}`, query: parsed.searchParams };
  }

  /** The id in an item path (`/pets/12`), decoded, when the path is one. */
  #itemId(path: string): string | undefined {
    const prefix = `${this.contract.model.collectionPath}/`;
    if (!path.startsWith(prefix) || path.slice(prefix.length).includes('/')) return undefined;
    try {
      return decodeURIComponent(path.slice(prefix.length));
    } catch {
      return undefined;
    }
  }

  /**
   * Hears one response of any suite. `inspect` holds it to the spec's conformance rule (status, media
   * type, body), for a response no check of the spec suite inspected: the Pact suite's.
   */
  observe(exchange: ObservedExchange, inspect = false): void {
    const at = this.#pathOf(exchange.request.url);
    if (at === undefined) return;
    const heard: Heard = { request: exchange.request, status: exchange.status, sentAt: exchange.startedAt, heardAt: preciseNow() };
    const method = exchange.request.method.toUpperCase();
    const itemId = this.#itemId(at.path);
    const operationId = this.#operations.find((operation) => operation.method === method && operation.path.test(at.path))?.operationId;
    if (operationId !== undefined) this.#checkHeaders(exchange, heard, operationId);
    if (operationId !== undefined && inspect) this.#inspect(exchange, heard, operationId);
    if (!withValidKey(exchange.request) || exchange.status >= 300) {
      if (exchange.status === 404 && itemId !== undefined && method === 'GET' && withValidKey(exchange.request))
        this.reads.push({ ...heard, id: itemId, item: undefined });
      return;
    }
    if (itemId !== undefined && method === this.#removes && !this.removed.has(itemId)) this.removed.set(itemId, heard);
    let body: JsonValue | undefined;
    try {
      body = exchange.text.trim() === '' ? undefined : held(parseJson(exchange.text));
    } catch {
      return;
    }
    const { list, create, read } = this.kinds;
    if (at.path === list.path && method === list.method.toUpperCase() && Array.isArray(body))
      this.pages.push({ ...heard, items: body.filter((item) => isPet(this.#id, item)), judged: this.#judged(at.query) });
    else if (at.path === create.path && method === create.method.toUpperCase()) this.#acknowledge(heard, body);
    else if (itemId !== undefined && method === read.method.toUpperCase())
      this.reads.push({ ...heard, id: itemId, item: isPet(this.#id, body) ? body : undefined });
    else if (itemId !== undefined && this.#itemChanges.has(method) && !this.changed.has(itemId)) this.changed.set(itemId, heard);
  }

  #acknowledge(heard: Heard, body: JsonValue | undefined): void {
    const id = isPet(this.#id, body) ? idKey(body[this.#id.idField]) : undefined;
    if (id === undefined || !isPet(this.#id, body)) return;
    this.acknowledged.push({ ...heard, id, item: body, sent: this.#validBody(heard.request.body) });
  }

  /** The fields of a create's body, when it is JSON the spec's schema accepts. */
  #validBody(text: string | undefined): Record<string, JsonValue> | undefined {
    let body: JsonValue;
    try {
      body = parseJson(text ?? '');
    } catch {
      return undefined;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
    if ((this.contract.requestViolations(this.kinds.create.operationId, body) ?? []).length > 0) return undefined;
    // Held as the answers are, so that a long value sent compares with the same value answered.
    return Object.fromEntries(Object.entries(body).flatMap(([field, value]) => (this.#sent.has(field) ? [[field, held(value)]] : [])));
  }

  /** A page's filters and limit, when every query parameter is documented and valid; else undefined. */
  #judged(query: URLSearchParams): Page['judged'] {
    const { filters: documented, pageSize } = this.kinds.list;
    const filters = new Map<string, string>();
    let limit = pageSize?.default ?? pageSize?.maximum ?? Number.POSITIVE_INFINITY;
    const names = [...query.keys()];
    if (new Set(names).size !== names.length) return undefined;
    for (const [name, value] of query) {
      const filter = documented.find((candidate) => candidate.parameter === name);
      if (filter?.values.map(String).includes(value)) filters.set(name, value);
      else if (pageSize?.parameter === name && /^[0-9]+$/.test(value) && Number(value) >= pageSize.minimum && Number(value) <= pageSize.maximum)
        limit = Number(value);
      else return undefined;
    }
    return { filters, limit };
  }

  /** Every documented header the response sends is held to its schema in the spec, whichever suite sent the request. */
  #checkHeaders(exchange: ObservedExchange, heard: Heard, operationId: string): void {
    const headers: Record<string, string> = {};
    for (const [name, value] of exchange.headers) headers[name.toLowerCase()] = value;
    this.#adviseDeprecatedForms(operationId, exchange.status, headers);
    const violations = this.contract.headerViolations(operationId, exchange.status, headers);
    if (violations !== undefined && this.#documentsAny(operationId, exchange.status, headers)) this.headersSent++;
    this.#notePresence(operationId, exchange.status, headers, heard);
    for (const problem of violations ?? []) {
      const name = problem.instancePath.slice(1);
      const known = this.headerProblems.get(name);
      if (known) known.count++;
      else this.headerProblems.set(name, { name, value: headers[name] ?? '', message: problem.message, operationId, first: heard, count: 1 });
    }
  }

  /** The response held to the conformance rule, as the spec suite's checks hold theirs; headers are judged apart, on every response. */
  #inspect(exchange: ObservedExchange, heard: Heard, operationId: string): void {
    this.inspected++;
    const headers = new Map(exchange.headers.map(([name, value]) => [name.toLowerCase(), value]));
    const response = { status: exchange.status, body: exchange.text, header: (name: string) => headers.get(name) };
    for (const { rule, path, message } of conformanceOf(this.contract)(operationId, response)) {
      if (rule === 'header') continue;
      const fault = rule === 'status' ? undocumentedStatusFault(operationId, exchange.status) : formFault(rule, exchange.status, path);
      const known = this.responseProblems.get(fault);
      if (known) known.count++;
      else this.responseProblems.set(fault, { fault, message, first: heard, count: 1 });
    }
  }

  /** Advice, once per header, for a value only a branch of its schema marked `deprecated` accepts. */
  #adviseDeprecatedForms(operationId: string, status: number, headers: Readonly<Record<string, string>>): void {
    for (const [name, forms] of headerForms(this.contract.doc, operationId, status)) {
      const value = headers[name];
      if (
        value === undefined ||
        this.advice.has(name) ||
        forms.current.some((validate) => validate(value)) ||
        !forms.deprecated.some((validate) => validate(value))
      )
        continue;
      this.advice.set(
        name,
        `${operationId}'s responses come with ${name}: ${value.slice(0, 120)}, a form the spec's schema for it marks deprecated (the interface does not state this header, so this is no failure)`,
      );
    }
  }

  /** True when the response sends a header the spec documents for this operation and status. */
  #documentsAny(operationId: string, status: number, headers: Readonly<Record<string, string>>): boolean {
    return this.#documented(operationId, status).some(([name]) => headers[name.toLowerCase()] !== undefined);
  }

  /** The headers the spec documents on the operation's response of `status`, as it writes their names, each with whether its header object marks it `required`. */
  #documented(operationId: string, status: number): [string, boolean][] {
    const reference = operationById(this.contract.doc, operationId).operation.responses[String(status)];
    const headers = reference === undefined ? {} : (resolve(this.contract.doc, reference).headers ?? {});
    return Object.entries(headers).map(([name, header]) => [name, resolve(this.contract.doc, header).required === true]);
  }

  /**
   * Notes, for each header the spec documents on this response, whether it came. Only the operation's own
   * answers count: a 401 comes from the authentication in front of every operation (its challenge is for
   * the protection space, RFC 9110 §11.6.1, not the resource), a 429 or a 5xx from any layer in front (a
   * rate limiter, a gateway: RFC 6585 §4, RFC 9110 §15.6.3 to §15.6.5), each without the operation's headers.
   */
  #notePresence(operationId: string, status: number, headers: Readonly<Record<string, string>>, heard: Heard): void {
    if (status === 401 || status === 429 || status >= 500) return;
    for (const [name, required] of this.#documented(operationId, status)) {
      const key = `${operationId} ${name.toLowerCase()}`;
      const presence = this.headerPresence.get(key) ?? { operationId, name, sentOn: new Set(), missing: new Map(), requiredOn: new Set() };
      this.headerPresence.set(key, presence);
      if (required) presence.requiredOn.add(status);
      if (headers[name.toLowerCase()] !== undefined) presence.sentOn.add(status);
      else {
        const known = presence.missing.get(status);
        if (known) known.count++;
        else presence.missing.set(status, { first: heard, count: 1 });
      }
    }
  }
}
