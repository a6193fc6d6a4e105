/**
 * The provider-state endpoint the Pact Verifier calls before each interaction. Pact JS's own
 * endpoint answers with `JSON.stringify`, which cannot write an integer beyond 2^53 exactly (and
 * throws on a `bigint`); this one writes the values a state hands out losslessly, so an id like
 * 9007199254740993 reaches the Verifier's request path and expected body as it is.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JsonValue, parseJson, stringifyJson } from '../../json/lossless.js';
import { type StateSetup, StateUnavailable } from './states.js';

/** A state change the Verifier sends: `{ "state": "a pet exists", "action": "setup", "params": {} }`. */
interface StateChange {
  readonly state?: string;
  readonly action?: string;
}

export interface StateChangeServer {
  /** Give it to the Pact Verifier as `providerStatesSetupUrl`. */
  readonly url: string;
  /** The integers beyond 2^53 handed out so far, exact. */
  readonly exactValues: () => Iterable<bigint>;
  /** The setups that failed, with why, in order. */
  readonly failures: string[];
  /** The setups the deployment legitimately could not serve (a category it does not know), with why, in order. */
  readonly unavailable: string[];
  /** True while a state is being set up: the requests sent then are the setup's, not the interaction's. */
  readonly settingUp: () => boolean;
  close(): Promise<void>;
}

const MAX_STATE_CHANGE_BYTES = 64 * 1024;

function bigintsIn(value: JsonValue | undefined, found: Set<bigint>): void {
  if (typeof value === 'bigint') found.add(value);
  else if (Array.isArray(value)) for (const inner of value) bigintsIn(inner, found);
  else if (value !== null && typeof value === 'object') for (const inner of Object.values(value)) bigintsIn(inner, found);
}

/** Starts the endpoint on 127.0.0.1, on a free port. */
export async function startStateChangeServer(setups: Readonly<Record<string, StateSetup>>): Promise<StateChangeServer> {
  const exact = new Set<bigint>();
  const failures: string[] = [];
  const unavailable: string[] = [];
  let inProgress = 0;

  async function answer(text: string): Promise<{ status: number; body: string }> {
    const change = parseJson(text) as StateChange;
    // Teardowns, and interactions given no state (the Verifier sends an empty name), need nothing.
    if (change.action !== 'setup' || !change.state) return { status: 200, body: '{}' };
    const setup = setups[change.state];
    if (!setup) {
      failures.push(`petstore-verify knows no provider state "${change.state}"`);
      return { status: 400, body: '{}' };
    }
    inProgress++;
    try {
      const values = (await setup.setup()) ?? {};
      bigintsIn(values, exact);
      return { status: 200, body: stringifyJson(values) };
    } catch (error) {
      if (error instanceof StateUnavailable) unavailable.push(`the provider state "${change.state}" could not be set up: ${error.message}`);
      else failures.push(`the provider state "${change.state}" could not be set up: ${(error as Error).message}`);
      return { status: 500, body: '{}' };
    } finally {
      inProgress--;
    }
  }

  const server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request as AsyncIterable<Buffer>) {
      text += chunk.toString('utf8');
      if (text.length > MAX_STATE_CHANGE_BYTES) break;
    }
    const { status, body } = await answer(text).catch((error: Error) => ({ status: 400, body: JSON.stringify({ error: error.message }) }));
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    exactValues: () => exact,
    failures,
    unavailable,
    settingUp: () => inProgress > 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
