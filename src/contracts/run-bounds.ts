/**
 * The bounds of a run that the CLI's help states, apart from the suites themselves so that
 * `petstore-verify --help` loads neither them nor fast-check.
 */

/** The most writes the spec suite's checks send: 20 to fill an empty listing to the default page, the rest for its checks (most rejected by design, as the variants of a body). */
export const SPEC_WRITES = 120;

/** The creates the run-wide model wants acknowledged before it reads its earliest items back: enough to cross a small cache or store. */
export const CROSS_CACHE_CREATES = 128;

/** The most writes a run sends besides the fuzz suite's own (`MAX_FUZZ_WRITES`): the spec suite's, and those the run-wide model adds. */
export const MAX_WRITES = SPEC_WRITES + CROSS_CACHE_CREATES;

/** The most writes the fuzz suite sends, besides the run's own budget (`MAX_WRITES`). */
export const MAX_FUZZ_WRITES = 120;

/**
 * The most writes the Pact suite sends, retries after 429 and provider-state setups counted: a consumer's
 * pacts of this API need tens (the bundled one 7, granted twice that). Derived from the pacts alone, its
 * budget followed them: one interaction naming `a pet exists` 3,000 times made 3,000 POSTs on a shared
 * staging. Pacts that may need more are refused at start, before the run's first request.
 */
export const PACT_WRITES = 240;

/** The most writes one run sends to the deployment, every suite and provider state together, the one number `--help` states (a `--spec` that adds a delete or a replace adds its checks' writes). */
export const RUN_WRITES = MAX_WRITES + PACT_WRITES + MAX_FUZZ_WRITES;

/**
 * The most values of one enum the checks try, each with a request or two (a body with it, a page filtered
 * by it): the first ones, in the spec's order. A variant's enum of 90,003 values made the checks send a
 * request per value until the run's deadline.
 */
export const ENUM_VALUES_TRIED = 20;

/** Sequences generated when --fuzz-runs is not given: a few seconds against a local deployment. */
export const DEFAULT_FUZZ_RUNS = 40;
