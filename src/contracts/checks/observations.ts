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

/**
 * One observation seen twice, by its kind: lists unioned in order, a record of lists (`errorCodesByStatus`)
 * joined by key, a flag true when either saw it, and a choice the same value, or `mixed` when it differs.
 */
function joined(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) || Array.isArray(b)) return [...new Set([...((a as unknown[]) ?? []), ...((b as unknown[]) ?? [])])];
  if (a === undefined || b === undefined) return a ?? b;
  if (typeof a === 'boolean') return a || b === true;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) return join(a, b);
  return a === b ? a : 'mixed';
}

/** Two observations joined, each key by its kind (`joined`): a new kind of observation needs no code here. */
function join<T extends object>(a: T, b: T): T {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return Object.fromEntries([...keys].map((key) => [key, joined(Reflect.get(a, key), Reflect.get(b, key))])) as T;
}

/** Joins observations (each check's, or a whole run's): lists unioned in order, a choice seen two ways `mixed`. Only what was seen is kept. */
export function mergeObservations(all: readonly (Observations | undefined)[]): Observations {
  const merged = all.reduce<Observations>((sum, next) => join(sum, next ?? {}), {});
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

/** True when nothing was observed. */
export function isEmpty(observations: Observations): boolean {
  return Object.keys(observations).length === 0;
}
