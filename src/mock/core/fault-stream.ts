/**
 * The network faults of src/mock/core/faults.ts for hosts that speak web `fetch` (MSW, the fetch
 * adapter): there is no socket to reset, so a broken connection is `Response.error()` (the caller's
 * fetch rejects with a TypeError, as a browser's does), and a body is a stream that breaks or trickles.
 */
import { breaksBeforeResponse, type NetworkFault } from './faults.js';

/** How many pieces a slow body is sent in: enough to watch it arrive, few enough to stay cheap. */
const TRICKLE_PIECES = 20;

/** The bytes of `body` in `pieces` pieces, the last one taking what is left. */
function piecesOf(bytes: Uint8Array, pieces: number): Uint8Array[] {
  const size = Math.max(1, Math.ceil(bytes.length / pieces));
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return parts;
}

/** The body sent in pieces, spaced so that the last leaves `trickleMs` after the first. */
export function trickledPieces(body: string, trickleMs: number): { readonly pieces: Uint8Array[]; readonly gapMs: number } {
  const pieces = piecesOf(new TextEncoder().encode(body), TRICKLE_PIECES);
  return { pieces, gapMs: pieces.length > 1 ? trickleMs / (pieces.length - 1) : 0 };
}

/**
 * A stream of `bytes` that stops with an error after half of them, as a connection closed mid-body does.
 * The error comes a task later: msw 3 writes the head once the first bytes are there, and a stream that
 * fails before would fail the whole fetch instead (msw 2 passes the error on either way).
 */
function truncatedStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, Math.floor(bytes.length / 2)));
      setTimeout(() => controller.error(new TypeError('network error: the connection closed before the whole body arrived (fault=truncate)')), 0);
    },
  });
}

/** A stream of `body` trickled over `trickleMs`. */
function trickledStream(body: string, trickleMs: number): ReadableStream<Uint8Array> {
  const { pieces, gapMs } = trickledPieces(body, trickleMs);
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      const piece = pieces[next++];
      if (piece) controller.enqueue(piece);
      if (next >= pieces.length) controller.close();
    },
  });
}

/**
 * The `Response` a fetch host gives for `fault` over a response whose status, headers and body are these.
 * A response without a body (to a `HEAD`, a 204) has nothing to cut or trickle: its head comes whole,
 * as on the Node server, which then closes the connection for `truncate`.
 */
export function faultyResponse(fault: NetworkFault, status: number, headers: Readonly<Record<string, string>>, body: string): Response {
  if (body === '' && !breaksBeforeResponse(fault.kind)) return new Response(null, { status, headers });
  switch (fault.kind) {
    case 'truncate': {
      // The whole body's length, as the Node server sends it: the client sees the body end short of it (msw 3 passes
      // no stream error on, and without the length a short body would read as a whole one).
      const bytes = new TextEncoder().encode(body);
      return new Response(truncatedStream(bytes), { status, headers: { ...headers, 'content-length': String(bytes.length) } });
    }
    case 'slow':
      return new Response(trickledStream(body, fault.trickleMs), { status, headers });
    default:
      return Response.error();
  }
}
