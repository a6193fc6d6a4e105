/**
 * What a run saw a deployment choose where the interface leaves room, as data: a later run can
 * learn a profile of the deployment from it. Each check records what it saw; `mergeObservations`
 * joins them (lists are unioned; a choice seen two ways is `mixed`).
 */
export interface Observations {
  /** How the listing is ordered, judged on the first page. */
  readonly listOrder?: 'id-asc' | 'id-desc' | 'name' | 'status' | 'other' | 'mixed' | undefined;
  /**
   * How ids grow from one created pet to the next: `increasing` (sequences, time-ordered ids) or
   * `unordered` (random ids). Other checks create pets meanwhile, so steps of 1 cannot be told apart.
   */
  readonly idScheme?: 'increasing' | 'unordered' | 'mixed' | undefined;
  /** True when some id is beyond 2^53, so a client that parses ids as doubles loses them. */
  readonly idsBeyondDouble?: boolean | undefined;
  /** What `listPets` does with an integer limit out of range (`mixed` when it treats the two sides apart). */
  readonly limitOutOfRange?: 'clamp' | 'refuse' | 'mixed' | undefined;
  /** The same, for a limit above the maximum only. */
  readonly limitAboveMaximum?: 'clamp' | 'refuse' | 'mixed' | undefined;
  /** The same, for a limit below the minimum only. */
  readonly limitBelowMinimum?: 'clamp' | 'refuse' | 'mixed' | undefined;
  /** What `listPets` does with a limit that is not an integer: a page as if it were absent or parsed leniently, or 400. */
  readonly limitNotInteger?: 'ignore' | 'refuse' | 'mixed' | undefined;
  /** What `listPets` does with a status outside the enum. */
  readonly unknownStatus?: 'empty' | 'refuse' | 'mixed' | undefined;
  /** The status of a pet created without one; `omitted` when the pet has none. */
  readonly defaultStatus?: string | undefined;
  /** How `getPet` responds to a petId that is not an integer. */
  readonly nonIntegerPetId?: 400 | 404 | 'mixed' | undefined;
  /** Categories a create was accepted with, as exact digits. */
  readonly categories?: readonly string[] | undefined;
  /** Categories a create was rejected with (400), as exact digits. */
  readonly refusedCategories?: readonly string[] | undefined;
  /** The `code` values of the Error bodies seen. */
  readonly errorCodes?: readonly string[] | undefined;
  /** The same, by the HTTP status they came with (`"404": ["not_found"]`): a profile maps each situation to its code. */
  readonly errorCodesByStatus?: Readonly<Record<string, readonly string[]>> | undefined;
  /** Whether JSON responses name their charset (`application/json; charset=utf-8`) or not. */
  readonly charset?: 'none' | 'utf-8' | 'mixed' | undefined;
  /** The form of getPet's `Deprecation` header: the RFC 9745 date, the legacy `true`, or none sent. */
  readonly deprecation?: 'rfc9745' | 'legacy' | 'none' | 'mixed' | undefined;
  /** What a create with a category no listed pet has got: accepted (201) or rejected (400). */
  readonly unlistedCategory?: 'accepted' | 'refused' | 'mixed' | undefined;
  /** The categories the listing shows, as exact digits, recorded when an unlisted one was rejected. */
  readonly listedCategories?: readonly string[] | undefined;
}

/** One choice seen twice: the same value, or `mixed`. */
function either<T>(a: T | undefined, b: T | undefined, mixed: T): T | undefined {
  if (a === undefined) return b;
  return b === undefined || a === b ? a : mixed;
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  return a === undefined && b === undefined ? undefined : [...new Set([...(a ?? []), ...(b ?? [])])];
}

function unionByKey(a: Observations['errorCodesByStatus'], b: Observations['errorCodesByStatus']): Readonly<Record<string, readonly string[]>> | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return Object.fromEntries(keys.map((key) => [key, union(a[key], b[key]) ?? []]));
}

function join(a: Observations, b: Observations): Observations {
  return {
    listOrder: either(a.listOrder, b.listOrder, 'mixed'),
    idScheme: either(a.idScheme, b.idScheme, 'mixed'),
    idsBeyondDouble: a.idsBeyondDouble === undefined && b.idsBeyondDouble === undefined ? undefined : a.idsBeyondDouble === true || b.idsBeyondDouble === true,
    limitOutOfRange: either(a.limitOutOfRange, b.limitOutOfRange, 'mixed'),
    limitAboveMaximum: either(a.limitAboveMaximum, b.limitAboveMaximum, 'mixed'),
    limitBelowMinimum: either(a.limitBelowMinimum, b.limitBelowMinimum, 'mixed'),
    limitNotInteger: either(a.limitNotInteger, b.limitNotInteger, 'mixed'),
    unknownStatus: either(a.unknownStatus, b.unknownStatus, 'mixed'),
    defaultStatus: either(a.defaultStatus, b.defaultStatus, 'mixed'),
    nonIntegerPetId: either(a.nonIntegerPetId, b.nonIntegerPetId, 'mixed'),
    categories: union(a.categories, b.categories),
    refusedCategories: union(a.refusedCategories, b.refusedCategories),
    errorCodes: union(a.errorCodes, b.errorCodes),
    errorCodesByStatus: unionByKey(a.errorCodesByStatus, b.errorCodesByStatus),
    charset: either(a.charset, b.charset, 'mixed'),
    deprecation: either(a.deprecation, b.deprecation, 'mixed'),
    unlistedCategory: either(a.unlistedCategory, b.unlistedCategory, 'mixed'),
    listedCategories: union(a.listedCategories, b.listedCategories),
  };
}

/** Joins observations (each check's, or a whole run's): lists unioned in order, a choice seen two ways `mixed`. Only what was seen is kept. */
export function mergeObservations(all: readonly (Observations | undefined)[]): Observations {
  const joined = all.reduce<Observations>((merged, next) => join(merged, next ?? {}), {});
  return Object.fromEntries(Object.entries(joined).filter(([, value]) => value !== undefined));
}

/** True when nothing was observed. */
export function isEmpty(observations: Observations): boolean {
  return Object.keys(observations).length === 0;
}
