/**
 * `createMockApi`: the wiring of a mock. The rules live elsewhere: each operation in
 * src/mock/operations/, the order of the steps in src/mock/pipeline/pipeline.ts, what a request-target
 * decides in src/mock/pipeline/router.ts, defaults in src/mock/core/defaults.ts, conformance in src/openapi/conformance.ts.
 */
import { seededPetsSoon } from '../fixtures/seeding.js';
import { BUNDLED_SPEC } from '../openapi/bundled-model.js';
import { operationOfKind } from '../openapi/resource-model.js';
import { known, type Profile } from '../profile/profile.js';
import { KeyRedactor } from '../redact/key-redactor.js';
import { createAdmin } from './admin/endpoints.js';
import { idOffsetOf } from './core/defaults.js';
import { faultDraw } from './core/faults.js';
import { fetchAdapter } from './core/fetch-adapter.js';
import { keylessErrors } from './core/keyless-errors.js';
import type { MockRequest, MockResponse } from './core/messages.js';
import { andThen, type Pending } from './core/pending.js';
import { mockOperations } from './operations/kinds.js';
import type { OperationEnv } from './operations/operation.js';
import { type MockOptions, normalizeMockOptions, type ResolvedMockOptions } from './options.js';
import { bearerCheck } from './pipeline/auth.js';
import { journalFormat, type PipelineJournal } from './pipeline/journal-step.js';
import { createPipeline } from './pipeline/pipeline.js';
import { textRedactor } from './pipeline/request-log.js';
import { createRouter } from './pipeline/router.js';
import { routesOf } from './pipeline/routes.js';
import { createSelfCheck } from './pipeline/self-check.js';
import { profileForm } from './profile/form.js';
import { Coverage, type CoverageKeeper, type CoverageReport } from './state/coverage.js';
import { type JournalEntry, type JournalFilter, type JournalKeeper, journalFilterOf, MemoryJournal } from './state/journal.js';
import { randomIdOf } from './state/random-ids.js';
import { ClusterJournal } from './state/redis/redis-journal.js';
import { savedChanges, unsavedChange } from './state/saved-changes.js';
import { SeedIndex } from './state/seed-index.js';
import { laterSessions } from './state/seeded-later.js';
import { DEFAULT_SESSION, type SessionRegistry, Sessions, sessionsOpenable } from './state/sessions.js';
import type { PetStore, StoredPet } from './state/store.js';

export type { MockOptions, ResolvedMockOptions } from './options.js';

/** The seeded pets in the profile's known categories, in turn, so that the listing shows only categories a create accepts. */
function inKnownCategories<P extends StoredPet>(pets: readonly P[], profile: Profile): readonly P[] {
  const { categories } = profile;
  if (typeof categories !== 'object') return pets;
  const ids = categories.known.map((digits) => (Number.isSafeInteger(Number(digits)) ? Number(digits) : BigInt(digits)));
  return pets.map((pet, index) => ({ ...pet, categoryId: ids[index % ids.length] ?? pet.categoryId }));
}

/**
 * A running mock: one request handler over one store.
 * @example
 * const mock: MockApi = createMockApi();
 * const response = await mock.fetch(new Request('http://mock.test/v1/pets'));  // 401: no key
 */
export interface MockApi {
  /**
   * Responds to one request; never throws: a fault of the mock itself is a 500 Error response. A
   * response that needs no waiting (no body to read, no delay, nothing to save) comes back at once, not
   * in a promise, so a host that writes it in the same tick costs no microtask; `await` takes either.
   */
  respond(request: MockRequest): Pending<MockResponse>;
  /** `respond` for a web-standard `Request`. */
  fetch(request: Request): Promise<Response>;
  /** Puts the mock back as it started: the default session's pets and clock seeded again, every named session dropped, the journal emptied. Coverage is kept. */
  reset(): Pending<void>;
  /** What clients have exercised so far (`GET /__mock/coverage`); in a promise when it is shared through Redis. */
  coverage(): Pending<CoverageReport>;
  /**
   * Whether a request to this path is the mock's to respond to: the base path and everything under it,
   * and the admin endpoints. Hosts that share the network with other services (MSW) claim only these.
   */
  serves(path: string): boolean;
  /**
   * The requests the journal kept (`GET /__mock/requests`), oldest first: those of `filter.session`
   * (default: the default session) that the filter matches; in a promise when the journal is in Redis.
   * A `TypeError` when the journal is off (`journalSize: 0`). See docs/mock-journal.md.
   */
  requests(filter?: JournalFilter): Pending<readonly JournalEntry[]>;
  /** Forgets the journal: one session's, or every session's. `reset()` does too. */
  clearRequests(session?: string): Pending<void>;
  /** The default session's store: that of requests without `X-Mock-Session`. */
  readonly store: PetStore;
  /**
   * Settles once the seeded pets are there (a seed or count faker must draw comes a moment later), or
   * rejects with why they cannot be. Requests wait for them anyway; a host awaits it to refuse a start.
   */
  readonly ready: Promise<void>;
  readonly options: ResolvedMockOptions;
}

