/**
 * How a mock behaves (`MockOptions`), and the same with every default of `MOCK_DEFAULTS` filled in.
 */

import { described, wholeNumberIn } from '../bounds/option-value.js';
import { apiKeyProblem } from '../http/header-value.js';
import { nestingProblem } from '../json/nesting.js';
import { BUNDLED_SPEC, type CompiledSpec } from '../openapi/bundled-model.js';
import { type Profile, type ProfileDocument, readProfile, UNKNOWN_PROFILE } from '../profile/profile.js';
import { MOCK_BOUNDS, MOCK_DEFAULTS } from './core/defaults.js';
import { checkFaultRates, type FaultRates } from './core/faults.js';
import { callback, list, optionsObject, record, text, trueOrFalse } from './core/option-checks.js';
import { KEY_LABEL, LABEL_WITHOUT_KEY, type LabelledApiKey, parseApiKey } from './pipeline/auth.js';
import { checkReach, isLoopback } from './pipeline/server-reach.js';
import { checkedClock } from './state/clock.js';
import { checkPets, type DataPet, type PetData } from './state/pet-data.js';
import type { SharedState } from './state/redis/shared-state.js';
import { type SavedPets, SESSION_PETS_BYTES, savedBytes } from './state/store.js';

/**
 * How a mock behaves. Every field is optional; `normalizeMockOptions` fills in the defaults.
 * @example
 * const options: MockOptions = { apiKey: 'test-key', seed: 7, count: 10, delay: 200 };
 */
export interface MockOptions {
  /** The accepted bearer key, when there is one; accepted along with `apiKeys`. */
  readonly apiKey?: string;
  /**
   * Accepted bearer keys; a labelled one is shown by its label in the request log. Default, when
   * neither `apiKey` nor `apiKeys` names one: `[DEFAULT_API_KEY]` (`petstore-dev-key`).
   */
  readonly apiKeys?: readonly (string | LabelledApiKey)[];
  /** Seed of the generated pets. Default: `MOCK_DEFAULTS.seed`. */
  readonly seed?: number;
  /** How many pets the mock starts with. Default: `MOCK_DEFAULTS.count` (50). */
  readonly count?: number;
  /** Milliseconds added before every API response, to rehearse a slow network. Default: 0. */
  readonly delay?: number;
  /**
   * The mock's clock in epoch milliseconds; moving it past 5 December 2030 retires getPet. Default:
   * `Date.now` (in `startMockServer`: the real clock read at most once a millisecond, see `coarseClock`).
   */
  readonly now?: () => number;
  /** The path every operation is served under. Default: the spec's `/v1`. */
  readonly basePath?: string;
  /**
   * Your own pets, in place of the seeded ones (`--data FILE`): each a `Pet` of the spec with an id of its
   * own (a `bigint` beyond 2^53), the ids unique; pets created later are numbered after the largest id.
   * Not with `seed`, `count` or `bigIds`, which describe the seeded pets it replaces. A list the spec
   * refuses throws a `TypeError` naming every fault by index and field. Default: none, seeded pets.
   */
  readonly data?: readonly DataPet[];
  /** Ids beyond 2^53 (`BIG_ID_OFFSET` + n), exact in the JSON: a canary for clients that read ids into numbers. Default: false, ids from 1. */
  readonly bigIds?: boolean;
  /** Honour `Prefer: code=, delay=, auth=expired, fault=` and their `__code`-style query twins. Default: true. */
  readonly prefer?: boolean;
  /**
   * The share of API requests that get each network fault, drawn per request (docs/mock-faults.md):
   * `{ reset: 0.02, slow: 0.1 }`. Default: none.
   */
  readonly faults?: FaultRates;
  /** Seed of the draws of `faults`: the same seed fails the same requests, in the order a process serves them. Default: `seed`. */
  readonly faultSeed?: number;
  /** Milliseconds a named session (`X-Mock-Session`) may stay idle before it is dropped. Default: 30 minutes. */
  readonly sessionTtl?: number;
  /** How many named sessions may be open at once; one more gets a 429. Default: 100. */
  readonly maxSessions?: number;
  /**
   * Check every response against spec/openapi.yaml; a mismatch becomes a 500 naming it, and is passed
   * to the function when one is given (to log it, or to fail a test). Default: false.
   */
  readonly selfCheck?: boolean | ((mismatch: string) => void);
  /** What an earlier run changed (pets created, with their ids, and seeded ones removed), restored into the default session over the seed. Default: none. */
  readonly restore?: SavedPets;
  /**
   * Called after every change of the default session's pets (a create, a removal, a reset) with what
   * changed since the seed; the response waits for it, so a 201 means it is saved. Named sessions
   * are never saved. Default: none (state lives in memory).
   */
  readonly persist?: (saved: SavedPets) => Promise<void>;
  /**
   * The choices of a deployment to mimic where the interface leaves room (a profile learned by
   * `petstore-verify --write-profile`); choices it leaves out or marks `unknown` keep the mock's
   * own. A profile the contract forbids throws a `TypeError` naming the field. Default: none.
   */
  readonly profile?: ProfileDocument;
  /**
   * Whether `/__mock/*` needs the key too, as it must when the mock is reachable beyond this machine.
   * Default: false in process and under MSW, which no other machine reaches; for a server, whether it
   * is bound beyond loopback (`host`).
   */
  readonly adminKeyRequired?: boolean;
  /**
   * State kept in Redis (`openSharedState`, or `startMockServer({ store })`), shared by every replica:
   * its sessions and coverage replace the in-memory ones. Default: none, state in this process.
   */
  readonly shared?: SharedState;
  /** Requests the journal keeps per session (`mock.requests()`, `GET /__mock/requests`); 0 turns it off. Default: 500. */
  readonly journalSize?: number;
  /** Characters of a request body a journal entry shows; the rest is cut. Default: 4096. */
  readonly journalBodyLimit?: number;
  /**
   * Another spec to serve, a variant of this interface (`--spec FILE`): `compileSpec(await
   * loadSpecFile(path))`, both from `petstore-mock`. Its operations are served by their kinds, its fields
   * kept and seeded, its bounds enforced; the validators are compiled at start. With `shared`, every
   * replica serves the same spec. The same in `createMockApi`, `startMockServer` and `createHandlers`.
   * Default: spec/openapi.yaml.
   */
  readonly spec?: CompiledSpec;
}

