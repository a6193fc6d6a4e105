/**
 * Which enum values a coverage report names, the mock's (`GET /__mock/coverage`, `--coverage`) and
 * the verifier's (`--coverage`, its reports): a spec variant may list 90,003 values of a status, and
 * naming each twice (counts and what was missed) made a 38.6 MB answer. So a report names at most
 * `VALUES_NAMED` values per input, the exercised ones first, within `NAMED_VALUE_BYTES` of names for
 * the whole report; the others are counted (exercised, never), not named. Every count stays exact.
 */

/** The most values of one enum input a coverage report names. */
export const VALUES_NAMED = 100;

/** The most bytes of names (`body.status=sold`, as JSON) one coverage report gives its enum values, all inputs together. */
export const NAMED_VALUE_BYTES = 1024 * 1024;

/** What a report still may name, in bytes: one per report, shared by its inputs. */
export class NamingBudget {
  #left = NAMED_VALUE_BYTES;

  /** Takes `name`'s bytes (as JSON text) if they fit. */
  take(name: string): boolean {
    const bytes = Buffer.byteLength(JSON.stringify(name));
    if (bytes > this.#left) return false;
    this.#left -= bytes;
    return true;
  }
}

/** The values of an input left unnamed, counted. */
export interface Unnamed {
  readonly exercised: number;
  readonly never: number;
}

/**
 * The positions of `values` a report names, in the spec's order: the exercised first, then the
 * others, at most `VALUES_NAMED`, each within `budget` (`name` says how the report names one).
 * @example
 * namedPositions(['a', 'b', 'c'], (at) => at === 2, new NamingBudget(), (value) => `query.status=${value}`); // [0, 1, 2]
 */
export function namedPositions(values: readonly string[], exercised: (at: number) => boolean, budget: NamingBudget, name: (value: string) => string): number[] {
  const named: number[] = [];
  for (const wanted of [true, false])
    for (let at = 0; at < values.length && named.length < VALUES_NAMED; at++)
      if (exercised(at) === wanted && budget.take(name(values[at] ?? ''))) named.push(at);
  return named.sort((a, b) => a - b);
}

/** How many of `values` were left out of `named`, exercised and never. */
export function unnamedCount(length: number, named: readonly number[], exercised: (at: number) => boolean): Unnamed {
  const shown = new Set(named);
  let counted = 0;
  for (let at = 0; at < length; at++) if (!shown.has(at) && exercised(at)) counted++;
  return { exercised: counted, never: length - named.length - counted };
}
