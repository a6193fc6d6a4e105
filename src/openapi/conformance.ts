/**
 * "May this response answer this operation?", asked of spec/openapi.yaml (or any OpenAPI document)
 * and answered as data: every way the response breaks the document, never only the first. The mock's
 * self-check and the verifier both ask it here, so the two can never disagree on what a valid response is.
 */
import type { ErrorObject } from 'ajv';
import { type JsonValue, parseJson } from '../json/lossless.js';
import { type OpenApiDocument, operationsOf, resolve } from './document.js';

/** The rule a response broke. */
type ConformanceRule = 'status' | 'header' | 'media-type' | 'body-empty' | 'body-json' | 'schema' | 'error-status';

/**
 * One way a response breaks the document.
 * @example
 * const violation: Violation = { path: 'headers/content-type', rule: 'media-type', message: 'getPet answered 200 with Content-Type text/plain: not a JSON media type ...' };
 */
interface Violation {
  /** Where in the response: `status`, `headers/sunset`, `body`, `body/0/name`. */
  readonly path: string;
  readonly rule: ConformanceRule;
  /** What is wrong, as a sentence of its own: `getPet answered 200 with Content-Type text/plain: ...`. */
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /** For `schema`: the rule of the schema that failed, `#/items/allOf/1/required`. */
  readonly schemaPath?: string;
}

/** A response as conformance reads it: whichever host or client it came from. */
interface ResponseToCheck {
  readonly status: number;
  /** A header by lower-case name. */
  header(name: string): string | undefined;
  /** The body as text; empty when there is none. */
  readonly body: string;
  /**
   * The body as a caller already parsed it (the verifier parses every answer once, as its client
   * reads it), or why it is not JSON: conformance then does not parse it a second time.
   */
  readonly parsed?: { readonly json: JsonValue } | { readonly error: string };
  /**
   * How a text of the response a message quotes is shown: the proxy hides its keys with it. Applied to
   * the whole text before it is cut to an excerpt, so that a cut never leaves part of a key the redactor
   * no longer recognises. Default: as it is.
   */
  readonly shown?: (text: string) => string;
}

/** One failed rule of a JSON schema, as ajv reports it. */
export interface SchemaProblem {
  /** Where in the value: `/0/id`, or `` for the value itself. */
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly message: string;
}

/** Where conformance finds the schemas of bodies: the mock's generated validators, or the verifier's compiled ones. */
export interface ResponseSchemas<Id extends string = string> {
  /** Every problem of `body` under the schema documented for this operation and status; `undefined` when none is documented. */
  violations(operationId: Id, status: number, body: JsonValue): readonly SchemaProblem[] | undefined;
  /**
   * Every problem of the values of the headers documented for this operation and status, given by
   * lower-case name (only those the response sends); `undefined` when none is documented.
   */
  headerViolations(operationId: Id, status: number, headers: Readonly<Record<string, string>>): readonly SchemaProblem[] | undefined;
  /** Every problem of an Error body, for responses outside the operations (an unknown path). Without it they are not checked. */
  errorViolations?(body: JsonValue): readonly SchemaProblem[];
}

/**
 * How strict to be where the document leaves room.
 * @example
 * createConformance(openapi, schemas, { everyDocumentedHeader: true }); // the mock holds itself to every header it lists
 */
export interface ConformanceOptions {
  /**
   * Whether a header the document lists for a response but does not mark `required` must be sent
   * too. The mock holds itself to every header it documents; a deployment need only send the required ones.
   * Default: false.
   */
  readonly everyDocumentedHeader?: boolean;
}

/** Every violation of `response` as a response of `operationId`, or of no operation (`undefined`: an unknown path, an admin route). */
export type Conformance<Id extends string = string> = (operationId: Id | undefined, response: ResponseToCheck) => Violation[];

/**
 * What is wrong with a Content-Type for a JSON body, or `undefined` when it is right: the media type is
 * `application/json` or `application/<anything>+json`, and a `charset`, when there is one, is UTF-8
 * (JSON is UTF-8, RFC 8259). This is the one JSON media-type rule of the project: requests and responses.
 * @example
 * jsonMediaTypeProblem('application/problem+json; charset=UTF-8'); // undefined
 * jsonMediaTypeProblem('application/json; charset=latin1'); // 'charset latin1, where JSON is UTF-8'
 */