/** Where a mock is served from, as far as its defaults and its rules depend on it. */
export interface MockPlace {
  /** The interface a server binds; none for a mock in process or under MSW. */
  readonly host?: string;
  /** The host names besides `localhost` and IP addresses that a server's clients may use. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Whether the public default key is meant on a `host` beyond loopback (`allowDefaultKey: true`). */
  readonly allowDefaultKey?: boolean | undefined;
}

/** The options with every default filled in; `apiKey` is folded into `apiKeys`, labels into `keyLabels`. */
export interface ResolvedMockOptions
  extends Required<Omit<MockOptions, 'apiKey' | 'apiKeys' | 'selfCheck' | 'persist' | 'profile' | 'shared' | 'data' | 'restore'>> {
  /** What an earlier run changed, to restore; `undefined` for none. */
  readonly restore: SavedPets | undefined;
  /** Your own pets (`data`), checked and in id order, with their hash; `undefined` for seeded pets. */
  readonly data: PetData | undefined;
  /** The profile in force, every choice it leaves out `unknown`. */
  readonly profile: Profile;
  readonly apiKeys: readonly string[];
  /** The label of each labelled key, by key. */
  readonly keyLabels: ReadonlyMap<string, string>;
  /** Where self-check mismatches go; `undefined` when the self-check is off. */
  readonly selfCheck: ((mismatch: string) => void) | undefined;
  readonly persist: MockOptions['persist'];
  readonly shared: SharedState | undefined;
}

/** One accepted key as given: a string, or `{ key, label }`. */
function keyEntry(entry: unknown, keyLabels: Map<string, string>): string {
  if (typeof entry === 'string') {
    // `ci:` from `ci:${CI_KEY}` with the variable unset: the CLI's rule, a label with no key after it is no key at all.
    const parsed = parseApiKey(entry);
    if (typeof parsed !== 'string' && parsed.key === '') throw new TypeError(`apiKey, apiKeys: ${LABEL_WITHOUT_KEY}`);
    return entry;
  }
  if (typeof entry !== 'object' || entry === null || typeof Reflect.get(entry, 'key') !== 'string')
    throw new TypeError(`apiKey, apiKeys: each key is a string, or { key, label } with a string key; got ${described(entry)}`);
  const { key, label } = entry as LabelledApiKey;
  if (typeof label !== 'string' || !KEY_LABEL.test(label))
    throw new TypeError(`apiKeys: a key label is a word of letters, digits, '_', '.' or '-'; got ${JSON.stringify(label) ?? described(label)}`);
  keyLabels.set(key, label);
  return key;
}

