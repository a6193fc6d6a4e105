/**
 * Guarantees of docs/guarantees.md on the heads the mock writes: text from outside (a client's headers,
 * a deployment's answer) of any Unicode and any length never puts a character HTTP forbids in a head
 * (RFC 9110 §5.5), and never ends the process. A Content-Type of 300 characters once put an excerpt's
 * "…" in `X-Contract-Violation`: Node threw, and the `--proxy` process ended (red team 6, #5 and #6).
 */
import { createServer, type Server } from 'node:net';
import fc from 'fast-check';
import { expect } from 'vitest';
import { startMockCli } from './cli.js';
import { listenOnLoopback } from './deployments.js';
import type { Guarantee, StartedMock } from './guarantees.js';
import { pipeline, rawRequest } from './raw-http.js';

/** A head's field value as RFC 9110 §5.5 lets a sender write it: visible ASCII, spaces and tabs (no obs-text). */
const SENDABLE = /^[\t\x20-\x7e]*$/;

/**
 * Text of any Unicode that a header line can carry as UTF-8 (no CR, LF or NUL, which end it), short or
 * longer than an excerpt (200 characters), as a script, a scanner or a deployment may send.
 */
const OUTSIDE_TEXT = fc
  .oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'binary', minLength: 250, maxLength: 600 }))
  .map((text) => text.replace(/[\r\n\0]/g, ''));

/** The repro of red team 6: a media type of 300 characters, which a violation cuts with "…". */
const LONG_MEDIA_TYPE = `application/x-${'a'.repeat(300)}`;

/** The fields of each response whose value holds a character a sender may not write; `[]` when every head is clean. */
function unsendable(responses: readonly { readonly headers: Readonly<Record<string, string>> }[]): string[] {
  return responses.flatMap((response) =>
    Object.entries(response.headers)
      .filter(([, value]) => !SENDABLE.test(value))
      .map(([name]) => name),
  );
}

/** Whether the mode still answers: `GET /__mock/health` over a new connection. */
async function stillAnswers(mock: StartedMock | { readonly url: string }): Promise<number | undefined> {
  const port = Number(new URL('baseUrl' in mock ? mock.baseUrl : mock.url).port);
  return (await pipeline(port, [rawRequest('GET', '/__mock/health', ['Connection: close'])])).responses[0]?.status;
}

export const clientTextInHeads: Guarantee = {
  name: 'a client’s header of any text and length (Content-Type, `Prefer`, `X-Mock-Session`, `Accept`) never puts a character HTTP forbids in an answer’s head (RFC 9110 §5.5: a value from outside is percent-encoded), never ends the process',
  async check(mock: StartedMock): Promise<void> {
    const port = Number(new URL(mock.baseUrl).port);
    const path = `${new URL(mock.baseUrl).pathname}/pets`;
    const send = async (text: string) => {
      const fields = [`Authorization: Bearer ${mock.key}`, `Content-Type: ${text}`, `Prefer: ${text}`, `X-Mock-Session: ${text}`, `Accept: ${text}`];
      const { responses } = await pipeline(port, [rawRequest('POST', path, [...fields, 'Connection: close'], '{"name":"Rex","categoryId":1}')]);
      expect(responses, `no answer to a header of ${JSON.stringify(text)}`).toHaveLength(1);
      expect(unsendable(responses)).toEqual([]);
    };
    await send(LONG_MEDIA_TYPE);
    await send(`application/json; x=${'…é☃'.repeat(120)}`);
    await fc.assert(fc.asyncProperty(OUTSIDE_TEXT, send), { numRuns: 25 });
    expect(await stillAnswers(mock)).toBe(200);
  },
  timeoutMs: 60_000,
};

/** A deployment answering every request `200 {}` with the Content-Type of the moment, written as its UTF-8 bytes. */
async function mediaTypeDeployment(): Promise<{ url: string; close(): Promise<void>; answerWith(mediaType: string): void }> {
  let mediaType = LONG_MEDIA_TYPE;
  const server: Server = createServer((socket) => {
    let received = '';
    socket
      .on('error', () => {})
      .on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        const end = received.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(received.slice(0, end))?.[1] ?? 0);
        if (received.length - end - 4 < length) return;
        socket.end(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: ${mediaType}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`));
      });
  });
  const deployment = await listenOnLoopback(Object.assign(server, { closeAllConnections: () => {} }) as never);
  return { ...deployment, answerWith: (next) => (mediaType = next) };
}

export const deploymentTextInHeads: Guarantee = {
  name: 'a deployment’s answer with a header of any text and length (a Content-Type of 300 characters, any Unicode) is relayed by `--proxy` with only characters HTTP allows in its head (its violation in `X-Contract-Violation` too), and never ends the process',
  only: ['--proxy'],
  async check(mock: StartedMock): Promise<void> {
    const deployment = await mediaTypeDeployment();
    const flags = [...(await mock.flagsAgain())];
    flags[flags.indexOf('--proxy') + 1] = deployment.url;
    const again = await startMockCli([...flags, '--port', '0', '--api-key', mock.key]);
    try {
      const port = Number(new URL(again.url).port);
      const path = `${new URL(again.url).pathname}/pets`;
      const relay = async (mediaType: string) => {
        deployment.answerWith(mediaType);
        const { responses } = await pipeline(port, [rawRequest('GET', path, [`Authorization: Bearer ${mock.key}`, 'Connection: close'])]);
        expect(responses, `no answer when the deployment sent ${JSON.stringify(mediaType)}`).toHaveLength(1);
        expect(unsendable(responses)).toEqual([]);
      };
      await relay(LONG_MEDIA_TYPE);
      await fc.assert(fc.asyncProperty(OUTSIDE_TEXT, relay), { numRuns: 25 });
      expect(await stillAnswers(again)).toBe(200);
    } finally {
      await again.stop();
      await deployment.close();
    }
  },
  timeoutMs: 60_000,
};
