/**
 * `createMockApi`: the wiring of a mock. The rules live elsewhere: each operation in
 * src/mock/operations/, the order of the steps in src/mock/pipeline.ts, what a request-target
 * decides in src/mock/router.ts, defaults in src/mock/defaults.ts, conformance in src/spec/conformance.ts.
 */
import { seededPets } from '../fixtures/seed.js';
import { createAdmin } from './admin.js';
import { bearerCheck } from './auth.js';
import { Coverage, type CoverageKeeper, type CoverageReport } from './coverage.js';
import { idOffsetOf } from './defaults.js';
import type { MockRequest, MockResponse } from './exchange.js';
import { fetchAdapter } from './fetch.js';
import { createPet } from './operations/createPet.js';
import { getPet } from './operations/getPet.js';
import { listPets } from './operations/listPets.js';
import type { OperationEnv } from './operations/operation.js';
import { type MockOptions, normalizeMockOptions, type ResolvedMockOptions } from './options.js';
import type { Pending } from './pending.js';
import { createPipeline } from './pipeline.js';
import { createRouter } from './router.js';
import { savedChanges, unsavedChange } from './saved-changes.js';
import { createSelfCheck } from './self-check.js';
import { DEFAULT_SESSION, type SessionRegistry, Sessions } from './sessions.js';
import type { PetStore } from './store.js';

export type { MockOptions, ResolvedMockOptions } from './options.js';

/**
 * A running mock: one request handler over one store.
 * @example
 * const mock: MockApi = createMockApi();
 * const response = await mock.fetch(new Request('http://mock.test/v1/pets'));  // 401: no key
 */
export interface MockApi {
  /**
   * Answers one request; never throws: a fault of the mock itself is a 500 Error response. An answer
   * that needs no waiting (no body to read, no delay, nothing to save) comes back at once, not in a
   * promise, so a host that writes it in the same tick costs no microtask; `await` takes either.
   */
  respond(request: MockRequest): Pending<MockResponse>;
  /** `respond` for a web-standard `Request`. */
  fetch(request: Request): Promise<Response>;
  /** Puts the mock back as it started: the default session's pets and clock seeded again, every named session dropped. Coverage is kept. */
  reset(): Pending<void>;
  /** What clients have exercised so far (`GET /__mock/coverage`); in a promise when it is shared through Redis. */
  coverage(): Pending<CoverageReport>;
  /**
   * Whether a request to this path is the mock's to answer: the base path and everything under it,
   * and the admin endpoints. Hosts that share the network with other services (MSW) claim only these.
   */
  serves(path: string): boolean;
  /** The default session's store: that of requests without `X-Mock-Session`. */
  readonly store: PetStore;
  readonly options: ResolvedMockOptions;
}

/** The state of a mock that keeps it in this process: seeded sessions, the restored pets, coverage. */
function inMemory(settings: ResolvedMockOptions): { sessions: SessionRegistry; defaultStore: PetStore; coverage: CoverageKeeper } {
  const sessions = new Sessions({
    seed: seededPets(settings.seed, settings.count, { bigIds: settings.bigIds }),
    idOffset: idOffsetOf(settings.bigIds),
    now: settings.now,
    ttl: settings.sessionTtl,
    max: settings.maxSessions,
  });
  for (const pet of settings.restore) sessions.default.store.create(pet);
  return { sessions, defaultStore: sessions.default.store, coverage: new Coverage(settings.basePath) };
}

/**
 * Creates a mock of the pet store: the seeded sessions and the one function that answers requests.
 * Every host calls it (the Node server `respond`, MSW `fetch`); no rule of the interface lives here.
 * @example
 * const mock = createMockApi({ seed: 7, count: 10 });
 * const response = await mock.fetch(new Request('http://mock.test/v1/pets?limit=2', {
 *   headers: { authorization: 'Bearer petstore-dev-key' },
 * }));
 */
export function createMockApi(options: MockOptions = {}): MockApi {
  const settings = normalizeMockOptions(options);
  const { basePath, persist } = settings;
  const { shared } = settings;
  const { sessions, defaultStore, coverage } = shared
    ? { sessions: shared.sessions, defaultStore: shared.store.store(DEFAULT_SESSION), coverage: shared.coverage }
    : inMemory(settings);

  // With `--state`, the default session's changes are saved all or nothing; a shared store (Redis)
  // keeps its own state and has no `persist`, so its changes are simply made.
  const saveDefault = savedChanges(defaultStore, persist);
  const env: OperationEnv = {
    basePath,
    coverage,
    change: (session, change) => (session.name === DEFAULT_SESSION ? saveDefault(change) : unsavedChange(change)),
  };
  const router = createRouter(basePath, [listPets(), createPet(env), getPet(env)], coverage);
  const respond = createPipeline({
    basePath,
    router,
    sessions,
    coverage,
    authorize: bearerCheck(settings.apiKeys),
    keyLabels: new Map(
      settings.apiKeys.flatMap((key, index) => {
        const label = settings.keyLabels.get(key);
        return label === undefined ? [] : [[index, label] as const];
      }),
    ),
    adminKeyRequired: settings.adminKeyRequired,
    answerAdmin: createAdmin(sessions, coverage, saveDefault),
    prefer: settings.prefer,
    delay: settings.delay,
    selfCheck: settings.selfCheck && createSelfCheck(settings.selfCheck),
  });

  return {
    respond,
    fetch: fetchAdapter(respond),
    reset: () => sessions.resetAll(),
    coverage: () => coverage.report(),
    serves: router.serves,
    store: defaultStore,
    options: settings,
  };
}