/** Where a mock keeps its state: its sessions, the default session's store, its coverage, and when its seed is there. */
interface MockState {
  readonly sessions: SessionRegistry;
  readonly defaultStore: PetStore;
  readonly coverage: CoverageKeeper;
  readonly ready: Promise<void>;
}

/**
 * The state of a mock that keeps it in this process: seeded sessions, the restored pets, coverage. The
 * pets of a seed or count other than the default come once faker is loaded, and the sessions with them.
 */
function inMemory(settings: ResolvedMockOptions): MockState {
  const { spec } = settings;
  // Another spec's pets are drawn from its own fields; the bundled spec's default seed is drawn already.
  const fields = spec === BUNDLED_SPEC ? undefined : spec.model.fields.filter((field) => field.writable);
  const seeded =
    settings.data === undefined ? seededPetsSoon(settings.seed, settings.count, { bigIds: settings.bigIds }, fields, spec.model.createBodyBytes) : [];
  const coverage = new Coverage(settings.basePath, spec.doc);
  if (!(seeded instanceof Promise)) {
    const sessions = memorySessions(settings, seeded);
    return { sessions, defaultStore: sessions.default.store, coverage, ready: Promise.resolve() };
  }
  const limits = { max: settings.maxSessions, ttl: settings.sessionTtl, base: settings.now };
  const made = seeded.then((pets) => memorySessions(settings, pets));
  const sessions = laterSessions(made, limits);
  // A failure is each request's to see (a 500) and that of a host awaiting `ready`; not also an unhandled rejection.
  const ready = made.then(() => undefined);
  ready.catch(() => undefined);
  return { sessions, defaultStore: sessions.defaultStore, coverage, ready };
}

/** The sessions over the seeded pets (in the profile's order, categories and id scheme, when it has them), with the restored pets. */
function memorySessions(settings: ResolvedMockOptions, pets: readonly StoredPet[]): Sessions {
  const { profile, data } = settings;
  const order = known(profile.listOrder) ? profile.listOrder : undefined;
  const randomIds = profile.idScheme === 'random';
  const seeded = data === undefined ? inKnownCategories(pets, profile) : [];
  const givenIds = data !== undefined;
  // Your own data keeps its ids and categories: it is the world you asked for.
  const served = data?.pets ?? (randomIds ? seeded.map((pet, index) => ({ ...pet, id: randomIdOf(index + 1) })) : seeded);
  const seed = new SeedIndex(served, {
    idOffset: givenIds ? undefined : idOffsetOf(settings.bigIds),
    ...(order === undefined ? {} : { order }),
    randomIds,
    givenIds,
    filter: operationOfKind(settings.spec.model, 'list')?.filters[0],
  });
  const sessions = new Sessions({
    seed,
    now: settings.now,
    ttl: settings.sessionTtl,
    max: settings.maxSessions,
  });
  if (settings.restore !== undefined) sessions.default.store.restore(settings.restore);
  return sessions;
}

/** The choices of a profile that only the in-memory store can make: a shared (Redis) store keeps its own order, ids and seed. */
function storeChoices(profile: Profile): string[] {
  return [
    ...(known(profile.listOrder) && profile.listOrder !== 'id-asc' ? ['listOrder'] : []),
    ...(profile.idScheme === 'random' ? ['idScheme'] : []),
    ...(known(profile.categories) && profile.categories !== 'any' ? ['categories'] : []),
  ];
}

/** The shared (Redis) state when the options give one, else the state of this process; a profile a shared store cannot adopt, or an operation it cannot serve yet, is a `TypeError`. */
function stateOf(settings: ResolvedMockOptions): MockState {
  const { shared, profile } = settings;
  if (!shared) return inMemory(settings);
  const unsupported = storeChoices(profile);
  if (unsupported.length > 0)
    throw new TypeError(
      `profile: ${unsupported.join(', ')} cannot be adopted with a Redis store yet; run that mock without --store, or remove those fields from the profile.`,
    );
  return { sessions: shared.sessions, defaultStore: shared.store.store(DEFAULT_SESSION), coverage: shared.coverage, ready: Promise.resolve() };
}

