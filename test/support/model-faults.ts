/**
 * Faults only a model of the whole run can see, each a wrapper around the mock: an id given twice
 * many creates apart, items that vanish after enough later creates, an optional field dropped, a
 * filter that leaks items of no status or misses those of the default one; and documented headers
 * whose values break their schema in the spec. The run-wide check named for each must catch it.
 */
import { type JsonValue, parseJson, stringifyJson } from '../../src/json/lossless.js';
import { type Fault, isCreate, isGet, isList, json, type WebHandler } from './deployments.js';
import { LIMIT } from './page-size.js';

/** A pet as the mock answers it, read losslessly (a categoryId beyond 2^53 stays exact); the mock's ids are small numbers. */
type Pet = { [field: string]: JsonValue } & { id: number };

/** The mock's answer with its JSON body replaced by `change` of it, losslessly, and `headers` set. */
async function rewrite(response: Response, change: (body: JsonValue) => JsonValue, headers: Record<string, string> = {}): Promise<Response> {
  const body = change(parseJson(await response.text()));
  const out = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) out.set(name, value);
  out.delete('content-length');
  return new Response(stringifyJson(body), { status: response.status, headers: out });
}

/** An id no pet of these deployments has: the mock's own 404 for it, headers and all. */
const ABSENT = '999999999';

function idIn(request: Request): string | undefined {
  return /\/pets\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
}

/** The request for another pet id, as the mock would get it. */
function forId(request: Request, id: string): Request {
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/[^/]+$/, id);
  return new Request(url, request);
}

async function createdPet(response: Response): Promise<Pet | undefined> {
  return response.status === 201 ? (parseJson(await response.clone().text()) as Pet) : undefined;
}

/** Answers the mock's answer with each pet of a page or a read changed by `change` (undefined drops it from a page, or makes a read 404). */
async function mapPets(request: Request, response: Response, mock: WebHandler, change: (pet: Pet) => Pet | undefined): Promise<Response> {
  if (response.status !== 200) return response;
  if (isList(request)) return rewrite(response, (pets) => (pets as Pet[]).map(change).filter((pet) => pet !== undefined));
  const changed = change(parseJson(await response.clone().text()) as Pet);
  return changed ? rewrite(response, () => changed) : mock(forId(request, ABSENT));
}

/** A cache of the last `keep` created pets in front of a store that never got them: older created pets answer 404 and leave the listing. */
export function evictsAfter(keep: number): Fault {
  const created: number[] = [];
  const evicted = new Set<number>();
  return async (request, mock) => {
    if (isGet(request) && evicted.has(Number(idIn(request)))) return mock(forId(request, ABSENT));
    const response = await mock(request);
    const pet = isCreate(request) ? await createdPet(response) : undefined;
    if (pet) {
      created.push(pet.id);
      while (created.length > keep) evicted.add(created.shift() as number);
    }
    return isList(request) ? mapPets(request, response, mock, (one) => (evicted.has(one.id) ? undefined : one)) : response;
  };
}

/**
 * Ids from a sequence that wraps every `period` creates (a snowflake's few sequence bits, a coarse clock),
 * kept by an upsert: the create that gets an id again replaces the pet that had it.
 */
export function idsWrapEvery(period: number, first: number): Fault {
  let creates = 0;
  const latest = new Map<number, number>();
  const given = new Map<number, number>();
  return async (request, mock) => {
    const asked = Number(idIn(request));
    if (isGet(request) && given.has(asked)) return mock(forId(request, ABSENT));
    if (isGet(request) && latest.has(asked))
      return mapPets(request, await mock(forId(request, String(latest.get(asked)))), mock, (pet) => ({ ...pet, id: asked }));
    const response = await mock(request);
    const pet = isCreate(request) ? await createdPet(response) : undefined;
    if (pet) {
      const id = first + (creates++ % period);
      latest.set(id, pet.id);
      given.set(pet.id, id);
      return rewrite(response, () => ({ ...pet, id }), { location: `/v1/pets/${id}` });
    }
    if (!isList(request)) return response;
    return mapPets(request, response, mock, (one) => {
      const id = given.get(one.id);
      if (id === undefined) return one;
      return latest.get(id) === one.id ? { ...one, id } : undefined;
    });
  };
}

