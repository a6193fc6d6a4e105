/**
 * How much key text a memo keeps in each of its two generations: 32 Ki characters (bytes, for the
 * ASCII of a request-target), some 1,500 targets of 20 characters; at most twice that is kept. A
 * client that repeats fewer distinct keys always hits; one that sends more pays a computation per
 * miss, never a wipe of the keys it repeats. The one bound of every memo of the mock.
 */
const MEMO_KEY_CHARS = 32 * 1024;

/**
 * A pure function of a string, remembered for the keys seen lately, so that a client repeating a
 * request pays once for parsing what only its text decides. The keys are kept in two generations:
 * a key is looked up in the young one, then the old one (and moved to the young one when found
 * there); once the young one holds `capacity` characters of keys it becomes the old one, and the
 * old one is dropped. So a key in use stays, whatever the number of keys seen once, and the memo
 * never holds more than twice `capacity` of key text (a key longer than `capacity` is never kept).
 * The results are shared between calls: they must never be changed.
 * @example
 * const route = memoize((path) => matchRoute(routes, path));
 */
export function memoize<T>(compute: (key: string) => T, capacity = MEMO_KEY_CHARS): (key: string) => T {
  let young = new Map<string, T>();
  let old = new Map<string, T>();
  let youngChars = 0;
  return (key) => {
    const value = young.get(key);
    // `has` tells a remembered `undefined` from a key never seen, which `get` alone cannot.
    if (value !== undefined || young.has(key)) return value as T;
    const computed = old.has(key) ? (old.get(key) as T) : compute(key);
    if (key.length > capacity) return computed;
    if (youngChars + key.length > capacity) {
      old = young;
      young = new Map();
      youngChars = 0;
    }
    young.set(key, computed);
    youngChars += key.length;
    return computed;
  };
}

/**
 * The value of `key` in `map`, made by `make` on first use and kept: the one way a cache of the mock
 * is filled.
 * @example
 * cachedIn(pagesByKey, key, () => render(page)); // rendered once per key
 */
export function cachedIn<K, V>(map: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
