/**
 * The network faults of src/mock/core/faults.ts on a Node server's socket: what a client of a real
 * deployment sees when a load balancer drops it, a process dies mid-response, or a link is slow.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { trickledPieces } from '../core/fault-stream.js';
import type { NetworkFault } from '../core/faults.js';

/** Bytes no HTTP client can parse as a response: a status line must begin `HTTP/`. */
const GARBAGE = Buffer.from('\u0000\u00ff\u00fe garbage, not an HTTP response \r\n\r\n', 'latin1');

/**
 * Makes `fault` happen on `outgoing` instead of writing the response plainly. `headers` is the list
 * `writeHead` takes, its `content-length` set to the whole body's, which stays true when the body breaks.
 * `body` is what the response may carry: none for a `HEAD` (RFC 9110 9.3.2), whose head alone is sent.
 *
 * A response queued behind another on the same connection (requests pipelined in one write) has no
 * socket until the responses before it are sent: its fault waits for that socket, in order, as a
 * plain response waits, so that the connection ends as the fault says instead of staying open.
 */
export function writeFault(outgoing: ServerResponse, fault: NetworkFault, status: number, headers: (string | number)[], body: string): void {
  const { socket } = outgoing;
  if (socket === null) outgoing.once('socket', (assigned: Socket) => breakOn(assigned, outgoing, fault, status, headers, body));
  else breakOn(socket, outgoing, fault, status, headers, body);
}

function breakOn(socket: Socket, outgoing: ServerResponse, fault: NetworkFault, status: number, headers: (string | number)[], body: string): void {
  switch (fault.kind) {
    case 'reset':
      socket.resetAndDestroy();
      return;
    case 'close':
      socket.destroy();
      return;
    case 'garbage':
      socket.write(GARBAGE);
      socket.destroySoon();
      return;
    case 'truncate': {
      const bytes = Buffer.from(body);
      outgoing.writeHead(status, headers);
      // The head is sent even when there is no body to cut (HEAD): Node sends it with the first byte of a body otherwise.
      outgoing.flushHeaders();
      outgoing.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      // Ends the connection once what was written has left, never before: the client gets the head and
      // half the body, then the close. The mock's server ends it within its send deadline (http-server.ts).
      socket.destroySoon();
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
