/**
 * The largest response body the verifier (both suites) and the mock's `--proxy` read from a
 * deployment, after decompression: no page of at most 100 pets and no Error comes near it, and a
 * deployment streaming more cannot exhaust their memory.
 */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
