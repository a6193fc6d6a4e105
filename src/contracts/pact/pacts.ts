import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The pacts shipped with the package: spec/pacts/*.json. */
export const BUNDLED_PACTS = fileURLToPath(new URL('../../../spec/pacts/', import.meta.url));

/** The part of a Pact file (V2 to V4) the verifier reads. */
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
  readonly type?: string;
  /** V4: a pending interaction's failure is reported, but does not fail the provider. */
  readonly pending?: boolean;
}

export interface PactDocument {
  readonly consumer: { readonly name: string };
  readonly provider: { readonly name: string };
  readonly interactions: readonly PactInteraction[];
  readonly [key: string]: unknown;
}

export interface LoadedPact {
  /** Where it came from: a file path or a URL. */
  readonly source: string;
  readonly pact: PactDocument;
}

/** The names of an interaction's provider states, whatever the Pact version. */
export function statesOf(interaction: PactInteraction): string[] {
  if (interaction.providerStates) return interaction.providerStates.map((state) => state.name);
  return interaction.providerState ? [interaction.providerState] : [];
}

async function readSource(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new Error(`cannot fetch the pact ${source}: ${response.status}`);
    return response.text();
  }
  return readFile(source, 'utf8');
}

function parsePact(source: string, text: string): PactDocument {
  let pact: PactDocument;
  try {
    pact = JSON.parse(text) as PactDocument;
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  if (typeof pact?.consumer?.name !== 'string' || !Array.isArray(pact.interactions)) {
    throw new Error(`${source} is not a pact: it needs "consumer.name" and "interactions"`);
  }
  return pact;
}

/** The bundled pacts and any others given (files or URLs), parsed. */
export async function loadPacts(extra: readonly string[] = []): Promise<LoadedPact[]> {
  const bundled = (await readdir(BUNDLED_PACTS)).filter((name) => name.endsWith('.json')).map((name) => BUNDLED_PACTS + name);
  return Promise.all([...bundled, ...extra].map(async (source) => ({ source, pact: parsePact(source, await readSource(source)) })));
}
