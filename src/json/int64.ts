/** The bounds of a signed 64-bit integer, the range of every `format: int64` field. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer in its one canonical spelling: no sign but `-`, no leading zero, no space, no fraction
 * or exponent, and no `-0`, a second spelling of 0 that JSON allows but an id never has.
 */
export const INTEGER_SPELLING = /^(0|-?[1-9]\d*)$/;

/** True when `value` is an integer that fits in int64. */
export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * ajv format checks. ajv only ever sees numbers: `validationView` has already folded every bigint
 * into a safe stand-in, so a number here that is not a safe integer came from exponent notation.
 */
export const formats = {
  int32: { type: 'number', validate: (n: number): boolean => Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1 },
  int64: { type: 'number', validate: (n: number): boolean => Number.isSafeInteger(n) || (Number.isInteger(n) && n > -(2 ** 63) && n < 2 ** 63) },
} as const;
