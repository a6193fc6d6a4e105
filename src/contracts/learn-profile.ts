/**
 * What a verification run saw a deployment choose (its checks' observations), as a profile the mock
 * can adopt (src/profile/profile.ts). A choice seen two ways, or not seen at all (a read-only run
 * creates no pet), stays `unknown`.
 */

import { ERROR_CODES, type ErrorCode, PET_STATUSES } from '../openapi/facts.js';
import { isProfileErrorCode, LIST_ORDERS, type Profile, readProfile, UNKNOWN, UNKNOWN_PROFILE, versionFor } from '../profile/profile.js';
import type { CheckResult } from './check.js';
import { mergeObservations, type Observations } from './checks/observations.js';

type Choice<K extends keyof Profile> = Profile[K];

function oneOf<T extends string | number>(value: unknown, allowed: readonly T[]): T | typeof UNKNOWN {
  return allowed.find((candidate) => candidate === value) ?? UNKNOWN;
}

/** The same code, spelled another way: `NOT_FOUND`, `not-found`, `NotFound` for `not_found`. */
function sameWord(a: string, b: string): boolean {
  const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return plain(a) === plain(b);
}

/**
 * Each situation of the spec's catalogue (`x-error-codes`) with the deployment's code for it: the
 * code seen with its status that spells the situation's name, else the only code seen with that status.
 */
function shownCodesOf(byStatus: Observations['errorCodesByStatus']): [ErrorCode, string][] {
  const shown: [ErrorCode, string][] = [];
  // Safe: Object.entries types keys as string, and ERROR_CODES is keyed by ErrorCode alone.
  for (const [situation, { status }] of Object.entries(ERROR_CODES) as [ErrorCode, { status: number }][]) {
    const seen = byStatus?.[String(status)] ?? [];
    const code = seen.find((candidate) => sameWord(candidate, situation)) ?? (seen.length === 1 ? seen[0] : undefined);
    if (code !== undefined) shown.push([situation, code]);
  }
  return shown;
}

/** The codes of `shownCodesOf` a profile may hold (`isProfileErrorCode`): the rest are left unknown, and said (`unlearnedErrorCodes`). */
function errorCodesOf(byStatus: Observations['errorCodesByStatus']): Choice<'errorCodes'> {
  return Object.fromEntries(shownCodesOf(byStatus).filter(([, code]) => isProfileErrorCode(code)));
}

/**
 * A sentence for each Error code a run saw that a profile cannot hold (over 100 characters, or with a
 * control or invisible format character), naming its situation and what is wrong, never the code itself.
 */
export function unlearnedErrorCodes(results: readonly Pick<CheckResult, 'observations'>[]): string[] {
  const seen = mergeObservations(results.map((result) => result.observations));
  return shownCodesOf(seen.errorCodesByStatus)
    .filter(([, code]) => !isProfileErrorCode(code))
    .map(
      ([situation, code]) =>
        `the deployment's Error code for ${situation} (${code.length} characters${code.length > 100 ? '' : ', with a control or invisible character'}) was not learned: a profile holds codes of 1 to 100 characters without them, so the mock answers ${situation} with its own code.`,
    );
}

/** Categories: any, when one no pet has was accepted; the listed and accepted ones less the rejected, when it was rejected. */
function categoriesOf(seen: Observations): Choice<'categories'> {
  if (seen.unlistedCategory === 'accepted') return 'any';
  if (seen.unlistedCategory !== 'refused') return UNKNOWN;
  const refused = new Set(seen.refusedCategories ?? []);
  const known = [...new Set([...(seen.listedCategories ?? []), ...(seen.categories ?? [])])]
    .filter((category) => !refused.has(category))
    .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
  return known.length > 0 ? { known } : UNKNOWN;
}

/**
 * An out-of-range limit: one choice for both sides when they agree; each side on its own when they
 * differ (a gateway that clamps above the maximum and refuses below the minimum).
 */
function limitRangeOf(seen: Observations): Pick<Profile, 'limitOutOfRange' | 'limitAboveMaximum' | 'limitBelowMinimum'> {
  const both = oneOf(seen.limitOutOfRange, ['refuse', 'clamp']);
  if (both !== UNKNOWN) return { limitOutOfRange: both, limitAboveMaximum: UNKNOWN, limitBelowMinimum: UNKNOWN };
  return {
    limitOutOfRange: UNKNOWN,
    limitAboveMaximum: oneOf(seen.limitAboveMaximum, ['refuse', 'clamp']),
    limitBelowMinimum: oneOf(seen.limitBelowMinimum, ['refuse', 'clamp']),
  };
}

/**
 * The profile a run's observations show.
 * @example
 * learnProfile({ listOrder: 'id-desc', limitOutOfRange: 'clamp' }); // { ...UNKNOWN_PROFILE, listOrder: 'id-desc', limitOutOfRange: 'clamp' }
 */
export function learnProfile(seen: Observations): Profile {
  const learned: Omit<Profile, 'version'> = {
    ...UNKNOWN_PROFILE,
    ...limitRangeOf(seen),
    limitNotInteger: oneOf(seen.limitNotInteger, ['refuse', 'ignore']),
    unknownStatus: oneOf(seen.unknownStatus, ['refuse', 'empty']),
    defaultStatus: oneOf(seen.defaultStatus, [...PET_STATUSES, 'omitted']),
    listOrder: oneOf(seen.listOrder, LIST_ORDERS),
    nonIntegerPetId: oneOf(seen.nonIntegerPetId, [400, 404]),
    categories: categoriesOf(seen),
    idScheme: seen.idScheme === 'increasing' ? 'increasing' : seen.idScheme === 'unordered' ? 'random' : UNKNOWN,
    idsBeyondDouble: seen.idsBeyondDouble ?? UNKNOWN,
    errorCodes: errorCodesOf(seen.errorCodesByStatus),
    charset: oneOf(seen.charset, ['none', 'utf-8']),
    deprecation: oneOf(seen.deprecation, ['rfc9745', 'legacy']),
  };
  return readProfile({ ...learned, version: versionFor(learned) });
}

/** The profile a run's results show: their observations joined, then learned. */
export function profileOfRun(results: readonly Pick<CheckResult, 'observations'>[]): Profile {
  return learnProfile(mergeObservations(results.map((result) => result.observations)));
}
