/**
 * The provider-state endpoint the Pact Verifier calls before each interaction. Pact JS's own
 * endpoint writes its responses with `JSON.stringify`, which cannot write an integer beyond 2^53 exactly (and
 * throws on a `bigint`); this one writes the values a state hands out losslessly, so an id like
 * 9007199254740993 reaches the Verifier's request path and expected body as it is (the native
 * verifier reads them exactly, and no Pact JS proxy stands between it and the deployment: see
 * `loadPactCore`).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { messageOf } from '../../errors.js';
import { type JsonValue, parseJson, stringifyJson } from '../../json/lossless.js';
import { isObject } from './guards.js';
import { listenOnLoopback, requestChunks } from './loopback.js';
import { type StateSetup, StateUnavailable } from './states.js';

/** A state change the Verifier sends: `{ "state": "a pet exists", "action": "setup", "params": {} }`. */
interface StateChange {
  readonly state?: string;
  readonly action?: string;
}

export interface StateChangeServer {
  /** Give it to the Pact Verifier as `providerStatesSetupUrl`. */
  readonly url: string;
  /** The setups that failed, with why, in order. */
  readonly failures: string[];
  /** The setups the deployment legitimately could not serve (a category it does not know), with why, in order. */
  readonly unavailable: string[];
  /** True while a state is being set up: the requests sent then are the setup's, not the interaction's. */
  readonly settingUp: () => boolean;
  close(): Promise<void>;
}

const MAX_STATE_CHANGE_BYTES = 64 * 1024;

/** What the state changes share: the setups, and what they handed out or could not do. */
interface StateChangeContext {
  readonly setups: Readonly<Record<string, StateSetup>>;
  readonly failures: string[];
  readonly unavailable: string[];
  /** How many setups are running now. */
  inProgress: number;
}

interface StateChangeResponse {
  readonly status: number;
  readonly body: string;
}

/**
 * The fields of a state change the endpoint uses; a body that is not a JSON object asks for nothing.
 * A state that is not a string is looked up by its text, as a property name would be.
 */
function stateChangeOf(value: JsonValue): StateChange {
  if (!isObject(value)) return {};
  const { state, action } = value;
  return { ...(state ? { state: String(state) } : {}), ...(typeof action === 'string' ? { action } : {}) };
}

/** Sets the state up; its values go back to the Verifier, written losslessly. */
async function setUp(context: StateChangeContext, name: string, setup: StateSetup): Promise<StateChangeResponse> {
  context.inProgress++;
  try {
    const values = (await setup.setup()) ?? {};
    return { status: 200, body: stringifyJson(values) };
  } catch (error) {
    const why = `the provider state "${name}" could not be set up: ${messageOf(error)}`;
    if (error instanceof StateUnavailable) context.unavailable.push(why);
    else context.failures.push(why);
    return { status: 500, body: '{}' };
  } finally {
    context.inProgress--;
  }
}

async function stateChangeResponse(context: StateChangeContext, text: string): Promise<StateChangeResponse> {
  const change = stateChangeOf(parseJson(text));
  // Teardowns, and interactions given no state (the Verifier sends an empty name), need nothing.
  if (change.action !== 'setup' || !change.state) return { status: 200, body: '{}' };
  const setup = context.setups[change.state];
  if (!setup) {
    context.failures.push(`petstore-verify knows no provider state "${change.state}"`);
    return { status: 400, body: '{}' };
  }
  return setUp(context, change.state, setup);
}

/** The request's body as text, cut short once it passes the cap (it then fails to parse). */
async function requestText(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of requestChunks(request)) {
    text += chunk.toString('utf8');
    if (text.length > MAX_STATE_CHANGE_BYTES) break;
  }
  return text;
}

/** Starts the endpoint on 127.0.0.1, on a free port. */
export async function startStateChangeServer(setups: Readonly<Record<string, StateSetup>>): Promise<StateChangeServer> {
  const context: StateChangeContext = { setups, failures: [], unavailable: [], inProgress: 0 };
  const server = createServer(async (request, response) => {
    const text = await requestText(request);
    const { status, body } = await stateChangeResponse(context, text).catch((error: Error) => ({
      status: 400,
      body: JSON.stringify({ error: error.message }),
    }));
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body);
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/`,
    failures: context.failures,
    unavailable: context.unavailable,
    settingUp: () => context.inProgress > 0,
    close,
  };
}
