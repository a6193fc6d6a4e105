/**
 * The run as an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/): every
 * request the verifier sent and the deployment's response, to open in a browser's network panel
 * (Chromium and Firefox import it) or to replay. The key is never in it: requests are recorded with
 * `$PETSTORE_API_KEY` where it went (or a near miss's description), responses redacted as the
 * console's are, before they reach the recorder.
 */
import { STATUS_CODES } from 'node:http';
import { Budget, type Share } from '../../bounds/budget.js';
import type { ObservedExchange } from '../http.js';

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

interface HarEntry {
  readonly pageref: string;
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly queryString: readonly HarHeader[];
    readonly postData?: { readonly mimeType: string; readonly text: string; readonly params: readonly never[]; readonly comment?: string };
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text: string; readonly comment?: string };
    readonly redirectURL: string;
    readonly headersSize: -1;
    readonly bodySize: -1;
  };
  readonly cache: Record<string, never>;
  readonly timings: {
    readonly blocked: -1;
    readonly dns: -1;
    readonly connect: -1;
    readonly ssl: -1;
    readonly send: 0;
    readonly wait: number;
    readonly receive: 0;
  };
  /** How Chromium's network panel files the request: with the Fetch/XHR ones. */
  readonly _resourceType: 'fetch';
}

export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly pages: readonly { readonly startedDateTime: string; readonly id: string; readonly title: string; readonly pageTimings: Record<string, never> }[];
    readonly entries: readonly HarEntry[];
    readonly comment?: string;
  };
}

/** What the HAR says of the run: who wrote it, which run. */
export interface HarRun {
  readonly version: string;
  readonly runId: string;
  readonly baseUrl: string;
  readonly startedAt: string;
  /** How many exchanges were left out, past `HAR_ENTRIES` or `HAR_BYTES`: said in the log's comment. */
  readonly dropped?: number;
}

const PAGE_ID = 'petstore-verify';

/**
 * The most bytes of bodies (the requests' and the responses') a HAR holds: the size of a file the CLIs
 * read. A deployment answering 5 MB to each request once made a HAR of 90 MB after 18 of them, all kept
 * in memory until the run's end; past this, an exchange is kept without its bodies.
 */
