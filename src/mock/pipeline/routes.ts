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
  const segments = path.split('/');
  // `segments[0]` is the empty text before the path's leading `/`: route segment i is path segment i + 1.
  for (const route of routes) {
    if (route.segments.length !== segments.length - 1) continue;
    const params = matchSegments(route.segments, segments);
    if (params !== undefined) return { route, params };
  }
  return undefined;
}

/** The path parameters when `segments` (after the leading empty one) match the route's, else `undefined`. Plain loops: a request-target seen for the first time pays for this. */
function matchSegments(expected: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < expected.length; i++) {
    const wanted = expected[i] as string;
    const actual = segments[i + 1] as string;
    if (!isParameter(wanted)) {
      if (wanted !== actual) return undefined;
    } else if (actual === '') return undefined;
    else params[wanted.slice(1, -1)] = actual.includes('%') ? safeDecode(actual) : actual;
  }
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
