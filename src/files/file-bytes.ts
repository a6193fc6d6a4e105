/**
 * The most bytes of a file petstore-mock and petstore-verify read: 16 MiB, where the largest spec,
 * profile or pact is a few hundred KiB; and of a spec given to `compileSpec` as a value, as JSON.
 * Apart from the reading (src/files/read-file.ts) so that the spec's room may name it without Node's `fs`.
 */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