/**
 * The journal of a mock, in Redis when its state is, `undefined` when it is off (`journalSize: 0`).
 * Its entries hide `keys`: the mock's own, and for the proxy's journal the upstream key too.
 */
export function journalOf(settings: ResolvedMockOptions, keys: readonly string[] = settings.apiKeys): PipelineJournal | undefined {
  const { journalSize: size, shared } = settings;
  if (size === 0) return undefined;
  const format = journalFormat(keys, settings.basePath);
  // One ring per named session the cap and the sessions' own bytes let open (one at least, for a 429's), and the
  // default session's: a request that opens no session (a 400, a 429) is filed under the name it gave.
  const rings = { size, maxRings: Math.max(1, sessionsOpenable(settings.maxSessions)), format };
  const keeper: JournalKeeper = shared ? new ClusterJournal(shared.store, shared.journalBus, rings) : new MemoryJournal(rings);
  return { keeper, bodyLimit: settings.journalBodyLimit, redactBody: textRedactor(keys), now: settings.now };
}

/** The journal's keeper, or the `TypeError` that says it is off. */
function journalOn(journal: PipelineJournal | undefined): JournalKeeper {
  if (!journal) throw new TypeError('The request journal is off (journalSize: 0, --no-journal): turn it on to read the requests the mock received.');
  return journal.keeper;
}

/** The label of each accepted key that has one, by the key's index in `apiKeys` (what `bearerCheck` gives). */
function keyLabelsByIndex(settings: ResolvedMockOptions): ReadonlyMap<number, string> {
  return new Map(
    settings.apiKeys.flatMap((key, index) => {
      const label = settings.keyLabels.get(key);
      return label === undefined ? [] : [[index, label] as const];
    }),
  );
}

/**
 * Creates a mock of the pet store: the seeded sessions and the one function that responds to requests.
 * Every host calls it (the Node server `respond`, MSW `fetch`); no rule of the interface lives here.
 * @example
 * const mock = createMockApi({ seed: 7, count: 10 });
 * const response = await mock.fetch(new Request('http://mock.test/v1/pets?limit=2', {
 *   headers: { authorization: 'Bearer petstore-dev-key' },
 * }));
 */
export function createMockApi(options: MockOptions = {}): MockApi {
  return mockApiOf(normalizeMockOptions(options));
}

/** The mock of options already normalized (`normalizeMockOptions`), for a host that read them first. */
export function mockApiOf(settings: ResolvedMockOptions): MockApi {
  const { basePath, persist, profile } = settings;
  const { sessions, defaultStore, coverage, ready } = stateOf(settings);
  // With `--state`, the default session's changes are saved all or nothing; a shared store (Redis)
  // keeps its own state and has no `persist`, so its changes are simply made.
  const saveDefault = savedChanges(defaultStore, persist);
  const env: OperationEnv = {
    basePath,
    profile,
    coverage,
    change: (session, change) => (session.name === DEFAULT_SESSION ? saveDefault(change) : unsavedChange(change)),
  };
  const { spec } = settings;
  const router = createRouter(basePath, mockOperations(spec.model, env), coverage, routesOf(spec.doc));
  const journal = journalOf(settings);
  const redactor = new KeyRedactor(settings.apiKeys);
  const respond = createPipeline({
    basePath,
    router,
    sessions,
    coverage,
    authorize: bearerCheck(settings.apiKeys),
    keyLabels: keyLabelsByIndex(settings),
    adminKeyRequired: settings.adminKeyRequired,
    respondAdmin: createAdmin(sessions, coverage, saveDefault, redactor, profile, journal?.keeper, spec.model),
    form: profileForm(profile),
    prefer: settings.prefer,
    delay: settings.delay,
    drawFault: faultDraw(settings.faults, settings.faultSeed),
    selfCheck: settings.selfCheck && createSelfCheck(settings.selfCheck, spec === BUNDLED_SPEC ? undefined : spec),
    journal,
    doc: spec.doc,
    // A short key only where it stands as a token of its own: a key `a` must leave the words of a message alone.
    keyless: keylessErrors(new KeyRedactor(settings.apiKeys, { shortAsToken: true })),
  });
  return {
    respond,
    fetch: fetchAdapter(respond),
    reset: () => andThen(sessions.resetAll(), () => journal?.keeper.clear()),
    requests: (filter = {}) => andThen(journalOn(journal).list(journalFilterOf(filter)), (page) => page.entries),
    clearRequests: (session) => journalOn(journal).clear(session),
    coverage: () => coverage.report(),
    serves: router.serves,
    store: defaultStore,
    ready,
    options: settings,
  };
}
