/**
 * One cause, one failure: a deployment that reads or writes its integers through a 64-bit float
 * (JavaScript's Number and JSON.parse, a double column) rounds every one beyond 2^53, and its ids then
 * collide and swap: pages list an id twice, creates share ids, a created pet reads back as another.
 * Each check meets one of those symptoms; they are one fault, whose fix is one. The run tells it from
 * the integers the deployment wrote: when every one beyond 2^53 is a value a double can hold (an
 * exact id would be odd half the time), and the run failed over them, every finding that names one
 * of them is that fault, and its first failure says so with the fix.
 */

import { groupByCause } from './causes.js';
import type { CheckResult, Finding } from './check.js';

/** The fault of integers rounded through a double, whichever check met it. */
const LOSSY_INTEGERS = 'lossy-integers:*';

/** Fewer integers beyond 2^53 than this, and all being doubles proves nothing (each is by chance half the time). */
const LEAST_EVIDENCE = 8;
/** The most distinct integers kept: enough evidence, and bounded whatever a deployment writes. */
const MOST_KEPT = 1_000;

const BEYOND_DOUBLE = 2n ** 53n;
/** A JSON member whose value is an integer of 16 digits or more (2^53 has 16, and from it on a double skips integers): `"id":9007199254740993`. */
const BIG_MEMBER = /"([^"\\]{1,100})":\s*(-?\d{16,1000})(?=\s*[,}\]])/g;

/** The integers beyond 2^53 the deployment wrote in its answers, by member name, read from their text. */
export class BigIntegers {
  readonly #seen = new Map<string, Set<bigint>>();
  #count = 0;

  observe(text: string): void {
    for (const [, name = '', digits = ''] of text.matchAll(BIG_MEMBER)) {
      if (this.#count >= MOST_KEPT) return;
      const value = BigInt(digits);
      if (value < BEYOND_DOUBLE && value > -BEYOND_DOUBLE) continue;
      const values = this.#seen.get(name) ?? new Set<bigint>();
      if (!values.has(value)) this.#count++;
      this.#seen.set(name, values.add(value));
    }
  }

  /**
   * The integers of each member (`id`, `categoryId`) that has enough of them beyond 2^53 and every
   * one a double: the sign of a lossy reader or writer of that member. Undefined when none has.
   */
  get rounded(): readonly bigint[] | undefined {
    const rounded = [...this.#seen.values()]
      .filter((values) => values.size >= LEAST_EVIDENCE && [...values].every((value) => BigInt(Number(value)) === value))
      .flatMap((values) => [...values]);
    return rounded.length > 0 ? rounded : undefined;
  }
}

function mentions(finding: Finding, digits: readonly string[]): boolean {
  const text = `${finding.message} ${finding.expected ?? ''} ${finding.actual ?? ''} ${finding.request?.url ?? ''}`;
  return digits.some((value) => text.includes(value));
}

function explanation(rounded: readonly bigint[]): Finding {
  const some = [...rounded]
    .sort((a, b) => (a < b ? -1 : 1))
    .slice(0, 3)
    .join(', ');
  return {
    message: `every integer beyond 2^53 the deployment wrote (${rounded.length} of them, ${some}...) is one a 64-bit float can hold, and pets share or swap these ids: the deployment reads or writes integers through a double (JavaScript's Number or JSON.parse, a float64 column), which rounds each one beyond 2^53 (9007199254740993 becomes 9007199254740992). Keep ids exact end to end (an int64 type; in JavaScript a bigint, read with JSON.parse's source text and written with JSON.rawJSON, or a string), or assign ids below 2^53`,
    fault: LOSSY_INTEGERS,
  };
}

/**
 * The results grouped by cause (causes.ts), the findings that name an integer the deployment rounded
 * taken as that one fault first, and its first failure explaining it.
 */
export function groupWithRoundedIntegers(results: readonly CheckResult[], rounded: readonly bigint[] | undefined): CheckResult[] {
  if (rounded === undefined) return groupByCause(results);
  const digits = rounded.map(String);
  const marked = results.map((result) =>
    result.outcome !== 'fail'
      ? result
      : { ...result, findings: result.findings.map((finding) => (mentions(finding, digits) ? { ...finding, fault: LOSSY_INTEGERS } : finding)) },
  );
  const grouped = groupByCause(marked);
  const first = grouped.find(
    (result) => result.outcome === 'fail' && result.follows === undefined && result.findings.some((finding) => finding.fault === LOSSY_INTEGERS),
  );
  return grouped.map((result) => (result === first ? { ...result, findings: [explanation(rounded), ...result.findings] } : result));
}
