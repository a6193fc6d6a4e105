import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Bound, Budget, MAX_RESPONSE_BYTES } from '../../bounds/budget.js';
import { messageOf } from '../../errors.js';
import { readRegularFile, UnreadableFileError } from '../../files/read-file.js';
import { readLimited } from '../../http/read-limited.js';
import { parseUserUrl } from '../../http/user-url.js';
import { jsonFault } from '../../json/json-fault.js';
import { refuseDeepJson } from '../../json/lossless.js';
import { isObject } from './guards.js';
import { PROVIDER, STATES } from './names.js';
import { pactUrlProblem } from './pact-url.js';

/** The pacts shipped with the package: spec/pacts/*.json. */
export const BUNDLED_PACTS = fileURLToPath(new URL('../../../spec/pacts/', import.meta.url));

/** The part of a Pact file (V2 to V4) the verifier uses. */
export interface PactInteraction {
  readonly description: string;
  readonly providerState?: string;
  readonly providerStates?: readonly { readonly name: string; readonly params?: Record<string, unknown> }[];
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly query?: Record<string, string | string[]> | string;
    readonly headers?: Record<string, string | string[]>;
    readonly body?: unknown;
  };
  /** What the consumer expects back; its status tells an error's form from a success's. */
  readonly response?: { readonly status?: number };
  readonly type?: string;
  /** V4: a pending interaction's failure is reported, but does not fail the provider. */
  readonly pending?: boolean;
}

export interface PactDocument {
  readonly consumer: { readonly name: string };
  /** Not checked on parsing: `pactProblem` says when it is missing or names another provider. */
  readonly provider?: unknown;
  readonly interactions: readonly PactInteraction[];
  readonly [key: string]: unknown;
}

export interface LoadedPact {
  /** Where it came from: a file path or a URL. */
  readonly source: string;
  readonly pact: PactDocument;
}

/**
 * The names of an interaction's provider states, whatever the Pact version, each once: a state is a
 * fact about the deployment, not a count (`a pet exists` named 3,000 times is one pet, not 3,000 POSTs).
 */
export function statesOf(interaction: PactInteraction): string[] {
  if (interaction.providerStates) return [...new Set(interaction.providerStates.map((state) => state.name))];
  return interaction.providerState ? [interaction.providerState] : [];
}

/**
 * The interaction as the Pact Verifier is given it: each provider state named once, at its first
 * place (the Verifier sets up every entry; petstore-verify's setups read no `params`, so a second
 * entry of a name is the same fact).
 */
export function withStatesOnce(interaction: PactInteraction): PactInteraction {
  const { providerStates } = interaction;
  if (providerStates === undefined) return interaction;
  const named = new Set<string>();
  return { ...interaction, providerStates: providerStates.filter((state) => !named.has(state.name) && named.add(state.name)) };
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'there is no such file',
  EACCES: 'petstore-verify may not read it (permission denied)',
  EISDIR: 'it is a folder, not a file',
};

/** Why a fetch failed: its cause says what the network did (`ECONNREFUSED`, a DNS failure), the error itself only "fetch failed". */
function fetchFailure(error: unknown): string {
  const cause = isObject(error) && isObject(error.cause) ? error.cause.message : undefined;
  return cause === undefined || cause === null ? messageOf(error) : String(cause);
}

/** The longest a pact URL may take to answer whole, within the run's deadline. */
const PACT_FETCH_MS = 15_000;

/**
 * The text of the pact at the URL `source`, read whole within `PACT_FETCH_MS` and the run's `deadline`:
 * both signals end the answer's body too, so a pact served a byte at a time ends with the run.
 */
async function fetchSource(source: string, deadline: AbortSignal | undefined): Promise<string> {
  const signal = deadline === undefined ? AbortSignal.timeout(PACT_FETCH_MS) : AbortSignal.any([AbortSignal.timeout(PACT_FETCH_MS), deadline]);
  const failed = (error: unknown) =>
    new Error(
      deadline?.aborted
        ? `the run's deadline (--deadline) passed while the pact ${source} (--pact) was read; give a file, or a URL that answers at once.`
        : signal.aborted
          ? `the pact ${source} (--pact) did not answer whole within ${PACT_FETCH_MS / 1000} s; give a file, or a URL that answers at once.`
          : `cannot fetch the pact ${source} (--pact): ${fetchFailure(error)}. Check the URL, or give a file.`,
    );
  const url = parseUserUrl(source, { name: '--pact', schemes: ['http:', 'https:'], example: 'https://broker.example.com/pacts/petstore.json, or a file' });
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (error) {
    throw failed(error);
  }
  if (!response.ok) throw new Error(`cannot fetch the pact ${source} (--pact): it answered ${response.status}. Check the URL, or give a file.`);
  const text = await readLimited(response.body, MAX_RESPONSE_BYTES).catch((error: unknown) => {
    throw failed(error);
  });
  if (text === undefined) throw new Error(`the pact ${source} (--pact) is larger than ${MAX_RESPONSE_BYTES} bytes; no pact of this API is that large.`);
  return text;
}