function without(pet: Pet, field: string): Pet {
  const { [field]: _, ...rest } = pet;
  return rest as Pet;
}

/** A store with no column for an optional field: created pets come back without it, and no filter on it finds them. */
export function dropsOptionalField(field: string): Fault {
  const created = new Set<number>();
  return async (request, mock) => {
    const response = await mock(request);
    const pet = isCreate(request) ? await createdPet(response) : undefined;
    if (pet) {
      created.add(pet.id);
      return rewrite(response, () => without(pet, field));
    }
    if (!isList(request) && !isGet(request)) return response;
    const filtered = new URL(request.url).searchParams.has(field);
    return mapPets(request, response, mock, (one) => (!created.has(one.id) ? one : filtered ? undefined : without(one, field)));
  };
}

/** The pets created without a status, as their 201 showed them: kept apart so a fault can list them where it likes. */
function createdWithoutStatus(): { serve(request: Request, mock: WebHandler): Promise<[Response, Pet | undefined]>; readonly pets: Map<number, Pet> } {
  const pets = new Map<number, Pet>();
  return {
    pets,
    async serve(request, mock) {
      if (!isCreate(request)) return [await mock(request), undefined];
      const sent = (await request
        .clone()
        .json()
        .catch(() => ({}))) as { status?: unknown };
      const response = await mock(request);
      const pet = await createdPet(response);
      if (pet && sent.status === undefined) pets.set(pet.id, pet);
      return [response, pet && sent.status === undefined ? pet : undefined];
    },
  };
}

/**
 * A pet created without a status has none (an open choice), but the filter is `status = ? OR status IS
 * NULL`: every such pet is listed under every status, without a status, so no check of one page sees it.
 */
export function filterLeaksNoStatus(): Fault {
  const none = createdWithoutStatus();
  return async (request, mock) => {
    const [response, pet] = await none.serve(request, mock);
    if (pet) return rewrite(response, () => without(pet, 'status'));
    if (isGet(request)) return mapPets(request, response, mock, (one) => (none.pets.has(one.id) ? without(one, 'status') : one));
    if (!isList(request) || response.status !== 200) return response;
    const limit = Number(new URL(request.url).searchParams.get('limit') ?? LIMIT.default);
    const leaked = [...none.pets.values()].map((one) => without(one, 'status'));
    // The pets of no status on every page, filtered or not: unfiltered as they should be, filtered as the leak.
    return rewrite(response, (pets) => [...(pets as Pet[]).filter((one) => !none.pets.has(one.id)), ...leaked].sort((a, b) => a.id - b.id).slice(0, limit));
  };
}

/** A pet created without a status reads as the default, but is stored with none, so the filter of the default status misses it. */
export function filterMissesDefaultStatus(): Fault {
  const none = createdWithoutStatus();
  return async (request, mock) => {
    const [response] = await none.serve(request, mock);
    if (!isList(request) || !new URL(request.url).searchParams.has('status')) return response;
    return mapPets(request, response, mock, (one) => (none.pets.has(one.id) ? undefined : one));
  };
}

/** Every response of `matches` with the header `name` set to `value`, which breaks its schema in the spec. */
export function headerBroken(name: string, value: string, matches: (request: Request) => boolean = () => true): Fault {
  return async (request, mock) => {
    const response = await mock(request);
    if (!matches(request) || !response.headers.has(name)) return response;
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  };
}

/** The `nth` request answered 429 with a Retry-After that is no number of seconds. */
export function retryAfterBroken(nth: number, value: string): Fault {
  let seen = 0;
  return (request, mock) =>
    ++seen === nth ? Promise.resolve(json(429, { code: 'too_many_requests', message: 'slow down', status: 429 }, { 'retry-after': value })) : mock(request);
}
