/**
 * Where a request-target leads, compiled once per distinct target: its area (the API, the admin, or
 * elsewhere), its route, and for each operation of the route its parameters parsed from the target
 * (checked inputs, or the 400). This is the mock's one memo: a client repeating a request pays once
 * for everything its target's text decides.
 */

import { SpecError } from '../../errors.js';
import { openapi } from '../../generated/openapi.js';
import { isAdminPath } from '../admin/endpoints.js';
import { memoize } from '../core/memo.js';
import type { MockOperation, ParsedInputs } from '../operations/operation.js';
import type { CoverageKeeper, EnumValues } from '../state/coverage.js';
import { matchRoute, type Route, routesOf } from './routes.js';

/** An operation as one request-target reaches it. */
export interface Reached {
  readonly operation: MockOperation;
  /** The target's parameters as the operation parsed them. */
  readonly parsed: ParsedInputs;
  /** The documented enum values in the target's query, as coverage counts them. */
  readonly enumValues: EnumValues;
}

/** What a request-target's text alone decides; shared by every request with that target, never changed. */
export interface Target {
  /** Still percent-encoded, base path included. */
  readonly path: string;
  readonly query: string;
  readonly area: 'api' | 'admin' | 'elsewhere';
  /** The route of an API path, when one matches. */
  readonly route: Route | undefined;
  /** The route's operations, by method. */
  readonly operations: ReadonlyMap<string, Reached>;
}

/**
 * The operation a request with `method` reaches at `target`: a HEAD reaches the GET's, as HEAD is GET
 * without the body (RFC 9110 §9.3.2). Every step that asks which operation a request reaches (the mock's
 * pipeline, the proxy's `Prefer`, its journal, its checks) asks here, so none treats a HEAD as unknown.
 */
export function reachedBy(target: Target, method: string): Reached | undefined {
  return target.operations.get(method === 'HEAD' ? 'GET' : method);
}

/**
 * The mock's router over spec/openapi.yaml's paths under `basePath`.
 * @example
 * const router = createRouter('/v1', [listPets(), createPet(env), getPet(env)], coverage);
 * router.target('/v1/pets?limit=5').operations.get('GET')?.operation.id; // 'listPets'
 */
export interface Router {
  /** The routes, in document order. */
  readonly routes: readonly Route[];
  /** What a request-target (`/v1/pets?limit=5`) leads to. */
  target(text: string): Target;
  /** Whether a request to this path is the mock's to respond to: under the base path, or an admin endpoint. */
  serves(path: string): boolean;
}

const ROUTES: readonly Route[] = routesOf(openapi);

export function createRouter(basePath: string, operations: readonly MockOperation[], coverage: CoverageKeeper, routes: readonly Route[] = ROUTES): Router {
  // Each route's methods with the operation that serves them; a documented operation left without one fails at start.
  const served = new Map<Route, ReadonlyMap<string, MockOperation>>(
    routes.map((route) => [
      route,
      new Map(
        [...route.operations].map(([method, { operationId }]) => {
          const operation = operations.find((candidate) => candidate.id === operationId);
          if (operation === undefined) throw new SpecError(`the spec documents ${operationId}, which the mock does not implement`);
          return [method, operation];
        }),
      ),
    ]),
  );
  const apiPrefix = `${basePath}/`;
  const isApiPath = (path: string) => path === basePath || path.startsWith(apiPrefix);

  const target = memoize((text): Target => {
    const mark = text.indexOf('?');
    const path = mark === -1 ? text : text.slice(0, mark);
    const query = mark === -1 ? '' : text.slice(mark + 1);
    const reached = new Map<string, Reached>();
    if (!isApiPath(path)) return { path, query, area: isAdminPath(path) ? 'admin' : 'elsewhere', route: undefined, operations: reached };
    const match = matchRoute(routes, path.slice(basePath.length));
    if (match === undefined) return { path, query, area: 'api', route: undefined, operations: reached };
    for (const [method, operation] of served.get(match.route) ?? []) {
      reached.set(method, { operation, parsed: operation.parse(match.params, query), enumValues: coverage.enumValuesOf(operation.id, query) });
    }
    return { path, query, area: 'api', route: match.route, operations: reached };
  });

  return { routes, target, serves: (path) => isApiPath(path) || isAdminPath(path) };
}
