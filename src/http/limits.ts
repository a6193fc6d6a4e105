/**
 * The largest response body the verifier (both suites) and the mock's `--proxy` read from a
 * deployment, after decompression, and `expectRequests(url)` from a mock's journal: no page of at most
 * 100 pets, no Error and no journal of 500 entries comes near it, and a server streaming more cannot
 * exhaust their memory.
 */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

/**
 * The most bytes of a file petstore-mock and petstore-verify read: 16 MiB, where the largest spec,
 * profile or pact is a few hundred KiB; and of a spec given to `compileSpec` as a value, as JSON.
 */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
