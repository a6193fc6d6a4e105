import { type JsonValue, parseJson } from '../../json/lossless.js';
import type { Contract } from '../contract.js';
import type { HttpClient } from '../http.js';
import { absentIdBeyond, newPetJson } from '../pets.js';
import { STATES } from './names.js';

type StateParams = Record<string, JsonValue>;

/**
 * A state that cannot be set up because the deployment legitimately refused the verifier's guesses
 * (a category it does not know): the interaction is not verifiable, which is no contract failure.
 */
export class StateUnavailable extends Error {}

/** What a provider state needs of the deployment. */
export interface StateSetup {
  /** Sets the state up through the API; resolves with the values it injects (`{ id }`). */
  readonly setup: () => Promise<StateParams | undefined>;
  /** True when setting it up may need a POST. */
  readonly mayWrite: boolean;
}

/**
 * The provider states of the shipped pact, set up only through the public interface, so they
 * work for any deployment: a pet that must exist is created with POST (named for this run); an
 * absent id is read off the listing.
 */
export function stateSetups(contract: Contract, client: HttpClient, runId: string, categoryHint?: string): Record<string, StateSetup> {
  const list = contract.operation('listPets').path;
  const create = contract.operation('createPet');
  const max = contract.integerParameter('listPets', 'limit').maximum;

  async function listing(query: string): Promise<Record<string, JsonValue>[]> {
    const exchange = await client.send({ method: 'GET', path: list, query });
    if (exchange.status !== 200 || !Array.isArray(exchange.json)) throw new Error(`cannot set up the state: GET ${list}?${query} answered ${exchange.status}`);
    return exchange.json as Record<string, JsonValue>[];
  }

  /** How many categories the states try before they give up creating pets: each try is a POST. */
  const maxTries = 3;
  /** The category a create was accepted with, once one was. */
  let learned: string | undefined = categoryHint;
  /** True once every candidate was refused with 400: the deployment knows none of the verifier's guesses. */
  let exhausted = false;
  const refused: string[] = [];

  /** Categories worth trying, as exact digits: the one the spec suite learned, the first listed pet's, then 1. */
  async function candidates(): Promise<string[]> {
    const listed = (await listing('limit=1'))[0]?.categoryId;
    const fromListing = typeof listed === 'bigint' || (typeof listed === 'number' && Number.isInteger(listed)) ? [String(listed)] : [];
    return [...new Set([...(categoryHint === undefined ? [] : [categoryHint]), ...fromListing, '1'])].slice(0, maxTries);
  }

  function unavailable(): StateUnavailable {
    return new StateUnavailable(
      `the deployment refused to create a pet with categoryId ${refused.join(', ')} (400), a category it may legitimately not know; the pact's interaction cannot be verified (give a category it knows with --category-id)`,
    );
  }

  /** A category the deployment knows: the one a create was accepted with, else the first listed pet's, else 1. */
  async function knownCategory(): Promise<JsonValue> {
    if (learned !== undefined) return parseJson(learned);
    if (exhausted) throw unavailable();
    return (await listing('limit=1'))[0]?.categoryId ?? 1;
  }

  async function post(categoryId: string, status?: string): Promise<{ status: number; id?: JsonValue }> {
    const body = newPetJson(`petstore-verify ${runId} pact`, categoryId, status);
    const exchange = await client.send({ method: create.method, path: create.path, body });
    const pet = exchange.json as Record<string, JsonValue> | undefined;
    return { status: exchange.status, ...(pet?.id === undefined ? {} : { id: pet.id }) };
  }

  async function createPet(status?: string): Promise<StateParams> {
    if (exhausted) throw unavailable();
    const tries = learned === undefined ? await candidates() : [learned];
    let last = 0;
    for (const categoryId of tries) {
      const answer = await post(categoryId, status);
      last = answer.status;
      if (answer.status === 201 && answer.id !== undefined) {
        learned = categoryId;
        return { id: answer.id };
      }
      // A category the deployment does not know is its right to refuse: try the next.
      if (answer.status !== 400 || learned !== undefined) break;
      refused.push(categoryId);
    }
    if (learned === undefined && last === 400) {
      exhausted = true;
      throw unavailable();
    }
    throw new Error(`cannot set up the state: POST ${create.path} answered ${last}`);
  }

  async function ensure(query: string, status?: string): Promise<undefined> {
    if ((await listing(query)).length === 0) await createPet(status);
    return undefined;
  }

  return {
    [STATES.petsExist]: { mayWrite: true, setup: () => ensure('limit=1') },
    [STATES.soldPetExists]: { mayWrite: true, setup: () => ensure('status=sold&limit=1', 'sold') },
    [STATES.petExists]: { mayWrite: true, setup: () => createPet() },
    [STATES.categoryExists]: { mayWrite: false, setup: async () => ({ categoryId: await knownCategory() }) },
    [STATES.petAbsent]: {
      mayWrite: false,
      async setup() {
        // Parsed, not `Number()`: beyond 2^53 the id stays exact (a bigint), as the deployment's ids are.
        return { id: parseJson(absentIdBeyond((await listing(`limit=${max}`)).map((pet) => String(pet.id)))) };
      },
    },
  };
}
