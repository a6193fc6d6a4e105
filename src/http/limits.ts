/**
 * The largest response body the verifier (both suites) and the mock's `--proxy` read from a
 * deployment, after decompression, and `expectRequests(url)` from a mock's journal: no page of at most
 * 100 pets, no Error and no journal of 500 entries comes near it, and a server streaming more cannot
 * exhaust their memory.
 */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
