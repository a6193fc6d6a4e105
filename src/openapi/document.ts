import { SpecError } from '../errors.js';
/**
 * The part of an OpenAPI 3.1 document this project reads. Everything the mock and the verifier know
 * about the interface comes through these helpers, from spec/openapi.yaml.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

interface MediaType {
  readonly schema?: JsonSchema;
}

/** A header a response documents. */
interface Header {
  readonly description?: string;
  readonly required?: boolean;
  readonly schema?: JsonSchema;
}

export interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, Header | Reference>>;
  readonly content?: Readonly<Record<string, MediaType>>;
}

export interface Reference {
  readonly $ref: string;
}

export interface Operation {
  readonly operationId: string;
  readonly deprecated?: boolean;
  readonly parameters?: readonly (Parameter | Reference)[];
  readonly requestBody?: { readonly required?: boolean; readonly content: Readonly<Record<string, MediaType>> };
  readonly responses: Readonly<Record<string, Response | Reference>>;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly [extension: `x-${string}`]: unknown;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string };
  readonly servers?: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, Readonly<Partial<Record<HttpMethod, Operation>>>>>;
  readonly components?: {
    readonly schemas?: Readonly<Record<string, JsonSchema>>;
    readonly responses?: Readonly<Record<string, Response>>;
    readonly parameters?: Readonly<Record<string, Parameter>>;
  };
}

/** An operation with the path and method it is served at. */
export interface OperationEntry {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template as written in the document, without the server's base path: `/pets/{petId}`. */
  readonly path: string;
  readonly operation: Operation;
}

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

/**
 * The most `$ref`s a chain of references that name references may hold (`A` names `B`, which names
 * `C`...): far more than a spec writes (the bundled one, 1), and few enough for every reader after this
 * one (ajv's compiler among them) to follow. A longer chain is refused saying so, a cycle as a cycle.
 */
const MAX_REF_CHAIN = 64;

/** The chain as a sentence shows it: its ends, and how many links lie between. */
function chainText(refs: readonly string[]): string {
  return refs.length <= 4 ? refs.join(' -> ') : `${refs.slice(0, 2).join(' -> ')} -> (${refs.length - 3} more) -> ${refs.at(-1)}`;
}

/** The node a local reference names in `doc`; a `SpecError` when there is none. */
function referenced(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new SpecError(`only local references are supported, found ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, segment) => {
      const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
      if (typeof node !== 'object' || node === null || !(key in node)) {
        throw new SpecError(`unresolvable reference ${ref}`);
      }
      return Reflect.get(node, key);
    }, doc);
}

/**
 * Follows a local `#/...` reference, and a chain of them, to the object it names, in a loop: a chain
 * that comes back to a reference it holds is a `SpecError` saying "reference cycle", one longer than
 * `MAX_REF_CHAIN` a `SpecError` saying how long a chain may be.
 */
export function resolve<T>(doc: OpenApiDocument, value: T | Reference): T {
  let current: unknown = value;
  const chain: string[] = [];
  while (isReference(current)) {
    const ref = current.$ref;
    if (chain.includes(ref)) throw new SpecError(`reference cycle at ${ref}: ${chainText([...chain.slice(chain.indexOf(ref)), ref])}`);
    if (chain.length === MAX_REF_CHAIN)
      throw new SpecError(
        `more than ${MAX_REF_CHAIN} $ref links in a chain (${chainText([...chain, ref])}, not yet at its end): make a $ref name the schema itself, not another $ref`,
      );
    chain.push(ref);
    current = referenced(doc, ref);
  }
  // Unchecked: a `$ref` names an object of the kind its place asks for (a response, a parameter, a
  // header), which is the `T` the caller asks for; that a document keeps to this is a linter's check.
  return current as T;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) entries.push({ operationId: operation.operationId, method, path, operation });
    }
  }
  return entries;
}

/** The operation with this `operationId`; a `SpecError` when the spec has none. */
export function operationById(doc: OpenApiDocument, operationId: string): OperationEntry {
  const entry = operationsOf(doc).find((candidate) => candidate.operationId === operationId);
  if (!entry) throw new SpecError(`the spec has no operation "${operationId}"`);
  return entry;
}

/** The operation's parameters with references resolved. */
export function parametersOf(doc: OpenApiDocument, operation: Operation): Parameter[] {
  return (operation.parameters ?? []).map((parameter) => resolve(doc, parameter));
}

/** The path every server URL has before the paths of the document: `/v1`. */
export function basePathOf(doc: OpenApiDocument): string {
  const url = doc.servers?.[0]?.url ?? '/';
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return path.replace(/\/+$/, '');
}
