/**
 * What counts as a write, for the verifier's budget and `--read-only`: every request whose method is
 * not safe. RFC 9110 §9.2.1 defines GET, HEAD, OPTIONS and TRACE as safe (read-only: the client asks
 * for no change of state); every other method, those of a future spec or a pact included (POST, PUT,
 * PATCH, DELETE, or one never heard of), may change the deployment's state, so it is a write. Method
 * names are case-sensitive (§9.1): `get` is not GET, and is a write.
 */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** True for a method that may change the deployment's state: any but GET, HEAD, OPTIONS and TRACE. */
export function isWrite(method: string): boolean {
  return !SAFE_METHODS.has(method);
}
