/**
 * The fields that have a value: under `exactOptionalPropertyTypes` an optional property is absent or a
 * value, never `undefined`, so `...definedFields({ expected, actual })` stands for one
 * `...(expected === undefined ? {} : { expected })` per field.
 */
export function definedFields<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
