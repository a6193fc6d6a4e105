/**
 * The fuzz suite's bounds, apart from the suite itself so that the CLI's help can state them without
 * loading fast-check.
 */

/** The most POSTs the fuzz suite sends, besides the spec suite's own budget (`MAX_WRITES`). */
export const MAX_FUZZ_WRITES = 120;

/** Sequences generated when --fuzz-runs is not given: a few seconds against a local deployment. */
export const DEFAULT_FUZZ_RUNS = 40;
