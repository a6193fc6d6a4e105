/**
 * Ids that look drawn at random, as some deployments draw int64 ids, while the store still numbers
 * its pets 1, 2, 3: pet n's id is n times an odd constant modulo 2^63. Multiplying by an odd number is
 * one-to-one modulo a power of two, so the id leads back to n through the constant's inverse.
 */
const MODULUS = 2n ** 63n;
/** Odd, and with bits spread over the whole word (the 64-bit golden ratio, its top bit cleared). */
const FACTOR = 0x1e3779b97f4a7c15n;

/** The inverse of an odd `a` modulo 2^63, by Newton's iteration (each step doubles the correct bits). */
function inverseOf(a: bigint): bigint {
  let x = a;
  for (let i = 0; i < 6; i++) x = (x * (2n - a * x)) % MODULUS;
  return ((x % MODULUS) + MODULUS) % MODULUS;
}

const INVERSE = inverseOf(FACTOR);

/**
 * Pet number `n`'s id, a positive int64.
 * @example
 * numberOfRandomId(randomIdOf(7)); // 7
 */
export function randomIdOf(n: number): bigint {
  return (BigInt(n) * FACTOR) % MODULUS;
}

/** The pet number an id stands for (0 or less, or beyond the store, for ids no pet has). */
export function numberOfRandomId(id: number | bigint): number {
  const value = BigInt(id);
  if (value <= 0n || value >= MODULUS) return 0;
  return Number((value * INVERSE) % MODULUS);
}
