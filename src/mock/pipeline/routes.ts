import { type HttpMethod, type OpenApiDocument, type OperationEntry, operationsOf } from '../../openapi/document.js';

/** A path of the document with the operations it serves. */
export interface Route {
  readonly template: string;
  readonly segments: readonly string[];
  readonly operations: ReadonlyMap<string, OperationEntry>;
  /** The `Allow` header: the documented methods, with HEAD beside GET and OPTIONS for CORS. */
  readonly allow: string;
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

function allowOf(methods: readonly HttpMethod[]): string {
  const allowed = new Set(methods.map((method) => method.toUpperCase()));
  if (allowed.has('GET')) allowed.add('HEAD');
  allowed.add('OPTIONS');
  return [...allowed].join(', ');
}

/** The document's paths as routes, in document order. */
export function routesOf(doc: OpenApiDocument): Route[] {
  const byPath = new Map<string, OperationEntry[]>();
  for (const entry of operationsOf(doc)) byPath.set(entry.path, [...(byPath.get(entry.path) ?? []), entry]);
  return [...byPath].map(([template, entries]) => ({
    template,
    segments: template.split('/').slice(1),
    operations: new Map(entries.map((entry) => [entry.method.toUpperCase(), entry])),
    allow: allowOf(entries.map((entry) => entry.method)),
  }));
}

function isParameter(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

/**
 * The route whose template matches `path` (relative to the base path), with its path parameters
 * percent-decoded. A segment that cannot be decoded is kept as sent; its schema then rejects it.
 */
export function matchRoute(routes: readonly Route[], path: string): RouteMatch | undefined {
  const segments = path.split('/').slice(1);
  for (const route of routes) {
    if (route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    // The lengths are equal, so `segments[i]` is always there; `?? ''` only tells the type so.
    const matches = route.segments.every((expected, i) => {
      const actual = segments[i] ?? '';
      if (!isParameter(expected)) return expected === actual;
      if (actual === '') return false;
      params[expected.slice(1, -1)] = safeDecode(actual);
      return true;
    });
    if (matches) return { route, params };
  }
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
