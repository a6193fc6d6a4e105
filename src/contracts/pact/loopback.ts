/**
 * What the two local servers of the Pact suite (the bounded proxy and the provider-state endpoint)
 * share: listening on 127.0.0.1 on a free port, closing, and the chunks of a request body.
 */
import type { IncomingMessage, Server } from 'node:http';

export interface LoopbackListener {
  readonly port: number;
  /** Closes the server and every connection still open, so that a run never waits on a keep-alive. */
  close(): Promise<void>;
}

/** Starts `server` listening on 127.0.0.1, on a port the system picks. */
export async function listenOnLoopback(server: Server): Promise<LoopbackListener> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  // Listening on a TCP port, the address is an object; a string names a pipe, null a server not listening.
  if (address === null || typeof address === 'string') throw new Error(`the server does not listen on a TCP port (${String(address)})`);
  return {
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The chunks of a request body, as they arrive. */
export function requestChunks(request: IncomingMessage): AsyncIterable<Buffer> {
  // Node types a readable's chunks as `any`; an IncomingMessage yields Buffers unless setEncoding is called, which nothing here does.
  return request as AsyncIterable<Buffer>;
}
