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
  /** True when some id is beyond 2^53, so a client that reads ids as doubles loses them. */
  readonly idsBeyondDouble?: boolean | undefined;
  /** What `listPets` does with a limit out of range or not an integer. */
  readonly limitOutOfRange?: 'clamp' | 'refuse' | 'mixed' | undefined;
  /** What `listPets` does with a status outside the enum. */
  readonly unknownStatus?: 'empty' | 'refuse' | 'mixed' | undefined;
  /** The status of a pet created without one; `omitted` when the pet has none. */
  readonly defaultStatus?: string | undefined;
  /** How `getPet` answers a petId that is not an integer. */
  readonly nonIntegerPetId?: 400 | 404 | 'mixed' | undefined;
  /** Categories a create was accepted with, as exact digits. */
  readonly categories?: readonly string[] | undefined;
  /** Categories a create was refused with (400), as exact digits. */
  readonly refusedCategories?: readonly string[] | undefined;
  /** The `code` values of the Error bodies seen. */
  readonly errorCodes?: readonly string[] | undefined;
}

/** One choice seen twice: the same answer, or `mixed`. */
function either<T>(a: T | undefined, b: T | undefined, mixed: T): T | undefined {
  if (a === undefined) return b;
  return b === undefined || a === b ? a : mixed;
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  return a === undefined && b === undefined ? undefined : [...new Set([...(a ?? []), ...(b ?? [])])];
}

function join(a: Observations, b: Observations): Observations {
  return {
    listOrder: either(a.listOrder, b.listOrder, 'mixed'),
    idScheme: either(a.idScheme, b.idScheme, 'mixed'),
    idsBeyondDouble: a.idsBeyondDouble === undefined && b.idsBeyondDouble === undefined ? undefined : a.idsBeyondDouble === true || b.idsBeyondDouble === true,
    limitOutOfRange: either(a.limitOutOfRange, b.limitOutOfRange, 'mixed'),
    unknownStatus: either(a.unknownStatus, b.unknownStatus, 'mixed'),
    defaultStatus: either(a.defaultStatus, b.defaultStatus, 'mixed'),
    nonIntegerPetId: either(a.nonIntegerPetId, b.nonIntegerPetId, 'mixed'),
    categories: union(a.categories, b.categories),
    refusedCategories: union(a.refusedCategories, b.refusedCategories),
    errorCodes: union(a.errorCodes, b.errorCodes),
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
