import { type JsonValue, parseJson } from '../../json/lossless.js';
import type { Contract } from '../contract.js';
import type { HttpClient } from '../http.js';
import { absentIdBeyond, newPetJson } from '../pets.js';
import { STATES } from './names.js';

type StateParams = Record<string, JsonValue>;

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
export function stateSetups(contract: Contract, client: HttpClient, runId: string): Record<string, StateSetup> {
  const list = contract.operation('listPets').path;
  const create = contract.operation('createPet');
  const max = contract.integerParameter('listPets', 'limit').maximum;

  async function listing(query: string): Promise<Record<string, JsonValue>[]> {
    const exchange = await client.send({ method: 'GET', path: list, query });
    if (exchange.status !== 200 || !Array.isArray(exchange.json)) throw new Error(`cannot set up the state: GET ${list}?${query} answered ${exchange.status}`);
    return exchange.json as Record<string, JsonValue>[];
  }

  /** A category the deployment knows: the first listed pet's, else 1. */
  async function knownCategory(): Promise<JsonValue> {
    return (await listing('limit=1'))[0]?.categoryId ?? 1;
  }

  async function createPet(status?: string): Promise<StateParams> {
    const categoryId = String(await knownCategory());
    const body = newPetJson(`petstore-verify ${runId} pact`, categoryId, status);
    const exchange = await client.send({ method: create.method, path: create.path, body });
    const pet = exchange.json as Record<string, JsonValue> | undefined;
    if (exchange.status !== 201 || pet?.id === undefined) throw new Error(`cannot set up the state: POST ${create.path} answered ${exchange.status}`);
    return { id: pet.id };
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