async function readSource(source: string, deadline: AbortSignal | undefined): Promise<string> {
  if (/^https?:\/\//i.test(source)) return fetchSource(source, deadline);
  try {
    return await readRegularFile(source);
  } catch (error) {
    if (error instanceof UnreadableFileError)
      throw new Error(`cannot read the pact file ${source} (--pact): ${error.message}. Give the path of a pact JSON file.`);
    const code = isObject(error) && typeof error.code === 'string' ? error.code : '';
    throw new Error(`cannot read the pact file ${source} (--pact): ${READ_ERRORS[code] ?? messageOf(error)}. Give the path of a pact JSON file.`);
  }
}

/**
 * True when the document has what every pact has: a consumer's name and a list of interactions.
 * The interactions themselves are the Pact Verifier's to judge.
 */
function isPactDocument(value: unknown): value is PactDocument {
  return isObject(value) && isObject(value.consumer) && typeof value.consumer.name === 'string' && Array.isArray(value.interactions);
}

function parsePact(source: string, text: string): PactDocument {
  let pact: unknown;
  try {
    // The depth rule of every JSON input (128 levels), before JSON.parse, or a later walk, meets a deeper one.
    refuseDeepJson(text);
    pact = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} (--pact): ${jsonFault(error)}; give a pact JSON file.`);
  }
  if (!isPactDocument(pact)) {
    throw new Error(`${source} is not a pact: it needs "consumer.name" and "interactions"`);
  }
  return pact;
}

const KNOWN_STATES: ReadonlySet<string> = new Set(Object.values(STATES));

/**
 * What an interaction lacks of the fields petstore-verify reads before the Pact Verifier sees it (its
 * description, its request's method and path, its states' names), or `undefined`: a pact's JSON is
 * the consumer's, and one without them stopped the run with a stack trace.
 */
function shapeProblem(interaction: unknown): string | undefined {
  if (!isObject(interaction)) return 'is not a JSON object';
  if (typeof interaction.description !== 'string') return 'has no "description" text';
  const { request, providerStates, providerState } = interaction;
  if (!isObject(request) || typeof request.method !== 'string' || typeof request.path !== 'string')
    return 'has no HTTP request (a "request" with a "method" and a "path")';
  if (providerStates !== undefined && !(Array.isArray(providerStates) && providerStates.every((state) => isObject(state) && typeof state.name === 'string')))
    return 'has "providerStates" that are not a list of objects each with a "name"';
  if (providerState !== undefined && providerState !== null && typeof providerState !== 'string') return 'has a "providerState" that is not a text';
  return undefined;
}

/**
 * Why a pact cannot be verified against this API, or `undefined`: one written for another
 * provider, or one that needs a provider state this verifier cannot set up (its interactions
 * would otherwise run against whatever the deployment holds, and pass or fail by chance).
 */
export function pactProblem({ source, pact }: LoadedPact): string | undefined {
  const provider = isObject(pact.provider) ? pact.provider.name : undefined;
  if (provider !== PROVIDER) return `${source} is a pact for the provider "${String(provider)}", not "${PROVIDER}": give a pact whose provider is ${PROVIDER}.`;
  for (const [index, interaction] of pact.interactions.entries()) {
    const unlike = shapeProblem(interaction);
    if (unlike !== undefined)
      return `${source}: interaction ${index + 1} ${unlike}, which petstore-verify reads before it replays a pact; give a pact written by Pact (V2 to V4) for this HTTP API.`;
    const unknown = statesOf(interaction).find((state) => !KNOWN_STATES.has(state));
    if (unknown !== undefined)
      return `${source} needs the provider state "${unknown}" (in "${interaction.description}"), which petstore-verify cannot set up; it knows: ${[...KNOWN_STATES].map((state) => `"${state}"`).join(', ')}.`;
  }
  return undefined;
}

/**
 * The most all the pacts of one run hold together, the bundled ones included (a `Budget` of one owner,
 * src/bounds/budget.ts). In bytes: each file is capped (`MAX_FILE_BYTES`, a URL's answer
 * `MAX_RESPONSE_BYTES`), and eight files under the cap once held the verifier at 1.78 GB and wrote a
 * report of 243 MB; one file's cap is plenty for every pact of a run. In interactions: each is one
 * result of every report, and one run of the Pact Verifier; a consumer's pacts of this API need tens.
 */
export const PACTS_BOUND = { totalBytes: 16 * 1024 * 1024, totalCount: 2_000 } as const satisfies Bound;

/**
 * The bundled pacts and any others given (files or URLs), parsed, one after the other; a URL is read
 * within the run's `deadline`. All of them together hold at most `PACTS_BOUND`: reading stops at the
 * pact that passes it.
 */
export async function loadPacts(extra: readonly string[] = [], deadline?: AbortSignal): Promise<LoadedPact[]> {
  const bundled = (await readdir(BUNDLED_PACTS)).filter((name) => name.endsWith('.json')).map((name) => BUNDLED_PACTS + name);
  const loaded: LoadedPact[] = [];
  const held = new Budget(PACTS_BOUND).share();
  for (const source of [...bundled, ...extra]) {
    const problem = pactUrlProblem(source);
    if (problem !== undefined) throw new Error(problem);
    const text = await readSource(source, deadline);
    if (held.take(Buffer.byteLength(text)) !== undefined)
      throw new Error(
        `the pacts to verify (--pact, with the bundled ones) hold more than ${PACTS_BOUND.totalBytes} bytes (16 MiB) together, past ${source}; no consumer's pacts of this API are that large: give fewer or smaller pacts`,
      );
    const pact = parsePact(source, text);
    if (held.take(0, pact.interactions.length) !== undefined)
      throw new Error(
        `the pacts to verify (--pact, with the bundled ones) hold more than ${PACTS_BOUND.totalCount} interactions together, past ${source}; give fewer pacts, or pacts of fewer interactions`,
      );
    loaded.push({ source, pact });
  }
  return loaded;
}
