/**
 * The network faults of src/mock/core/faults.ts on a Node server's socket: what a client of a real
 * deployment sees when a load balancer drops it, a process dies mid-response, or a link is slow.
 */
import type { ServerResponse } from 'node:http';
import { trickledPieces } from '../core/fault-stream.js';
import type { NetworkFault } from '../core/faults.js';

/** Bytes no HTTP client can parse as a response: a status line must begin `HTTP/`. */
const GARBAGE = Buffer.from('\u0000\u00ff\u00fe garbage, not an HTTP response \r\n\r\n', 'latin1');

/**
 * Makes `fault` happen on `outgoing` instead of writing the response plainly. `headers` is the list
 * `writeHead` takes, its `content-length` set to the whole body's, which stays true when the body breaks.
 */
export function writeFault(outgoing: ServerResponse, fault: NetworkFault, status: number, headers: (string | number)[], body: string): void {
  const { socket } = outgoing;
  if (socket === null) return;
  switch (fault.kind) {
    case 'reset':
      socket.resetAndDestroy();
      return;
    case 'close':
      socket.destroy();
      return;
    case 'garbage':
      socket.end(GARBAGE, () => socket.destroy());
      return;
    case 'truncate': {
      const bytes = Buffer.from(body);
      outgoing.writeHead(status, headers);
      outgoing.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => socket.destroy());
      return;
    }
    case 'slow':
      trickle(outgoing, status, headers, body, fault.trickleMs);
  }
}

/** Writes the head at once, then the body in pieces over `trickleMs`; stops when the client goes. */
function trickle(outgoing: ServerResponse, status: number, headers: (string | number)[], body: string, trickleMs: number): void {
  const { pieces, gapMs } = trickledPieces(body, trickleMs);
  outgoing.writeHead(status, headers);
  outgoing.flushHeaders();
  let next = 0;
  const sendNext = () => {
    if (outgoing.destroyed) return;
    const piece = pieces[next++];
    if (next >= pieces.length) outgoing.end(piece);
    else {
      outgoing.write(piece);
      setTimeout(sendNext, gapMs);
    }
  };
  if (pieces.length === 0) outgoing.end();
  else sendNext();
}