/** `apiKey` and `apiKeys` as one list of keys (the default key when neither names one), and the labels of the labelled ones. */
function resolveApiKeys(options: MockOptions): Pick<ResolvedMockOptions, 'apiKeys' | 'keyLabels'> {
  const one = text('apiKey', options.apiKey, "'test-key'");
  const named = [...(one === undefined ? [] : [one]), ...(list('apiKeys', options.apiKeys, "['test-key', { label: 'ci', key: 'ci-key' }]") ?? [])];
  const keyLabels = new Map<string, string>();
  const apiKeys = (named.length > 0 ? named : [MOCK_DEFAULTS.apiKey]).map((entry) => keyEntry(entry, keyLabels));
  for (const key of apiKeys) {
    const problem = apiKeyProblem(key);
    if (problem !== undefined) throw new TypeError(`apiKey, apiKeys: ${problem}`);
  }
  return { apiKeys, keyLabels };
}

/** The path every operation is served under: `''` or `/` and segments, no query, fragment or white space; without its trailing slashes. */
function resolveBasePath(options: MockOptions, spec: CompiledSpec): string {
  const given = text('basePath', options.basePath, "'/v1'");
  if (given !== undefined && !/^(?:\/[^\s?#]*)?$/.test(given))
    throw new TypeError(
      `basePath must be a path such as /v1 (or '' for the root): a / then segments, no query, fragment or space; got ${JSON.stringify(given)}`,
    );
  return (given ?? (options.spec === undefined ? MOCK_DEFAULTS.basePath : spec.model.basePath)).replace(/\/+$/, '');
}

/** What an earlier run changed, as `persist` was given it: its lists and its count checked where it enters. */
function resolveRestore(restore: SavedPets | undefined): SavedPets | undefined {
  const what = 'what persist was last given: { created: [...], removed: [...], creates: n }';
  const saved = record('restore', restore, what);
  if (saved !== undefined && (!Array.isArray(saved.created) || !Array.isArray(saved.removed) || typeof saved.creates !== 'number'))
    throw new TypeError(`restore must be ${what}; got an object without them`);
  const bytes = saved === undefined ? 0 : savedBytes(saved);
  if (bytes > SESSION_PETS_BYTES)
    throw new RangeError(
      `restore holds ${bytes} bytes of pets as a session counts them, more than the ${SESSION_PETS_BYTES} a session holds (SESSION_PETS_BYTES, docs/guarantees.md)`,
    );
  return saved;
}

/** What a compiled spec has, checked where it enters: `compileSpec(await loadSpecFile(path))` gives one. */
function resolveSpec(options: MockOptions): CompiledSpec {
  const spec = record('spec', options.spec, 'what compileSpec(await loadSpecFile(path)) gives');
  if (spec !== undefined && (typeof Reflect.get(spec, 'model') !== 'object' || typeof Reflect.get(spec, 'doc') !== 'object'))
    throw new TypeError('spec must be what compileSpec(await loadSpecFile(path)) gives, both from petstore-mock; got another object');
  return spec ?? BUNDLED_SPEC;
}

/** Your own pets, checked, refused beside the options of the seeded pets they replace. */
function resolveData(options: MockOptions, spec: CompiledSpec): PetData | undefined {
  if (options.data === undefined) return undefined;
  // The depth rule of a --data file, for pets given as values: every walk of a pet below recurses.
  const problem = nestingProblem(options.data);
  if (problem !== undefined) throw new TypeError(`data: ${problem}; give pets as JSON would hold them`);
  const seeding = (['seed', 'count', 'bigIds'] as const).filter((name) => options[name] !== undefined);
  if (seeding.length > 0)
    throw new TypeError(`data replaces the seeded pets, so ${seeding.join(', ')} cannot go with it: pass your pets, or a seed, not both.`);
  return checkPets(options.data, 'data', false, spec.model);
}

/**
 * The options with every default filled in, as a new object; the caller's object is never changed.
 * @example
 * normalizeMockOptions({ apiKey: 'team-key' }, { host: '0.0.0.0' }).adminKeyRequired; // true: other machines reach it
 */
export function normalizeMockOptions(given: MockOptions = {}, place: MockPlace = {}): ResolvedMockOptions {
  const options = optionsObject('the mock', given);
  const { apiKeys, keyLabels } = resolveApiKeys(options);
  // A server's reach, by the CLI's rules, for every server of the code API (the mock's, the proxy's).
  if (place.host !== undefined) {
    const named = options.apiKey !== undefined || (options.apiKeys?.length ?? 0) > 0;
    const labelled = (key: string) => {
      const label = keyLabels.get(key);
      return label === undefined ? key : { label, key };
    };
    const keys = named ? apiKeys.map(labelled) : [];
    const defaultMeant = trueOrFalse('allowDefaultKey', place.allowDefaultKey, false);
    checkReach({ host: place.host, allowedHosts: place.allowedHosts, keys, defaultMeant });
  }
  // The all-or-nothing saves of `persist` undo a failed change by rewriting the store: never Redis's, which keeps its own state.
  if (options.persist && options.shared) throw new TypeError('persist and shared cannot go together: with shared state, Redis keeps the pets.');
  const faults = record('faults', options.faults, 'an object of rates such as { reset: 0.02, slow: 0.1 }') ?? {};
  checkFaultRates(faults);
  const document = record('profile', options.profile, 'a profile document, as petstore-verify --write-profile writes it');
  const profile = document === undefined ? UNKNOWN_PROFILE : readProfile(document);
  const spec = resolveSpec(options);
  const seed = wholeNumberIn('seed', options.seed, MOCK_BOUNDS.seed, MOCK_DEFAULTS.seed);
  const selfCheck =
    options.selfCheck === undefined || typeof options.selfCheck === 'function' ? options.selfCheck : trueOrFalse('selfCheck', options.selfCheck, false);
  return {
    spec,
    profile,
    apiKeys,
    keyLabels,
    data: resolveData(options, spec),
    seed,
    count: wholeNumberIn('count', options.count, MOCK_BOUNDS.count, MOCK_DEFAULTS.count),
    delay: wholeNumberIn('delay', options.delay, MOCK_BOUNDS.delay, MOCK_DEFAULTS.delay),
    now: checkedClock(options.now),
    basePath: resolveBasePath(options, spec),
    // A profile of a deployment whose ids pass 2^53 asks for big ids, unless told otherwise.
    bigIds: trueOrFalse('bigIds', options.bigIds, profile.idsBeyondDouble === true || MOCK_DEFAULTS.bigIds),
    prefer: trueOrFalse('prefer', options.prefer, MOCK_DEFAULTS.prefer),
    faults,
    faultSeed: wholeNumberIn('faultSeed', options.faultSeed, MOCK_BOUNDS.seed, seed),
    sessionTtl: wholeNumberIn('sessionTtl', options.sessionTtl, MOCK_BOUNDS.sessionTtl, MOCK_DEFAULTS.sessionTtl),
    maxSessions: wholeNumberIn('maxSessions', options.maxSessions, MOCK_BOUNDS.maxSessions, MOCK_DEFAULTS.maxSessions),
    selfCheck: selfCheck === true ? () => {} : selfCheck === false ? undefined : selfCheck,
    restore: resolveRestore(options.restore),
    persist: callback('persist', options.persist, 'async (saved) => writeFile(path, JSON.stringify(saved))'),
    shared: record('shared', options.shared, 'what openSharedState gives'),
    adminKeyRequired: trueOrFalse('adminKeyRequired', options.adminKeyRequired, place.host !== undefined && !isLoopback(place.host)),
    journalSize: wholeNumberIn('journalSize', options.journalSize, MOCK_BOUNDS.journalSize, MOCK_DEFAULTS.journalSize),
    journalBodyLimit: wholeNumberIn('journalBodyLimit', options.journalBodyLimit, MOCK_BOUNDS.journalBodyLimit, MOCK_DEFAULTS.journalBodyLimit),
  };
}
