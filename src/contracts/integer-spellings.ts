/**
 * What a spelling of an integer parameter denotes. The interface names the value of an integer in a
 * path or a query (an int64), not how it is spelt: `+7`, ` 7`, `07`, `7.0` and `7e0` all denote 7,
 * and mainstream typed parsers read some of them so by default (pydantic, and so FastAPI: the sign,
 * the spaces, the leading zero, `7.0`; Go's strconv.ParseInt: the sign, the leading zero; Ruby's
 * Integer(): the sign, the spaces). A deployment that answers 7 for them only departs from the
 * canonical spelling: advice, never a failure. A text that denotes no integer (`7abc`, `7.5`), or
 * another one (`7e1` is 70), answered as 7 is read leniently (parseInt, a truncating float parse,
 * Ruby's to_i): a fault. docs/verifier-checks.md gives each framework's reading, as measured.
 */

/** A decimal numeral, spaces around it allowed: sign, digits, fraction, exponent. */
const NUMERAL = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** More digits than this and the value is past every int64: no path integer of this API denotes it. */
const MOST_DIGITS = 40;

/** The integer `text` denotes as a decimal number, spaces around it trimmed; undefined for a text that denotes none (not a number, or not whole). */
export function integerDenoted(text: string): bigint | undefined {
  const parts = NUMERAL.exec(text.trim());
  if (!parts) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  const digits = `${whole}${fraction}`;
  const shift = Number(exponent) - fraction.length;
  if (digits.length + Math.max(shift, 0) > MOST_DIGITS) return undefined;
  // A negative shift drops digits, each of which must be a zero: 7.50e1 is 75, 7.5 is no integer.
  const kept = shift >= 0 ? digits + '0'.repeat(shift) : digits.slice(0, digits.length + shift);
  if (shift < 0 && /[1-9]/.test(digits.slice(digits.length + shift))) return undefined;
  const value = BigInt(kept === '' ? '0' : kept);
  return sign === '-' ? -value : value;
}
