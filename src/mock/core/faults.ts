/**
 * Network faults: the ways a connection fails that no status code can show. A response may carry one
 * (`MockResponse.fault`); each host makes it happen in its own terms: the Node server on the socket,
 * the fetch adapter (and so MSW) as a network error or a body stream that breaks or trickles.
 *
 * - `reset`: the connection is reset (TCP RST) before any byte of a response.
 * - `close`: the connection is closed before any byte: an empty response.
 * - `garbage`: bytes that are not HTTP, then the connection closes.
 * - `truncate`: the response's head with its true `Content-Length`, half the body, then the connection closes.
 * - `slow`: the whole response, its body trickled out over `trickleMs`.
 */

export const FAULT_KINDS = ['reset', 'close', 'garbage', 'truncate', 'slow'] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** A fault a response carries: what to break, and for `slow`, over how long. */
export interface NetworkFault {
  readonly kind: FaultKind;
  /** For `slow`: milliseconds from the first byte of the body to the last. */
  readonly trickleMs: number;
}

/** How long a slow body takes when nobody says (`trickle=`): long enough to see a spinner. */
export const DEFAULT_TRICKLE_MS = 2_000;

/** The longest a body may be trickled, as for `delay=`. */
export const MAX_TRICKLE_MS = 60_000;

/**
 * The faults that stop a request before the mock does anything with it: the client cannot tell whether
 * it was served, so the mock does not serve it (no state read or changed). `truncate` and `slow` break
 * or slow the response of a request that was served.
 */
export function breaksBeforeResponse(kind: FaultKind): boolean {
  return kind === 'reset' || kind === 'close' || kind === 'garbage';
}

/** The share of requests that get each fault (`--faults reset:0.02,slow:0.1`); the rest are served as usual. */
export type FaultRates = Readonly<Partial<Record<FaultKind, number>>>;

export function isFaultKind(name: string): name is FaultKind {
  return FAULT_KINDS.some((kind) => kind === name);
}

/**
 * The rates of `--faults`, checked: known kinds, each rate from 0 to 1, their sum at most 1.
 * Throws a `RangeError` saying what to change.
 * @example
 * parseFaultRates('reset:0.02, slow:0.1'); // { reset: 0.02, slow: 0.1 }
 */
export function parseFaultRates(text: string): FaultRates {
  const rates: Partial<Record<FaultKind, number>> = {};
  for (const part of text.split(',')) {
    const [name = '', rate = '', ...rest] = part.trim().split(':');
    if (!isFaultKind(name)) throw new RangeError(`"${part.trim()}": the faults are ${FAULT_KINDS.join(', ')}, each as kind:rate, such as reset:0.05.`);
    const share = Number(rate);
    if (rest.length > 0 || !/^(0|1|0?\.\d+|1\.0*)$/.test(rate) || share > 1)
      throw new RangeError(`"${part.trim()}": a rate is a share of requests from 0 to 1, such as ${name}:0.05 for one request in twenty.`);
    // A kind given twice is a typo or a merge of two lists: the user meant one of the rates, not their sum.
    if (rates[name] !== undefined) throw new RangeError(`"${part.trim()}": ${name} is given twice; give each fault once, with its rate.`);
    rates[name] = share;
  }
  checkFaultRates(rates);
  return rates;
}

/** Throws a `RangeError` unless every rate is from 0 to 1 and they add up to at most 1. */
export function checkFaultRates(rates: FaultRates): void {
  let sum = 0;
  for (const [name, rate] of Object.entries(rates)) {
    if (!isFaultKind(name)) throw new RangeError(`faults: ${name} is not a fault; the faults are ${FAULT_KINDS.join(', ')}.`);
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
      throw new RangeError(`faults: the rate of ${name} must be a number from 0 to 1; got ${JSON.stringify(rate) ?? typeof rate}.`);
    sum += rate;
  }
  if (sum > 1 + 1e-9) throw new RangeError(`faults: the rates add up to ${sum}, more than every request; lower them to a sum of 1 or less.`);
}

/** mulberry32: a small seeded generator, so that the same seed fails the same requests in the same order. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A draw per request from `rates`, seeded: the nth request a process serves gets the same fault (or
 * none) in every run with the same seed. `undefined` when no rate is above 0, so that nothing is drawn.
 * @example
 * const draw = faultDraw({ reset: 0.5 }, 7);
 * draw(); // 'reset' or undefined, the same sequence for seed 7 every run
 */
export function faultDraw(rates: FaultRates, seed: number): (() => FaultKind | undefined) | undefined {
  const bands = FAULT_KINDS.flatMap((kind) => ((rates[kind] ?? 0) > 0 ? [{ kind, rate: rates[kind] ?? 0 }] : []));
  if (bands.length === 0) return undefined;
  const random = seededRandom(seed);
  return () => {
    let roll = random();
    for (const { kind, rate } of bands) {
      if (roll < rate) return kind;
      roll -= rate;
    }
    return undefined;
  };
}