export const HAR_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The most exchanges a HAR holds, and the most bytes of them in all (each entry's URL, headers and the
 * bodies it keeps, and 512 for the rest): the first ones of a run. Bodies alone bounded no count: a
 * fuzz run of 10,000 (`--fuzz-runs`' most) made 31,432 exchanges, a 95 MB HAR and 1.2 GB of memory.
 * 10,000 exchanges of usual size are some 34 MB of HAR; past either, an exchange is left out, counted.
 */
export const HAR_ENTRIES = 10_000;
export const HAR_BYTES = 2 * HAR_BODY_BYTES;
/** What an entry holds besides its URL, headers and bodies (timings, sizes, HAR's own names), written out. */
const ENTRY_BYTES = 512;

/** An exchange as the HAR keeps it: whole, or without its bodies (their sizes kept) once the HAR holds `HAR_BODY_BYTES`. */
export interface HarExchange extends ObservedExchange {
  /** Set when the bodies were left out: the bytes of the response's. */
  readonly leftOutBytes?: number;
  /** Set, and true, when the request had a body, left out. */
  readonly requestBodyLeftOut?: true;
}

/** The bytes an exchange's URL and headers are, as the HAR writes them. */
function headBytes(exchange: ObservedExchange): number {
  let bytes = ENTRY_BYTES + 2 * Buffer.byteLength(exchange.request.url);
  for (const [name, value] of Object.entries(exchange.request.headers)) bytes += name.length + Buffer.byteLength(value);
  for (const [name, value] of exchange.headers) bytes += name.length + Buffer.byteLength(value);
  return bytes;
}

/**
 * The exchanges of a run for its HAR: at most `HAR_ENTRIES` of them and `HAR_BYTES` in all, their bodies
 * within `HAR_BODY_BYTES` together (each a `Budget` of one owner, src/bounds/budget.ts).
 * @example
 * const kept = new HarExchanges();
 * await verify({ ...options, observe: (exchange) => kept.observe(exchange) });
 * harOf(kept.exchanges, run); // kept.leftOut: how many lost their bodies; kept.dropped: how many are not in it
 */
export class HarExchanges {
  readonly exchanges: HarExchange[] = [];
  readonly #bodies: Share;
  readonly #entries: Share;
  #leftOut = 0;
  #dropped = 0;

  constructor(
    readonly maxBytes = HAR_BODY_BYTES,
    maxEntries = HAR_ENTRIES,
    maxAllBytes = HAR_BYTES,
  ) {
    this.#bodies = new Budget({ totalBytes: maxBytes }).share();
    this.#entries = new Budget({ totalBytes: maxAllBytes, totalCount: maxEntries }).share();
  }

  /** How many exchanges were kept without their bodies. */
  get leftOut(): number {
    return this.#leftOut;
  }

  /** How many exchanges were left out of the HAR, past its entries or its bytes. */
  get dropped(): number {
    return this.#dropped;
  }

  observe(exchange: ObservedExchange): void {
    const responseBytes = Buffer.byteLength(exchange.text);
    const bytes = responseBytes + Buffer.byteLength(exchange.request.body ?? '');
    const head = headBytes(exchange);
    const whole = this.#entries.overrun(head + bytes, 1) === undefined && this.#bodies.take(bytes) === undefined;
    if (!whole && this.#entries.overrun(head, 1) !== undefined) {
      this.#dropped++;
      return;
    }
    this.#entries.adjust(whole ? head + bytes : head, 1);
    if (whole) {
      this.exchanges.push(exchange);
      return;
    }
    this.#leftOut++;
    const { body, ...request } = exchange.request;
    this.exchanges.push({ ...exchange, request, text: '', leftOutBytes: responseBytes, ...(body === undefined ? {} : { requestBodyLeftOut: true as const }) });
  }
}

const LEFT_OUT = `left out: the HAR holds at most ${HAR_BODY_BYTES} bytes of bodies (--har)`;

/** The HTTP version is not known to fetch; HTTP/1.1 is what the verifier speaks to every deployment so far. */
const HTTP_VERSION = 'HTTP/1.1';

function entryOf(exchange: HarExchange): HarEntry {
  const leftOut = exchange.leftOutBytes !== undefined;
  const { request } = exchange;
  const responseHeader = (name: string) => exchange.headers.find(([candidate]) => candidate === name)?.[1];
  // Milliseconds with a fraction are allowed; three decimals are enough and keep the file readable.
  const ms = Math.round(exchange.ms * 1000) / 1000;
  return {
    pageref: PAGE_ID,
    startedDateTime: new Date(exchange.startedAt).toISOString(),
    time: ms,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: Object.entries(request.headers).map(([name, value]): HarHeader => ({ name, value })),
      queryString: [...new URL(request.url).searchParams].map(([name, value]): HarHeader => ({ name, value })),
      ...(request.body === undefined ? {} : { postData: { mimeType: request.headers['content-type'] ?? 'application/json', text: request.body, params: [] } }),
      ...(exchange.requestBodyLeftOut
        ? { postData: { mimeType: request.headers['content-type'] ?? 'application/json', text: '', params: [], comment: LEFT_OUT } }
        : {}),
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
    },
    response: {
      status: exchange.status,
      // The standard phrase, never the deployment's own: a reason phrase is free text it may echo anything into.
      statusText: STATUS_CODES[exchange.status] ?? '',
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: exchange.headers.map(([name, value]): HarHeader => ({ name, value })),
      content: {
        size: exchange.leftOutBytes ?? Buffer.byteLength(exchange.text),
        mimeType: responseHeader('content-type') ?? 'x-unknown',
        text: exchange.text,
        ...(leftOut ? { comment: LEFT_OUT } : {}),
      },
      // The Location of a redirect; the Location of a 201 names what was made, not where to go.
      redirectURL: exchange.status >= 300 && exchange.status < 400 ? (responseHeader('location') ?? '') : '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    // fetch tells only the whole wait: it is `wait`, and `time` is the sum of the timings, as the spec asks.
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: ms, receive: 0 },
    _resourceType: 'fetch',
  };
}

/** The HAR document of the exchanges, oldest first, as the spec orders entries. */
export function harOf(exchanges: readonly HarExchange[], run: HarRun): Har {
  const entries = [...exchanges].sort((a, b) => a.startedAt - b.startedAt).map(entryOf);
  return {
    log: {
      version: '1.2',
      creator: { name: 'petstore-verify', version: run.version },
      pages: [{ startedDateTime: run.startedAt, id: PAGE_ID, title: `petstore-verify run ${run.runId} against ${run.baseUrl}`, pageTimings: {} }],
      entries,
      ...(run.dropped
        ? { comment: `${run.dropped} later exchanges are left out: a HAR holds at most ${HAR_ENTRIES} exchanges and ${HAR_BYTES} bytes (--har)` }
        : {}),
    },
  };
}