export function jsonMediaTypeProblem(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return 'no Content-Type';
  const [essence = '', ...parameters] = contentType.split(';');
  const mediaType = essence.trim().toLowerCase();
  if (!/^application\/(?:[\w.!#$%&'*^`|~-]+\+)?json$/.test(mediaType)) return 'not a JSON media type (application/json, or application/<name>+json)';
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (charset.toLowerCase() !== 'utf-8') return `charset ${charset}, where JSON is UTF-8`;
  }
  return undefined;
}

/** ajv's errors as schema problems; a missing property is placed where it is missing. */
export function schemaProblems(errors: readonly ErrorObject[] | null | undefined): SchemaProblem[] {
  return (errors ?? []).map((error) => ({
    instancePath: error.keyword === 'required' ? `${error.instancePath}/${String(error.params.missingProperty)}` : error.instancePath,
    schemaPath: error.schemaPath,
    message: error.message ?? 'is invalid',
  }));
}

interface DocumentedResponse {
  /** Lower-case names of the headers listed for the status, each with whether it is `required`. */
  readonly headers: readonly { readonly name: string; readonly required: boolean }[];
  /** Whether the document gives this response a JSON body. */
  readonly json: boolean;
}

function documentedResponses(doc: OpenApiDocument): ReadonlyMap<string, ReadonlyMap<number, DocumentedResponse>> {
  return new Map(
    operationsOf(doc).map(({ operationId, operation }) => [
      operationId,
      new Map(
        Object.entries(operation.responses).map(([status, reference]) => {
          const response = resolve(doc, reference);
          const headers = Object.entries(response.headers ?? {}).map(([name, header]) => ({
            name: name.toLowerCase(),
            required: resolve(doc, header).required === true,
          }));
          return [Number(status), { headers, json: response.content?.['application/json'] !== undefined }];
        }),
      ),
    ]),
  );
}

/** A text of the response as a message quotes it: hidden first (`ResponseToCheck.shown`), then cut. */
function excerpt(response: ResponseToCheck, text: string): string {
  const shown = response.shown?.(text) ?? text;
  return shown.length > 120 ? `${shown.slice(0, 120)}…` : shown;
}

/** One response being checked: what every check reads, and the violations they find. */
interface Check<Id extends string> {
  readonly schemas: ResponseSchemas<Id>;
  readonly everyDocumentedHeader: boolean;
  readonly operationId: Id | undefined;
  readonly response: ResponseToCheck;
  /** The responses the operation documents, by status; `undefined` for a response of no operation. */
  readonly statuses: ReadonlyMap<number, DocumentedResponse> | undefined;
  /** What the document says of this response's status. */
  readonly documented: DocumentedResponse | undefined;
  /** How every message starts: `getPet answered 404`. */
  readonly what: string;
  readonly violations: Violation[];
}

/** A status the operation documents. */
function checkStatus({ statuses, documented, what, response, violations }: Check<string>): void {
  if (!statuses || documented) return;
  const listed = [...statuses.keys()].join(', ');
  violations.push({
    path: 'status',
    rule: 'status',
    message: `${what}, a status the spec does not document for it (it documents ${listed})`,
    expected: [...statuses.keys()].join(' or '),
    actual: String(response.status),
  });
}

/** The headers documented for the status: there (the required ones, or all of them), and each as its schema says. */
function checkHeaders<Id extends string>(check: Check<Id>): void {
  const { documented, response, what, violations, everyDocumentedHeader } = check;
  let sent: Record<string, string> | undefined;
  for (const header of documented?.headers ?? []) {
    const value = response.header(header.name);
    if (value !== undefined) {
      sent ??= {};
      sent[header.name] = value;
    } else if (header.required || everyDocumentedHeader)
      violations.push({
        path: `headers/${header.name}`,
        rule: 'header',
        message: `${what} without the header ${header.name} that the spec documents for it`,
      });
  }
  if (sent !== undefined) checkHeaderValues(check, sent);
}

/** A documented header is held to its schema too: `Deprecation: yes-please` is no RFC 9745 date. */
function checkHeaderValues<Id extends string>({ schemas, operationId, response, what, violations }: Check<Id>, sent: Readonly<Record<string, string>>): void {
  if (operationId === undefined) return;
  const named = new Set<string>();
  for (const problem of schemas.headerViolations(operationId, response.status, sent) ?? []) {
    const name = problem.instancePath.slice(1);
    // One violation per header: a schema of several branches (`anyOf`) fails in each of them at once.
    if (named.has(name)) continue;
    named.add(name);
    violations.push({
      path: `headers/${name}`,
      rule: 'header',
      message: `${what} with the header ${name}: ${excerpt(response, sent[name] ?? '')}, which breaks its schema in the spec: ${problem.message}`,
      actual: sent[name] ?? '',
      schemaPath: problem.schemaPath,
    });
  }
}

/** Whether a body is due: where the document gives one, on every error, and on a status it does not document. */
function bodyDue({ response, documented, statuses }: Check<string>): boolean {
  const { status } = response;
  return status !== 204 && (documented?.json === true || status >= 400 || (statuses !== undefined && documented === undefined));
}

function parsedBody(body: string): { json: JsonValue } | { error: string } {
  try {
    return { json: parseJson(body) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** A body that is there, sent as JSON, parses, and keeps its schema; an error's `status` is the HTTP status. */
function checkBody<Id extends string>(check: Check<Id>): void {
  const { response, what, violations } = check;
  if (response.body.trim() === '') {
    violations.push({ path: 'body', rule: 'body-empty', message: `${what} with an empty body`, expected: 'a JSON body', actual: 'no body' });
    return;
  }
  checkMediaType(check);
  const parsed = response.parsed ?? parsedBody(response.body);
  if ('error' in parsed) {
    violations.push({
      path: 'body',
      rule: 'body-json',
      message: `${what} with a body that is not JSON (${parsed.error}): ${excerpt(response, response.body)}`,
    });
    return;
  }
  const { json } = parsed;
  checkBodySchema(check, json);
  checkErrorStatus(check, json);
}

function checkMediaType({ response, what, violations }: Check<string>): void {
  const contentType = response.header('content-type');
  const mediaTypeProblem = jsonMediaTypeProblem(contentType);
  if (mediaTypeProblem === undefined) return;
  violations.push({
    path: 'headers/content-type',
    rule: 'media-type',
    message: `${what} with Content-Type ${contentType ?? '(none)'}: ${mediaTypeProblem}`,
    expected: 'application/json',
    actual: contentType ?? '(none)',
  });
}

/**
 * The most schema problems of one body told one by one; the rest are counted in one more. A page of
 * 33,000 empty objects broke its schema 99,000 times, and the proxy wrote a log line for each (18 MB,
 * 55 s for one answer): the first few say what is wrong, as a compiler's first errors do.
 */
export const SCHEMA_PROBLEMS_TOLD = 20;

/** The items of a long list checked at once while its first problems are looked for. */
const ITEMS_AT_ONCE = 64;

/** A list longer than this is searched item by item (`ITEMS_AT_ONCE` at a time); no page a spec documents is. */
const LONG_LIST = 256;

/** A problem of the item at `index` of a slice, at its place in the whole list; `undefined` for one of the slice itself (its length, its order). */
function atItem(problem: SchemaProblem, offset: number): SchemaProblem | undefined {
  const item = /^\/(\d+)(?=\/|$)/.exec(problem.instancePath);
  if (item === null) return undefined;
  return { ...problem, instancePath: `/${offset + Number(item[1])}${problem.instancePath.slice(item[0].length)}` };
}

/**
 * The schema problems of `body` told one by one, at most `SCHEMA_PROBLEMS_TOLD`, and how many more
 * there are (`'some'` when they were not looked for); `undefined` when no schema is documented. The
 * work follows what is told, not the body's size: ajv, asked for every error, joins each item's errors
 * to those before (`concat`), so a page of 30,000 invalid objects cost 19 s of CPU and one of 100,000
 * 222 s, past any `--deadline`. A long list is checked `ITEMS_AT_ONCE` items at a time until enough
 * problems are found; only a list with fewer is checked whole, once, for its exact problems (its length
 * and order too). This holds for a list whose items share one schema, as a page's do.
 */
function toldProblems(problemsOf: (body: JsonValue) => readonly SchemaProblem[] | undefined, body: JsonValue) {
  if (Array.isArray(body) && body.length > LONG_LIST) {
    const found: SchemaProblem[] = [];
    for (let offset = 0; offset < body.length && found.length <= SCHEMA_PROBLEMS_TOLD; offset += ITEMS_AT_ONCE) {
      const slice = problemsOf(body.slice(offset, offset + ITEMS_AT_ONCE));
      if (slice === undefined) return undefined;
      for (const problem of slice) {
        const placed = atItem(problem, offset);
        if (placed !== undefined) found.push(placed);
      }
    }
    if (found.length > SCHEMA_PROBLEMS_TOLD) return { told: found.slice(0, SCHEMA_PROBLEMS_TOLD), more: 'some' as const };
  }
  const problems = problemsOf(body);
  return problems && { told: problems.slice(0, SCHEMA_PROBLEMS_TOLD), more: Math.max(0, problems.length - SCHEMA_PROBLEMS_TOLD) };
}

/** The body under the schema documented for the status; outside the operations, an error's under the Error schema. */
function checkBodySchema<Id extends string>({ schemas, operationId, response, what, violations }: Check<Id>, json: JsonValue): void {
  const { status } = response;
  const problemsOf = (body: JsonValue) =>
    operationId === undefined ? (status >= 400 ? schemas.errorViolations?.(body) : undefined) : schemas.violations(operationId, status, body);
  const { told, more } = toldProblems(problemsOf, json) ?? { told: [], more: 0 };
  for (const problem of told) {
    violations.push({
      path: `body${problem.instancePath}`,
      rule: 'schema',
      message: `${what} with a body that breaks its schema in the spec: ${problem.instancePath || '(the body)'} ${problem.message}`,
      schemaPath: problem.schemaPath,
    });
  }
  if (more !== 0)
    violations.push({
      path: 'body',
      rule: 'schema',
      message:
        more === 'some'
          ? `${what} with a body that breaks its schema in the spec in more places than the ${SCHEMA_PROBLEMS_TOLD} above (the rest not looked for)`
          : `${what} with a body that breaks its schema in the spec in ${more} more places than the ${SCHEMA_PROBLEMS_TOLD} above`,
    });
}

function checkErrorStatus({ response, what, violations }: Check<string>, json: JsonValue): void {
  const { status } = response;
  if (status < 400 || typeof json !== 'object' || json === null || Array.isArray(json) || !('status' in json) || Number(json.status) === status) return;
  violations.push({
    path: 'body/status',
    rule: 'error-status',
    message: `${what} with an Error whose status is ${String(json.status)}`,
    expected: `status ${status}`,
    actual: `status ${String(json.status)}`,
  });
}

/**
 * The conformance of responses to `doc`: a status the operation documents, the headers documented
 * for it, a JSON body (right media type, parseable, valid by the documented schema) and, for an
 * error, an Error whose `status` is the HTTP status.
 * @example
 * const conformance = createConformance(openapi, schemas);
 * conformance('getPet', { status: 418, header: () => undefined, body: '' });
 * // [{ path: 'status', rule: 'status', message: 'getPet answered 418, a status the spec does not document for it (it documents 200, ...)' }, ...]
 */
export function createConformance<Id extends string>(doc: OpenApiDocument, schemas: ResponseSchemas<Id>, options: ConformanceOptions = {}): Conformance<Id> {
  const byOperation = documentedResponses(doc);
  const { everyDocumentedHeader = false } = options;
  return (operationId, response) => {
    const statuses = operationId === undefined ? undefined : byOperation.get(operationId);
    const check: Check<Id> = {
      schemas,
      everyDocumentedHeader,
      operationId,
      response,
      statuses,
      documented: statuses?.get(response.status),
      what: `${operationId ?? 'the server'} answered ${response.status}`,
      violations: [],
    };
    checkStatus(check);
    checkHeaders(check);
    if (bodyDue(check)) checkBody(check);
    return check.violations;
  };
}
