/**
 * The bounds of a run that the CLI's help states, apart from the suites themselves so that
 * `petstore-verify --help` loads neither them nor fast-check.
 */

/** The most writes the spec suite sends: 20 to fill an empty listing to the default page, the rest for its checks (most rejected by design). */
export const MAX_WRITES = 80;

/** The most writes the fuzz suite sends, besides the spec suite's own budget (`MAX_WRITES`). */
export const MAX_FUZZ_WRITES = 120;

/** Sequences generated when --fuzz-runs is not given: a few seconds against a local deployment. */
export const DEFAULT_FUZZ_RUNS = 40;
