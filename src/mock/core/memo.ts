/**
 * A pure function of a string, remembered for the last keys seen (at most `capacity` of them; then it
 * starts over), so that a client repeating a request pays once for parsing what only its text decides.
 * The results are shared between calls: they must never be changed.
 * @example
 * const route = memoize((path) => matchRoute(routes, path));
 */
export function memoize<T>(compute: (key: string) => T, capacity = 256): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    const value = known.get(key);
    // `has` tells a remembered `undefined` from a key never seen, which `get` alone cannot.
    if (value !== undefined || known.has(key)) return value as T;
    if (known.size >= capacity) known.clear();
    const computed = compute(key);
    known.set(key, computed);
    return computed;
  };
}
